//! Game formats as data (issue 13; docs/formats.md): who plays against whom, shared pools,
//! elimination timing, scoring and priority, read from `python/ketharmad/data/formats.toml`
//! (shipped with the package and compiled into the crate) and from `[formats.NAME]` tables of a
//! card data file. Every number, switch and choice of every format is a parameter
//! `format.NAME.KEY`; `rules.format` picks the format a game plays.

use super::params::{ParamInfo, ParamKind};

/// The formats file shipped with the package.
pub const DEFAULT_FORMATS: &str = include_str!("../../python/ketharmad/data/formats.toml");

/// How seats form teams.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Teams {
    None,
    /// Seat p's partner is p + n/2 (mod n): Coalition's partners opposite (E81).
    Opposite,
    /// Explicit teams of seat numbers.
    Listed(Vec<Vec<u8>>),
}

macro_rules! choice_enum {
    ($(#[$m:meta])* $name:ident { $($var:ident = $s:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum $name { $($var),+ }
        impl $name {
            pub const NAMES: &'static [&'static str] = &[$($s),+];
            const ALL: &'static [$name] = &[$($name::$var),+];
            pub fn name(self) -> &'static str {
                Self::NAMES[self as usize]
            }
            fn from_index(i: i64) -> $name {
                Self::ALL[(i as usize).min(Self::ALL.len() - 1)]
            }
        }
    };
}

choice_enum!(
    /// Whom a seat may act against (R15.5 "opponent").
    Enemies { All = "all", Neighbours = "neighbours", Graph = "graph" }
);
choice_enum!(
    /// How an enemy graph is read (V4).
    GraphReading { Symmetric = "symmetric", Directed = "directed" }
);
choice_enum!(
    /// A seat whose enemies are all out of the game (V4).
    NoEnemyLeft { Any = "any", Nobody = "none" }
);
choice_enum!(
    /// Whom a Campaign may attack.
    Attack { Enemies = "enemies", Left = "left" }
);
choice_enum!(
    /// Whose Support and Scandal a seat uses.
    Pools { Seat = "seat", Team = "team" }
);
choice_enum!(
    /// When a pool at 0 eliminates.
    Elimination { Immediate = "immediate", EndOfTurn = "end_of_turn" }
);
choice_enum!(
    /// How the game is won.
    Scoring { LastStanding = "last_standing", Team = "team", VictoryPoints = "victory_points" }
);
choice_enum!(
    /// Victory-point ties.
    TieBreak { Survivor = "survivor", Shared = "shared" }
);
choice_enum!(
    /// Who holds priority in windows.
    Priority { Player = "player", Team = "team" }
);

/// One compiled format: its name and every mechanism's setting.
#[derive(Clone, Debug, PartialEq)]
pub struct FormatSpec {
    pub name: String,
    pub description: String,
    pub seats_min: usize,
    pub seats_max: usize,
    pub teams: Teams,
    pub enemies: Enemies,
    pub graph: Vec<Vec<u8>>,
    pub graph_reading: GraphReading,
    pub no_enemy_left: NoEnemyLeft,
    pub attack: Attack,
    pub pools: Pools,
    /// Starting Support of each pool; 0 = `rules.starting_support`.
    pub support: i32,
    pub second_player_bonus: bool,
    pub elimination: Elimination,
    pub scoring: Scoring,
    /// Victory points in tenths.
    pub points_elimination: i32,
    pub points_last_standing: i32,
    pub tie_break: TieBreak,
    pub priority: Priority,
    pub partner_blocking: bool,
    pub one_opponent_per_campaign: bool,
    pub decline_to_start: bool,
    pub voter_takeover: bool,
    pub pacts: Vec<(u8, u8)>,
    pub pact_until_players: i32,
    pub pact_rounds: i32,
    pub pact_sanction: i32,
}

