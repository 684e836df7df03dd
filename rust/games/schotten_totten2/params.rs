//! R11.4 every rule number as a named parameter, with the spec's defaults; R16 open questions
//! take the marked default and keep the alternative as a parameter.

use super::wall::{Cond, Face, Section, COND_NAMES, DEFAULT_WALL};
use crate::harness::{GameParam, ParamKind};

macro_rules! wall_names {
    ($($id:literal),*) => {
        [$([
            concat!("wall.", $id, ".intact_cards"),
            concat!("wall.", $id, ".intact_condition"),
            concat!("wall.", $id, ".damaged_cards"),
            concat!("wall.", $id, ".damaged_condition"),
        ]),*]
    };
}

/// Parameter names of the R2 table, per section: intact cards/condition, damaged cards/condition.
pub const WALL_NAMES: [[&str; 4]; 7] = wall_names!("left_ditch", "left_tower", "left_wall", "gate", "right_wall", "right_tower", "right_ditch");

/// `rules.oil_target` choices (R5.2.1).
pub const OIL_TARGETS: [&str; 2] = ["oldest", "newest"];

/// Resolved parameters of one game (copied into every state).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    /// R3.2 cards in each starting hand
    pub hand_size: u8,
    /// R1.3 / R5.2 cauldrons of the Defender
    pub cauldrons: u8,
    /// R5.2 cauldrons per Defender turn
    pub cauldrons_per_turn: u8,
    /// R1.1 colours in the siege deck
    pub colours: u8,
    /// R1.1 highest value (values 0..=max_value)
    pub max_value: u8,
    /// R10.2 damaged sections that win for the Attacker
    pub damages_to_win: u8,
    /// R10.2 claiming an already damaged section wins
    pub damaged_twice_wins: bool,
    /// R5.2.1 oil hits the newest Attacker card instead of the oldest
    pub oil_newest: bool,
    /// R8.3.1 a colour run keeps its rank on Colour / Run sections
    pub keep_colour_run: bool,
    /// R4.2 a player without a legal play still draws
    pub no_play_draws: bool,
    /// R4.2 alternative (public engines): the Defender wins when he cannot play
    pub full_side_defender_wins: bool,
    /// R7.2–R7.3 the Attacker plays one last turn after the last draw
    pub attacker_last_turn: bool,
    /// R6.3 a 0 and the 11 of its colour cancel
    pub zero_eleven: bool,
    /// R2 the wall table
    pub wall: [Section; 7],
}

impl Default for Params {
    fn default() -> Params {
        Params::from_values(&registry().iter().map(|p| p.default).collect::<Vec<_>>()).expect("defaults are valid")
    }
}

fn int(name: &'static str, default: i64, min: i64, max: i64, description: &'static str) -> GameParam {
    GameParam { name: name.into(), default: default as f64, min: min as f64, max: max as f64, kind: ParamKind::Int, choices: Vec::new(), description: description.into() }
}
fn boolean(name: &'static str, default: bool, description: &'static str) -> GameParam {
    GameParam { name: name.into(), default: default as i64 as f64, min: 0.0, max: 1.0, kind: ParamKind::Bool, choices: Vec::new(), description: description.into() }
}