impl Default for FormatSpec {
    /// The free-for-all (R15).
    fn default() -> FormatSpec {
        FormatSpec {
            name: "ffa".into(),
            description: "everyone against everyone (R15)".into(),
            seats_min: 2,
            seats_max: 4,
            teams: Teams::None,
            enemies: Enemies::All,
            graph: Vec::new(),
            graph_reading: GraphReading::Symmetric,
            no_enemy_left: NoEnemyLeft::Any,
            attack: Attack::Enemies,
            pools: Pools::Seat,
            support: 0,
            second_player_bonus: true,
            elimination: Elimination::Immediate,
            scoring: Scoring::LastStanding,
            points_elimination: 10,
            points_last_standing: 15,
            tie_break: TieBreak::Survivor,
            priority: Priority::Player,
            partner_blocking: false,
            one_opponent_per_campaign: false,
            decline_to_start: false,
            voter_takeover: true,
            pacts: Vec::new(),
            pact_until_players: 2,
            pact_rounds: 0,
            pact_sanction: 0,
        }
    }
}

/// One format key that is a parameter: (key, kind, min, max, choice names, description).
type FormatKey = (&'static str, ParamKind, i64, i64, &'static [&'static str], &'static str);

/// The format keys that are parameters.
const KEYS: &[FormatKey] = &[
    ("seats_min", ParamKind::Int, 1, 9, &[], "fewest seats"),
    ("seats_max", ParamKind::Int, 1, 9, &[], "most seats"),
    ("enemies", ParamKind::Choice, 0, 0, Enemies::NAMES, "whom a seat may act against"),
    ("graph_reading", ParamKind::Choice, 0, 0, GraphReading::NAMES, "how the enemy graph is read (V4)"),
    ("no_enemy_left", ParamKind::Choice, 0, 0, NoEnemyLeft::NAMES, "a seat with no enemy left in the game (V4)"),
    ("attack", ParamKind::Choice, 0, 0, Attack::NAMES, "whom a Campaign may attack"),
    ("pools", ParamKind::Choice, 0, 0, Pools::NAMES, "whose Support and Scandal a seat uses"),
    ("support", ParamKind::Int, 0, 1000, &[], "starting Support of each pool (0: rules.starting_support)"),
    ("second_player_bonus", ParamKind::Bool, 0, 1, &[], "the two-seat second player's bonus (R3.8)"),
    ("elimination", ParamKind::Choice, 0, 0, Elimination::NAMES, "when a pool at 0 eliminates"),
    ("scoring", ParamKind::Choice, 0, 0, Scoring::NAMES, "how the game is won"),
    ("points_elimination", ParamKind::Int, 0, 1000, &[], "victory points (tenths) for the eliminated seat's right neighbour (V3)"),
    ("points_last_standing", ParamKind::Int, 0, 1000, &[], "victory points (tenths) for the last seat standing (V3)"),
    ("tie_break", ParamKind::Choice, 0, 0, TieBreak::NAMES, "victory-point ties (V3)"),
    ("priority", ParamKind::Choice, 0, 0, Priority::NAMES, "who holds priority in windows (V2)"),
    ("partner_blocking", ParamKind::Bool, 0, 1, &[], "a player may block with the partner's Figures (E86)"),
    ("one_opponent_per_campaign", ParamKind::Bool, 0, 1, &[], "all attackers of a Campaign attack one opponent (V2)"),
    ("decline_to_start", ParamKind::Bool, 0, 1, &[], "the start player may decline to start (V2)"),
    ("voter_takeover", ParamKind::Bool, 0, 1, &[], "Voter takeover (R15.4) is on"),
    ("pact_until_players", ParamKind::Int, 0, 9, &[], "a pact holds while more than this many seats are in (V1)"),
    ("pact_rounds", ParamKind::Int, 0, 100_000, &[], "a pact holds for this many rounds, 0 = no limit (V1)"),
    ("pact_sanction", ParamKind::Int, 0, 1000, &[], "Support the breaker of a pact loses (V1)"),
];
/// Keys that are structure, not parameters.
const STRUCTURE_KEYS: &[&str] = &["base", "description", "teams", "graph", "pacts"];

/// A format as read from a file, before parameter overrides: its key values (ints, choice
/// indices) and its structure.
#[derive(Clone, Debug)]
pub struct RawFormat {
    pub name: String,
    pub spec: FormatSpec,
}

fn seat_lists(v: &toml::Value, what: &str) -> Result<Vec<Vec<u8>>, String> {
    let arr = v.as_array().ok_or_else(|| format!("{what} must be a list of lists of seat numbers"))?;
    arr.iter()
        .map(|inner| {
            inner
                .as_array()
                .ok_or_else(|| format!("{what} must be a list of lists of seat numbers"))?
                .iter()
                .map(|x| match x.as_integer() {
                    Some(i) if (0..9).contains(&i) => Ok(i as u8),
                    _ => Err(format!("{what}: {x} is not a seat number 0..=8")),
                })
                .collect()
        })
        .collect()
}

fn set_key(spec: &mut FormatSpec, key: &str, v: &toml::Value, fname: &str) -> Result<(), String> {
    let what = format!("format '{fname}': key '{key}'");
    match key {
        "base" => Ok(()),
        "description" => {
            spec.description = v.as_str().ok_or_else(|| format!("{what} must be a string"))?.to_string();
            Ok(())
        }
        "teams" => {
            spec.teams = match v {
                toml::Value::String(s) if s == "none" => Teams::None,
                toml::Value::String(s) if s == "opposite" => Teams::Opposite,
                toml::Value::String(s) => return Err(format!("{what}: '{s}' is not one of none, opposite, or a list of teams")),
                _ => Teams::Listed(seat_lists(v, &what)?),
            };
            Ok(())
        }
        "graph" => {
            spec.graph = seat_lists(v, &what)?;
            Ok(())
        }
        "pacts" => {
            spec.pacts = seat_lists(v, &what)?
                .into_iter()
                .map(|p| if p.len() == 2 && p[0] != p[1] { Ok((p[0], p[1])) } else { Err(format!("{what}: a pact is two different seats, got {p:?}")) })
                .collect::<Result<_, _>>()?;
            Ok(())
        }
        _ => {
            let (_, kind, min, max, choices, _) = KEYS.iter().find(|k| k.0 == key).ok_or_else(|| {
                format!("format '{fname}': unknown key '{key}' (known: {}, {})", STRUCTURE_KEYS.join(", "), KEYS.iter().map(|k| k.0).collect::<Vec<_>>().join(", "))
            })?;
            let x = match (kind, v) {
                (ParamKind::Int, toml::Value::Integer(i)) if (*min..=*max).contains(i) => *i,
                (ParamKind::Int, toml::Value::Integer(i)) => return Err(format!("{what}: {i} is out of range {min}..={max}")),
                (ParamKind::Bool, toml::Value::Boolean(b)) => *b as i64,
                (ParamKind::Choice, toml::Value::String(s)) => {
                    choices.iter().position(|c| c == s).ok_or_else(|| format!("{what}: '{s}' is not one of {}", choices.join(", ")))? as i64
                }
                _ => return Err(format!("{what} must be a {}", kind.name())),
            };
            set_value(spec, key, x);
            Ok(())
        }
    }
}

/// Set a parameter key (int value; bools 0/1; choices their index).
fn set_value(s: &mut FormatSpec, key: &str, x: i64) {
    let b = x != 0;
    match key {
        "seats_min" => s.seats_min = x as usize,
        "seats_max" => s.seats_max = x as usize,
        "enemies" => s.enemies = Enemies::from_index(x),
        "graph_reading" => s.graph_reading = GraphReading::from_index(x),
        "no_enemy_left" => s.no_enemy_left = NoEnemyLeft::from_index(x),
        "attack" => s.attack = Attack::from_index(x),
        "pools" => s.pools = Pools::from_index(x),
        "support" => s.support = x as i32,
        "second_player_bonus" => s.second_player_bonus = b,
        "elimination" => s.elimination = Elimination::from_index(x),
        "scoring" => s.scoring = Scoring::from_index(x),
        "points_elimination" => s.points_elimination = x as i32,
        "points_last_standing" => s.points_last_standing = x as i32,
        "tie_break" => s.tie_break = TieBreak::from_index(x),
        "priority" => s.priority = Priority::from_index(x),
        "partner_blocking" => s.partner_blocking = b,
        "one_opponent_per_campaign" => s.one_opponent_per_campaign = b,
        "decline_to_start" => s.decline_to_start = b,
        "voter_takeover" => s.voter_takeover = b,
        "pact_until_players" => s.pact_until_players = x as i32,
        "pact_rounds" => s.pact_rounds = x as i32,
        "pact_sanction" => s.pact_sanction = x as i32,
        _ => {}
    }
}

/// A key's value as an int (bools 0/1, choices their index).
fn get_value(s: &FormatSpec, key: &str) -> i64 {
    match key {
        "seats_min" => s.seats_min as i64,
        "seats_max" => s.seats_max as i64,
        "enemies" => s.enemies as i64,
        "graph_reading" => s.graph_reading as i64,
        "no_enemy_left" => s.no_enemy_left as i64,
        "attack" => s.attack as i64,
        "pools" => s.pools as i64,
        "support" => s.support as i64,
        "second_player_bonus" => s.second_player_bonus as i64,
        "elimination" => s.elimination as i64,
        "scoring" => s.scoring as i64,
        "points_elimination" => s.points_elimination as i64,
        "points_last_standing" => s.points_last_standing as i64,
        "tie_break" => s.tie_break as i64,
        "priority" => s.priority as i64,
        "partner_blocking" => s.partner_blocking as i64,
        "one_opponent_per_campaign" => s.one_opponent_per_campaign as i64,
        "decline_to_start" => s.decline_to_start as i64,
        "voter_takeover" => s.voter_takeover as i64,
        "pact_until_players" => s.pact_until_players as i64,
        "pact_rounds" => s.pact_rounds as i64,
        "pact_sanction" => s.pact_sanction as i64,
        _ => 0,
    }
}

/// Read the `formats` table of a TOML document (the shipped file or a card data file) on top
/// of `known` formats: a table with `base = "NAME"` starts from that format (known or earlier
/// in the same table order); a table without `base` starts from the free-for-all. A name
/// already known is replaced.
pub fn read_formats(table: &toml::Table, known: &mut Vec<RawFormat>) -> Result<(), String> {
    let Some(f) = table.get("formats") else { return Ok(()) };
    let f = f.as_table().ok_or("[formats] must be a table of [formats.NAME] tables")?;
    // bases may come later in the file: resolve in passes
    let mut pending: Vec<(&String, &toml::Table)> = Vec::new();
    for (name, v) in f {
        let t = v.as_table().ok_or_else(|| format!("format '{name}' must be a table"))?;
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
            return Err(format!("format name '{name}' must be letters, digits, '_' or '-'"));
        }
        pending.push((name, t));
    }
    while !pending.is_empty() {
        let before = pending.len();
        let mut rest = Vec::new();
        for (name, t) in pending {
            let base = match t.get("base") {
                None => Some(FormatSpec::default()),
                Some(toml::Value::String(b)) if b == name => return Err(format!("format '{name}': base names itself")),
                Some(toml::Value::String(b)) => known.iter().find(|k| &k.name == b).map(|k| k.spec.clone()),
                Some(_) => return Err(format!("format '{name}': key 'base' must be a format name")),
            };
            let Some(mut spec) = base else {
                rest.push((name, t));
                continue;
            };
            spec.name = name.clone();
            for (k, v) in t {
                set_key(&mut spec, k, v, name)?;
            }
            check_spec(&spec)?;
            known.retain(|k| &k.name != name);
            known.push(RawFormat { name: name.clone(), spec });
        }
        if rest.len() == before {
            let (name, t) = rest[0];
            return Err(format!("format '{name}': unknown base format '{}'", t.get("base").and_then(|b| b.as_str()).unwrap_or("?")));
        }
        pending = rest;
    }
    Ok(())
}

/// The shipped formats.
pub fn default_formats() -> Vec<RawFormat> {
    let mut v = Vec::new();
    // unwrap: the shipped file is valid (tested by tests/formats.rs)
    let t: toml::Table = DEFAULT_FORMATS.parse().expect("shipped formats.toml parses");
    read_formats(&t, &mut v).expect("shipped formats.toml is valid");
    v
}

/// Structural checks of a format (ranges of single keys are checked when read).
pub fn check_spec(s: &FormatSpec) -> Result<(), String> {
    let name = &s.name;
    if s.seats_min > s.seats_max {
        return Err(format!("format '{name}': seats_min {} is more than seats_max {}", s.seats_min, s.seats_max));
    }
    if let Teams::Listed(teams) = &s.teams {
        let mut seen = 0u16;
        for t in teams {
            for &q in t {
                if seen >> q & 1 != 0 {
                    return Err(format!("format '{name}': seat {q} is in two teams"));
                }
                seen |= 1 << q;
            }
        }
    }
    if s.enemies == Enemies::Graph && s.graph.is_empty() {
        return Err(format!("format '{name}': enemies = \"graph\" needs a graph"));
    }
    for (p, l) in s.graph.iter().enumerate() {
        if l.contains(&(p as u8)) {
            return Err(format!("format '{name}': graph: seat {p} lists itself"));
        }
    }
    if s.scoring == Scoring::Team && s.teams == Teams::None {
        return Err(format!("format '{name}': scoring = \"team\" needs teams"));
    }
    if s.pools == Pools::Team && s.teams == Teams::None {
        return Err(format!("format '{name}': pools = \"team\" needs teams"));
    }
    Ok(())
}