/// The parameter registry (order is the order of `values`).
pub fn registry() -> Vec<GameParam> {
    let mut r = vec![
        int("rules.hand_size", 6, 1, 10, "R3.2 cards in each starting hand (and the hand size kept by drawing)"),
        int("rules.cauldrons", 3, 0, 7, "R1.3/R5.2 cauldrons of boiling oil the Defender has"),
        int("rules.cauldrons_per_turn", 1, 1, 7, "R5.2 cauldrons the Defender may pour in one turn"),
        int("rules.colours", 5, 1, 5, "R1.1 colours in the siege deck"),
        int("rules.max_value", 11, 3, 11, "R1.1 highest card value (values run 0..=max_value; R6.3 uses it as the '11')"),
        int("rules.damages_to_win", 4, 1, 7, "R10.2 the Attacker wins when this many sections are damaged"),
        boolean("rules.damaged_twice_wins", true, "R10.2 claiming an already damaged section wins for the Attacker"),
        GameParam {
            name: "rules.oil_target".into(),
            default: 0.0,
            min: 0.0,
            max: 1.0,
            kind: ParamKind::Choice,
            choices: crate::harness::choices(&OIL_TARGETS),
            description: "R5.2.1 which Attacker card the oil removes: the oldest (closest to the wall, default) or the newest (Ruiqi's Java host)".into(),
        },
        boolean(
            "rules.restricted_keeps_colour_run",
            true,
            "R8.3.1 (open R16.2) a colour run keeps its rank on damaged Colour/Run sections; false: it counts as the named kind (Pulse)",
        ),
        GameParam {
            name: "rules.proof_ignores_oil".into(),
            default: 1.0,
            min: 1.0,
            max: 1.0,
            kind: ParamKind::Bool,
            choices: Vec::new(),
            description: "R9.3.5 the claim proof ignores unused cauldrons (only true: a claim resolves at once, oil cannot answer it)".into(),
        },
        boolean("rules.no_play_draws", false, "R4.2 (open R16.3) a player with no legal play still draws"),
        boolean("rules.full_side_defender_wins", false, "R4.2 alternative (open R16.3, Ruiqi's host and the ISMCTS client): the Defender wins when he has no legal play"),
        boolean(
            "rules.attacker_last_turn",
            true,
            "R7.2-R7.3 after the last draw the Attacker plays one last turn; false: the game ends at the last draw (the ISMCTS client's model)",
        ),
        boolean("rules.zero_eleven", true, "R6.3 a 0 played against the opponent's 11 of its colour (or an 11 against the 0) discards both"),
        GameParam {
            name: "rules.tactical".into(),
            default: 0.0,
            min: 0.0,
            max: 0.0,
            kind: ParamKind::Bool,
            choices: Vec::new(),
            description: "R12 the tactical variant (not implemented: only false)".into(),
        },
    ];
    for (i, names) in WALL_NAMES.iter().enumerate() {
        let s = DEFAULT_WALL[i];
        let face = |f: Face, cards: &'static str, cond: &'static str, which: &'static str| {
            [
                int(cards, f.cards as i64, 2, 4, if which == "i" { "R2 cards per side of this section, intact" } else { "R2 cards per side of this section, damaged" }),
                GameParam {
                    name: cond.into(),
                    default: f.cond as usize as f64,
                    min: 0.0,
                    max: (COND_NAMES.len() - 1) as f64,
                    kind: ParamKind::Choice,
                    choices: crate::harness::choices(&COND_NAMES),
                    description: (if which == "i" { "R2/R8.3 the formation condition of this section, intact" } else { "R2/R8.3 the formation condition, damaged" }).into(),
                },
            ]
        };
        r.extend(face(s.intact, names[0], names[1], "i"));
        r.extend(face(s.damaged, names[2], names[3], "d"));
    }
    r
}

impl Params {
    /// Read resolved values (one per registry entry). Bad combinations are errors.
    pub fn from_values(v: &[f64]) -> Result<Params, String> {
        let n = registry().len();
        if v.len() != n {
            return Err(format!("schotten_totten_2 has {n} parameters, got {} values", v.len()));
        }
        let b = |i: usize| v[i] != 0.0;
        let mut wall = DEFAULT_WALL;
        for (i, s) in wall.iter_mut().enumerate() {
            let o = 15 + 4 * i;
            s.intact = Face { cards: v[o] as u8, cond: Cond::from_index(v[o + 1] as usize) };
            s.damaged = Face { cards: v[o + 2] as u8, cond: Cond::from_index(v[o + 3] as usize) };
        }
        let p = Params {
            hand_size: v[0] as u8,
            cauldrons: v[1] as u8,
            cauldrons_per_turn: v[2] as u8,
            colours: v[3] as u8,
            max_value: v[4] as u8,
            damages_to_win: v[5] as u8,
            damaged_twice_wins: b(6),
            oil_newest: v[7] as usize == 1,
            keep_colour_run: b(8),
            no_play_draws: b(10),
            full_side_defender_wins: b(11),
            attacker_last_turn: b(12),
            zero_eleven: b(13),
            wall,
        };
        let deck = p.colours as usize * (p.max_value as usize + 1);
        if deck < 2 * p.hand_size as usize {
            return Err(format!(
                "rules.hand_size: two hands of {} need {} cards, the deck of rules.colours = {} and rules.max_value = {} has {deck}",
                p.hand_size,
                2 * p.hand_size,
                p.colours,
                p.max_value
            ));
        }
        Ok(p)
    }

    /// Cards in the siege deck.
    pub fn deck_size(&self) -> usize {
        self.colours as usize * (self.max_value as usize + 1)
    }
}