/// Combinations of mechanisms the engine does not play: a clear error instead of a game that
/// silently ignores one. Every single mechanism of `FormatSpec` is played (issue 13); what is
/// left is a mechanism that needs another: team priority without teams.
pub fn check_built(s: &FormatSpec) -> Result<(), String> {
    if s.priority == Priority::Team && s.teams == Teams::None {
        return Err(format!("format '{}': priority = \"team\" needs teams", s.name));
    }
    Ok(())
}

/// The `format.NAME.KEY` parameters of every known format.
pub fn format_params(formats: &[RawFormat], out: &mut Vec<ParamInfo>) {
    for f in formats {
        for (key, kind, min, max, choices, desc) in KEYS {
            let v = get_value(&f.spec, key);
            let (default_str, min, max) = match kind {
                ParamKind::Choice => (choices[v as usize].to_string(), 0, choices.len() as i64 - 1),
                ParamKind::Bool => ((v != 0).to_string(), 0, 1),
                _ => (v.to_string(), *min, *max),
            };
            out.push(ParamInfo {
                name: format!("format.{}.{key}", f.name),
                default: v,
                default_str,
                kind: *kind,
                min,
                max,
                card: "format".into(),
                description: format!("{}: {desc}", f.name),
                choices: choices.iter().map(|c| c.to_string()).collect(),
            });
        }
    }
}

/// The format `name` with its `format.NAME.*` values from resolved parameters (`get` returns
/// a registered parameter's int value).
pub fn resolve(formats: &[RawFormat], name: &str, get: &dyn Fn(&str) -> i64) -> Result<FormatSpec, String> {
    let f = formats
        .iter()
        .find(|f| f.name == name)
        .ok_or_else(|| format!("unknown format '{name}' (known: {})", formats.iter().map(|f| f.name.as_str()).collect::<Vec<_>>().join(", ")))?;
    let mut spec = f.spec.clone();
    for (key, ..) in KEYS {
        set_value(&mut spec, key, get(&format!("format.{name}.{key}")));
    }
    check_spec(&spec)?;
    Ok(spec)
}
