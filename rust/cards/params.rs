//! Named parameters: every number on a card (`<card_id>.<field>`), every rule number
//! (`rules.<field>`) and every keyword-wide number (`keyword.<kw>.<field>`), with defaults,
//! kinds and ranges; overrides are checked and compiled into a `CardDb`.

use super::effects::*;
use super::loader::{RawAbility, RawCard, RawDb};
use super::model::*;
use std::collections::HashMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamKind {
    Int,
    Bool,
    Cost,
    Choice,
}

impl ParamKind {
    pub fn name(self) -> &'static str {
        match self {
            ParamKind::Int => "int",
            ParamKind::Bool => "bool",
            ParamKind::Cost => "cost",
            ParamKind::Choice => "choice",
        }
    }
}

#[derive(Clone, Debug)]
pub struct ParamInfo {
    pub name: String,
    pub default: i64,
    pub default_str: String,
    pub kind: ParamKind,
    pub min: i64,
    pub max: i64,
    pub card: String,
    pub description: String,
    /// The names of a choice parameter's values, in index order (empty for other kinds).
    pub choices: Vec<String>,
}

/// A parameter value as given by a caller.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamValue {
    Int(i64),
    Bool(bool),
    Str(String),
}

/// Rule numbers (rules.md R17) and keyword-wide numbers (cards.md §2).
#[derive(Clone, Debug)]
pub struct Rules {
    pub starting_support: i32,
    pub second_player_bonus: i32,
    pub opening_hand: i32,
    pub max_mulligans: i32,
    pub hand_limit: i32,
    pub draws_per_turn: i32,
    pub start_player_skips_first_draw: bool,
    pub scandal_threshold: i32,
    pub scandal_threshold_loss: i32,
    pub expose_cost: Cost,
    pub expose_max_taken: i32,
    pub expose_loss_per_token: i32,
    pub exposes_per_turn: i32,
    pub recruits_per_turn: i32,
    pub bases_per_turn: i32,
    pub campaigns_per_turn: i32,
    pub swap_cost: Cost,
    pub empty_deck_loss: i32,
    pub propaganda_min_blockers: i32,
    pub voter_takeover_gain: i32,
    /// false = "source" (E77), true = "active_player".
    pub voter_takeover_credit_active: bool,
    pub newsfeed_row_size: i32,
    pub token_card_limit: i32,
    pub allow_mirror: bool,
    /// Cards in a custom deck list of one faction (R2.1; docs/decks.md).
    pub deck_size: i32,
    /// A Mixed deck's non-Base cards from each faction (R16.4, E90).
    pub mixed_deck_non_base: i32,
    /// A Mixed deck's Bases from each faction (R16.4, E90).
    pub mixed_deck_bases: i32,
    /// A custom list may hold more copies of a card than its faction deck (E90 lifted).
    pub allow_extra_copies: bool,
    pub max_rounds: i32,
    pub max_actions_per_turn: i32,
    pub supermajority_institutions: i32,
    pub unity_parties: i32,
    pub joint_candidate_influence: i32,
    pub joint_candidate_credibility: i32,
    pub movement_per_turn: i32,
    pub outrage_sympathy: i32,
    pub counter_influence: i32,
    pub counter_credibility: i32,
    /// The game format (`rules.format` with its `format.NAME.*` values; docs/formats.md).
    pub format: super::formats::FormatSpec,
}

/// (name, default, min, max, description) of integer and bool rule parameters.
const RULE_INTS: &[(&str, i64, i64, i64, &str)] = &[
    ("rules.starting_support", 20, 1, 1000, "Support each player starts with (R1.1)"),
    ("rules.second_player_bonus", 5, 0, 100, "extra starting Support of the 2-player second player (R3.8)"),
    ("rules.opening_hand", 7, 0, 20, "cards in the opening hand (R3.2)"),
    ("rules.max_mulligans", 7, 0, 7, "most redraws a player may take (R3.3.3, E7)"),
    ("rules.hand_limit", 7, 0, 50, "hand size after Close (R7.4)"),
    ("rules.draws_per_turn", 1, 0, 5, "cards drawn in the Draw step (R7.2)"),
    ("rules.scandal_threshold", 6, 1, 100, "Scandal at which the Draw step costs Support (R10.2.1)"),
    ("rules.scandal_threshold_loss", 1, 0, 20, "Support lost at the threshold (R10.2.1)"),
    ("rules.expose_max_taken", 2, 0, 20, "Scandal the basic Exposé takes at most (R10.3)"),
    ("rules.expose_loss_per_token", 1, 0, 10, "Support lost per Scandal taken by an Exposé (R10.3)"),
    ("rules.exposes_per_turn", 1, 0, 5, "basic Exposés per turn (R7.3)"),
    ("rules.recruits_per_turn", 1, 0, 5, "Recruits per turn (R7.3, R11.2)"),
    ("rules.bases_per_turn", 1, 0, 5, "Bases played per turn (R6.8)"),
    ("rules.campaigns_per_turn", 1, 0, 5, "Campaigns per turn (R9.1)"),
    ("rules.empty_deck_loss", 2, 0, 20, "Support lost per card not drawn from an empty deck (R7.6)"),
    ("rules.propaganda_min_blockers", 2, 1, 5, "blockers a Propaganda Figure needs (R9.3)"),
    ("rules.voter_takeover_gain", 5, 0, 50, "Support for knocking out an opponent in your turn (R15.4)"),
    ("rules.newsfeed_row_size", 3, 0, 12, "face-up Newsfeed cards (R11.1)"),
    ("rules.token_card_limit", 4, 0, 8, "token cards of each kind in the box (R2.7.1, E3)"),
    ("rules.deck_size", 31, 1, 200, "cards in a custom deck list of one faction (R2.1; docs/decks.md)"),
    ("rules.mixed_deck_non_base", 9, 0, 18, "non-Base cards a Mixed deck takes from each faction (R16.4, E90)"),
    ("rules.mixed_deck_bases", 6, 0, 13, "Bases a Mixed deck takes from each faction (R16.4, E90)"),
    ("rules.max_rounds", 500, 1, 100_000, "safety cap: rounds before a game is unfinished (R7.8, E35)"),
    ("rules.max_actions_per_turn", 1000, 10, 100_000, "safety cap: actions in one turn (R7.8, E35)"),
    ("keyword.supermajority.institutions", 2, 0, 20, "Institutions Supermajority needs"),
    ("keyword.unity.parties", 3, 0, 10, "different parties Unity needs"),
    ("keyword.joint_candidate.influence_bonus", 2, 0, 20, "Joint Candidate's Influence bonus"),
    ("keyword.joint_candidate.credibility_bonus", 2, 0, 20, "Joint Candidate's Credibility bonus"),
    ("keyword.movement.sympathy_per_turn", 1, 0, 10, "counters Movement puts each turn"),
    ("keyword.outrage.sympathy", 1, 0, 10, "counters per Outrage trigger"),
    ("keyword.sympathy.counter_influence", 1, 0, 10, "Influence one Sympathy counter gives"),
    ("keyword.sympathy.counter_credibility", 1, 0, 10, "Credibility one Sympathy counter gives"),
];
const RULE_BOOLS: &[(&str, bool, &str)] = &[
    ("rules.start_player_skips_first_draw", true, "the start player skips the first draw (R3.7)"),
    ("rules.allow_mirror", false, "allow two players with the same faction (R3.1.1, E5)"),
    ("rules.allow_extra_copies", false, "a custom deck list may hold more copies of a card than its faction deck (E90 lifted; docs/decks.md)"),
];
const RULE_COSTS: &[(&str, &str, &str)] = &[("rules.expose_cost", "{1}{M}", "cost of the basic Exposé (R10.3.1, E51)"), ("rules.swap_cost", "{1}", "cost of Swap (R6.7)")];
const RULE_CHOICES: &[(&str, &[&str], &str)] = &[("rules.voter_takeover_credit", &["source", "active_player"], "who is credited with a knock-out (R15.4.1, E77)")];

const NUMBERED_KW: &[&str] = &["scandal", "expose", "movement", "sympathy", "defector", "lone"];

/// Every parameter of a card set.
pub fn registry(raw: &RawDb) -> Vec<ParamInfo> {
    let mut out = Vec::new();
    for &(name, d, min, max, desc) in RULE_INTS {
        out.push(ParamInfo {
            name: name.into(),
            default: d,
            default_str: d.to_string(),
            kind: ParamKind::Int,
            min,
            max,
            card: "rules".into(),
            description: desc.into(),
            choices: Vec::new(),
        });
    }
    for &(name, d, desc) in RULE_BOOLS {
        out.push(ParamInfo {
            name: name.into(),
            default: d as i64,
            default_str: d.to_string(),
            kind: ParamKind::Bool,
            min: 0,
            max: 1,
            card: "rules".into(),
            description: desc.into(),
            choices: Vec::new(),
        });
    }
    for &(name, d, desc) in RULE_COSTS {
        // min/max: the bounds of the generic total and of each colour's pips (Cost::parse_braces)
        out.push(ParamInfo {
            name: name.into(),
            default: 0,
            default_str: d.into(),
            kind: ParamKind::Cost,
            min: 0,
            max: Cost::MAX_PART as i64,
            card: "rules".into(),
            description: format!("{desc}; generic total 0..={m}, at most {m} pips of each of F, M, U", m = Cost::MAX_PART),
            choices: Vec::new(),
        });
    }
    for &(name, choices, desc) in RULE_CHOICES {
        out.push(ParamInfo {
            name: name.into(),
            default: 0,
            default_str: choices[0].into(),
            kind: ParamKind::Choice,
            min: 0,
            max: choices.len() as i64 - 1,
            card: "rules".into(),
            description: format!("{desc}; one of {}", choices.join(", ")),
            choices: choices.iter().map(|c| c.to_string()).collect(),
        });
    }
    // the game format: a choice among the known formats (shipped and the card data's own)
    let names: Vec<String> = raw.formats.iter().map(|f| f.name.clone()).collect();
    out.push(ParamInfo {
        name: "rules.format".into(),
        default: names.iter().position(|n| n == "ffa").unwrap_or(0) as i64,
        default_str: "ffa".into(),
        kind: ParamKind::Choice,
        min: 0,
        max: names.len() as i64 - 1,
        card: "rules".into(),
        description: format!("the game format (docs/formats.md); one of {}", names.join(", ")),
        choices: names,
    });
    super::formats::format_params(&raw.formats, &mut out);
    for (name, value) in &raw.rule_params {
        // checked by the loader (`check_rule_params`): known names, right kinds, in range
        if let Some(p) = out.iter_mut().find(|p| p.name == *name) {
            match value {
                ParamValue::Int(v) => {
                    p.default = *v;
                    p.default_str = v.to_string();
                }
                ParamValue::Bool(b) => {
                    p.default = *b as i64;
                    p.default_str = b.to_string();
                }
                ParamValue::Str(s) => {
                    if p.kind == ParamKind::Choice {
                        p.default = p.choices.iter().position(|c| c == s).unwrap_or(0) as i64;
                    }
                    p.default_str = s.clone();
                }
            }
        }
    }
    for c in &raw.cards {
        let mut push = |field: &str, d: i64, min: i64, max: i64, desc: &str| {
            out.push(ParamInfo {
                name: format!("{}.{field}", c.id),
                default: d,
                default_str: d.to_string(),
                kind: ParamKind::Int,
                min,
                max,
                card: c.id.clone(),
                description: desc.into(),
                choices: Vec::new(),
            })
        };
        let copies_max = if c.public_figure || matches!(c.faction.as_str(), "newsfeed" | "event") { 1 } else { 31 };
        push("copies", c.copies, 0, copies_max.max(c.copies), "copies in the deck or box");
        if c.ctype != "base" && c.ctype != "token" && c.ctype != "event" {
            push("cost_generic", c.cost.generic, 0, 20, "printed generic cost");
            push("cost_f", c.cost.f, 0, 20, "printed Forint pips");
            push("cost_m", c.cost.m, 0, 20, "printed Media pips");
            push("cost_u", c.cost.u, 0, 20, "printed Street pips");
        }
        if let (Some(i), Some(cr)) = (c.influence, c.credibility) {
            push("influence", i, 0, 99, "printed Influence");
            push("credibility", cr, 0, 99, "printed Credibility");
        }
        for k in &c.keywords {
            if NUMBERED_KW.contains(&k.name.as_str()) && k.n > 0 {
                push(&k.name, k.n, 0, 20, &format!("the N of its {} keyword", k.name));
            }
        }
        for (name, &v) in &c.params {
            if name.ends_with("_max_roll") {
                // any value is a table: the bands are read in order (self, opponent, draw,
                // then Exposé), a roll going to the first band whose top it does not exceed;
                // a band whose top is not above the previous one's is empty
                push(name, v, 0, 6, "the highest d6 roll of this die band (bands are read in order; 0 or a top not above the previous band's: empty band)");
            } else {
                push(name, v, 0, 99, "a number in the rules text");
            }
        }
    }
    out
}

/// Check the rule and keyword-wide values of a card file's `[params]` table as overrides of
/// the built-in rules: known names, right kinds, values in range.
pub fn check_rule_params(pairs: &[(String, ParamValue)]) -> Result<(), String> {
    let empty = RawDb { cards: Vec::new(), keywords: Vec::new(), hash: 0, rule_params: Vec::new(), formats: super::formats::default_formats() };
    let reg = registry(&empty);
    apply_overrides(&reg, pairs).map(|_| ())
}

/// Resolved parameter values of one run.
struct Values<'a> {
    ints: HashMap<&'a str, i64>,
    costs: HashMap<&'a str, Cost>,
}

impl Values<'_> {
    /// A registered parameter's value; a name the registry lacks is an error naming it (the
    /// loader and the registry agree by construction, this keeps a slip an error, not a panic).
    fn get(&self, name: &str) -> Result<i64, String> {
        self.ints.get(name).copied().ok_or_else(|| format!("parameter '{name}' is not registered for this card data"))
    }
    /// A rule parameter (`rules.*`, `keyword.*`): `registry` registers every name of
    /// RULE_INTS, RULE_BOOLS and RULE_CHOICES whatever the card data holds, and `apply_overrides`
    /// refuses a card parameter that would shadow one, so the lookup cannot fail. Their ranges
    /// lie within i32.
    fn rule(&self, name: &str) -> i64 {
        // unwrap: rule names are registered unconditionally (see above)
        *self.ints.get(name).expect("rule parameter registered")
    }
}

/// The first characters of a long value, for an error message.
fn clip(s: &str) -> String {
    let mut h: String = s.chars().take(40).collect();
    if h.len() < s.len() {
        h.push_str(&format!("… ({} characters)", s.chars().count()));
    }
    h
}

fn apply_overrides<'a>(reg: &'a [ParamInfo], overrides: &[(String, ParamValue)]) -> Result<Values<'a>, String> {
    let mut ints = HashMap::with_capacity(reg.len());
    let mut costs = HashMap::new();
    let mut by_name = HashMap::with_capacity(reg.len());
    for p in reg {
        if by_name.insert(p.name.as_str(), p).is_some() {
            return Err(format!("card '{}': parameter '{}' is defined twice", p.card, p.name));
        }
        match p.kind {
            ParamKind::Cost => {
                let c = Cost::parse_braces(&p.default_str).map_err(|e| format!("parameter '{}': default: {e}", p.name))?;
                costs.insert(p.name.as_str(), c);
            }
            _ => {
                ints.insert(p.name.as_str(), p.default);
            }
        }
    }
    for (name, value) in overrides {
        let p = by_name.get(name.as_str()).ok_or_else(|| {
            let hint = reg
                .iter()
                .filter(|q| q.name.rsplit('.').next() == name.rsplit('.').next() || q.name.starts_with(name.split('.').next().unwrap_or("")))
                .take(3)
                .map(|q| q.name.as_str())
                .collect::<Vec<_>>();
            if hint.is_empty() {
                format!("unknown parameter '{name}'")
            } else {
                format!("unknown parameter '{name}' (similar: {})", hint.join(", "))
            }
        })?;
        match (p.kind, value) {
            (ParamKind::Int, ParamValue::Int(v)) => {
                if *v < p.min || *v > p.max {
                    return Err(format!("parameter '{name}': value {v} is out of range {}..={}", p.min, p.max));
                }
                ints.insert(p.name.as_str(), *v);
            }
            (ParamKind::Bool, ParamValue::Bool(b)) => {
                ints.insert(p.name.as_str(), *b as i64);
            }
            (ParamKind::Cost, ParamValue::Str(s)) => {
                let c = Cost::parse_braces(s).map_err(|e| {
                    format!(
                        "parameter '{name}': '{}' is not a cost like \"{{1}}{{M}}\": {e} (generic total 0..={m}, at most {m} pips of each of F, M, U)",
                        clip(s),
                        m = Cost::MAX_PART
                    )
                })?;
                costs.insert(p.name.as_str(), c);
            }
            (ParamKind::Choice, ParamValue::Str(s)) => {
                let choices = &p.choices;
                let i = choices.iter().position(|c| c == s).ok_or_else(|| {
                    if name == "rules.format" {
                        format!("unknown format '{}'; known formats: {}", clip(s), choices.join(", "))
                    } else {
                        format!("parameter '{name}': '{}' is not one of {}", clip(s), choices.join(", "))
                    }
                })?;
                ints.insert(p.name.as_str(), i as i64);
            }
            (kind, v) => {
                let got = match v {
                    ParamValue::Int(_) => "an int",
                    ParamValue::Bool(_) => "a bool",
                    ParamValue::Str(_) => "a string",
                };
                return Err(format!("parameter '{name}': expected a value of kind {}, got {got}", kind.name()));
            }
        }
    }
    Ok(Values { ints, costs })
}

fn rules_from(v: &Values, reg: &[ParamInfo], raw: &RawDb) -> Result<Rules, String> {
    let g = |n: &str| v.rule(n) as i32;
    // rules.format is registered with the known format names as its choices
    let names = &reg.iter().find(|p| p.name == "rules.format").map(|p| p.choices.clone()).unwrap_or_default();
    let fname = names.get(v.rule("rules.format") as usize).cloned().unwrap_or_else(|| "ffa".into());
    let format = super::formats::resolve(&raw.formats, &fname, &|n| v.ints.get(n).copied().unwrap_or(0))?;
    Ok(Rules {
        starting_support: g("rules.starting_support"),
        second_player_bonus: g("rules.second_player_bonus"),
        opening_hand: g("rules.opening_hand"),
        max_mulligans: g("rules.max_mulligans"),
        hand_limit: g("rules.hand_limit"),
        draws_per_turn: g("rules.draws_per_turn"),
        start_player_skips_first_draw: g("rules.start_player_skips_first_draw") != 0,
        scandal_threshold: g("rules.scandal_threshold"),
        scandal_threshold_loss: g("rules.scandal_threshold_loss"),
        // cost rule parameters are registered unconditionally too (RULE_COSTS)
        expose_cost: v.costs["rules.expose_cost"],
        expose_max_taken: g("rules.expose_max_taken"),
        expose_loss_per_token: g("rules.expose_loss_per_token"),
        exposes_per_turn: g("rules.exposes_per_turn"),
        recruits_per_turn: g("rules.recruits_per_turn"),
        bases_per_turn: g("rules.bases_per_turn"),
        campaigns_per_turn: g("rules.campaigns_per_turn"),
        swap_cost: v.costs["rules.swap_cost"],
        empty_deck_loss: g("rules.empty_deck_loss"),
        propaganda_min_blockers: g("rules.propaganda_min_blockers"),
        // a format may switch Voter takeover off (the circle's victory points replace it, V3)
        voter_takeover_gain: if format.voter_takeover { g("rules.voter_takeover_gain") } else { 0 },
        voter_takeover_credit_active: g("rules.voter_takeover_credit") == 1,
        newsfeed_row_size: g("rules.newsfeed_row_size"),
        token_card_limit: g("rules.token_card_limit"),
        allow_mirror: g("rules.allow_mirror") != 0,
        deck_size: g("rules.deck_size"),
        mixed_deck_non_base: g("rules.mixed_deck_non_base"),
        mixed_deck_bases: g("rules.mixed_deck_bases"),
        allow_extra_copies: g("rules.allow_extra_copies") != 0,
        max_rounds: g("rules.max_rounds"),
        max_actions_per_turn: g("rules.max_actions_per_turn"),
        supermajority_institutions: g("keyword.supermajority.institutions"),
        unity_parties: g("keyword.unity.parties"),
        joint_candidate_influence: g("keyword.joint_candidate.influence_bonus"),
        joint_candidate_credibility: g("keyword.joint_candidate.credibility_bonus"),
        movement_per_turn: g("keyword.movement.sympathy_per_turn"),
        outrage_sympathy: g("keyword.outrage.sympathy"),
        counter_influence: g("keyword.sympathy.counter_influence"),
        counter_credibility: g("keyword.sympathy.counter_credibility"),
        format,
    })
}

/// Compile the raw card set with parameter overrides into a playable `CardDb`.
pub fn build_db(raw: &RawDb, overrides: &[(String, ParamValue)]) -> Result<CardDb, String> {
    let reg = registry(raw);
    let vals = apply_overrides(&reg, overrides)?;
    let rules = rules_from(&vals, &reg, raw)?;
    let mut parties: Vec<String> = Vec::new();
    let mut cards = Vec::with_capacity(raw.cards.len());
    if raw.cards.len() > 128 {
        return Err(format!("a card set may hold at most 128 different cards, this one has {}", raw.cards.len()));
    }
    // card id -> (index, type); at most 128 cards (checked above), so the index fits a u16
    let index: HashMap<&str, (u16, &str)> = raw.cards.iter().enumerate().map(|(i, c)| (c.id.as_str(), (i as u16, c.ctype.as_str()))).collect();
    for c in &raw.cards {
        cards.push(compile_card(c, &vals, &index, &mut parties)?);
    }
    // Márki-Zay style die tables: each band's top is a d6 face or 0 (bands are read in
    // order, so any tops within 0..=6 make a table; the card file's own values too)
    for c in &cards {
        for a in &c.abilities {
            if let Effect::DieRoll(t) = a.effect {
                if [t.self_max, t.opp_max, t.draw_max].iter().any(|&x| !(0..=6).contains(&x)) {
                    return Err(format!("card '{}': the die band tops must be within 0..=6 (self {}, opponent {}, draw {})", c.id, t.self_max, t.opp_max, t.draw_max));
                }
            }
        }
    }
    let mut decks: [Vec<u16>; 4] = Default::default();
    let mut newsfeed = Vec::new();
    let mut events = Vec::new();
    let mut tokens = Vec::new();
    for (i, c) in cards.iter().enumerate() {
        let i = i as u16;
        match c.faction {
            Faction::Newsfeed => newsfeed.extend(std::iter::repeat_n(i, c.copies as usize)),
            Faction::Event => events.extend(std::iter::repeat_n(i, c.copies as usize)),
            Faction::Token => tokens.push((i, c.copies.min(rules.token_card_limit as u8))),
            f => decks[f as usize].extend(std::iter::repeat_n(i, c.copies as usize)),
        }
    }
    for (fi, deck) in decks.iter().enumerate() {
        let count = |t: &dyn Fn(CardType) -> bool| deck.iter().filter(|&&d| t(cards[d as usize].ctype)).count();
        let bases = count(&|t| t == CardType::Base);
        let figs = count(&|t| t.is_figure());
        let other = deck.len() - bases - figs;
        if deck.len() != 31 || bases != 13 || figs != 12 || other != 6 {
            return Err(format!(
                "deck '{}' must have 31 cards (13 Bases, 12 Figures, 6 Actions or Institutions); with these copies it has {} ({} Bases, {} Figures, {} others)",
                FACTIONS[fi],
                deck.len(),
                bases,
                figs,
                other
            ));
        }
    }
    Ok(CardDb { cards, rules, decks, newsfeed, events, tokens, hash: raw.hash })
}

fn compile_card(c: &RawCard, v: &Values, index: &HashMap<&str, (u16, &str)>, parties: &mut Vec<String>) -> Result<CardDef, String> {
    let id = c.id.as_str();
    let p = |f: &str| -> Result<i16, String> {
        let x = v.get(&format!("{id}.{f}"))?;
        i16::try_from(x).map_err(|_| format!("card '{id}': parameter '{id}.{f}': {x} is out of range"))
    };
    let ctype = CardType::parse(&c.ctype).ok_or_else(|| format!("card '{id}': field 'type': unknown card type '{}'", c.ctype))?;
    let faction = Faction::parse(&c.faction).ok_or_else(|| format!("card '{id}': field 'faction': unknown faction '{}'", c.faction))?;
    let is_costed = !matches!(ctype, CardType::Base | CardType::Token | CardType::Event);
    let cost = if is_costed { Cost { generic: p("cost_generic")?, pips: [p("cost_f")?, p("cost_m")?, p("cost_u")?] } } else { Cost::default() };
    let (influence, credibility) = if c.influence.is_some() { (p("influence")?, p("credibility")?) } else { (0, 0) };
    let mut kw = Keywords::default();
    let mut kw_text = Vec::new();
    for k in &c.keywords {
        let n = if NUMBERED_KW.contains(&k.name.as_str()) && k.n > 0 { p(&k.name)? } else { 0 };
        match k.name.as_str() {
            "scandal" => kw.scandal = n,
            "expose" => kw.expose = n,
            "lone" => kw.lone = n,
            "movement" => kw.movement = n,
            "defector" => kw.defector = n,
            "sympathy" => kw.sympathy = n,
            "propaganda" => kw.propaganda = true,
            "momentum" => kw.momentum = true,
            "outrage" => kw.outrage = true,
            "joint_candidate" => kw.joint_candidate = true,
            "supermajority" => kw.supermajority = true,
            "unity" => kw.unity = true,
            "border_closure" => kw.border_closure = true,
            "swap" => kw.swap = true,
            other => return Err(format!("card '{id}': field 'keywords': unknown keyword '{other}'")),
        }
        let pretty = match k.name.as_str() {
            "swap" => "Swap",
            "scandal" => "Scandal",
            "expose" => "Exposé",
            "propaganda" => "Propaganda",
            "supermajority" => "Supermajority",
            "unity" => "Unity",
            "joint_candidate" => "Joint Candidate",
            "movement" => "Movement",
            "sympathy" => "Sympathy",
            "defector" => "Defector",
            "outrage" => "Outrage",
            "momentum" => "Momentum",
            "lone" => "Lone",
            _ => "Border Closure",
        };
        kw_text.push(if n > 0 { format!("{pretty} {n}") } else { pretty.to_string() });
    }
    let party_bit = if ctype.is_figure() && c.party != "—" && c.party != "-" && !c.party.is_empty() {
        let i = parties.iter().position(|x| *x == c.party).unwrap_or_else(|| {
            parties.push(c.party.clone());
            parties.len() - 1
        });
        // one bit per party: a 33rd party would share a bit and miscount Unity
        if i >= 32 {
            return Err(format!("card '{id}': field 'party': a card set may name at most 32 different parties ('{}' is the 33rd)", c.party));
        }
        1u32 << i
    } else {
        0
    };
    let mut abilities = Vec::new();
    let mut statics = Vec::new();
    for a in &c.abilities {
        compile_ability(c, a, v, index, &mut abilities, &mut statics)?;
    }
    let mana_ability = abilities.iter().find_map(|a: &Ability| match (a.trigger, a.effect) {
        (Trigger::Activated, Effect::AddResource { res, n }) => Some((Some(res), n)),
        (Trigger::Activated, Effect::AddAnyResources { n }) => Some((None, n)),
        _ => None,
    });
    let has = |t: Trigger| abilities.iter().any(|a: &Ability| a.trigger == t);
    let has_activated = abilities.iter().any(|a| a.trigger == Trigger::Activated && !matches!(a.effect, Effect::AddResource { .. } | Effect::AddAnyResources { .. }));
    Ok(CardDef {
        id: c.id.clone(),
        name: c.name.clone(),
        faction,
        ctype,
        copies: u8::try_from(p("copies")?).map_err(|_| format!("card '{id}': field 'copies' is out of range"))?,
        cost,
        produces: c.produces.as_deref().map(|r| match r {
            "f" => F,
            "m" => M,
            _ => U,
        }),
        influence,
        credibility,
        party_bit,
        party: c.party.clone(),
        role: c.role.clone(),
        public_figure: c.public_figure,
        keyword_text: kw_text.join(", "),
        kw,
        text: c.text.clone(),
        has_start_of_turn: has(Trigger::StartOfTurn),
        has_enter: has(Trigger::Enter),
        has_leave: has(Trigger::Leave),
        has_base_played: has(Trigger::BasePlayed),
        has_activated,
        has_instant_ability: abilities.iter().any(|a| a.trigger == Trigger::Activated && a.any_time),
        sacrifice_to_cast: abilities.iter().any(|a| a.trigger == Trigger::Cast),
        round_event: c.duration.as_deref() == Some("round"),
        mana_ability,
        abilities,
        statics,
    })
}

fn compile_ability(c: &RawCard, a: &RawAbility, v: &Values, index: &HashMap<&str, (u16, &str)>, abilities: &mut Vec<Ability>, statics: &mut Vec<Static>) -> Result<(), String> {
    let id = c.id.as_str();
    let err = |field: &str, msg: String| Err(format!("card '{id}': field 'abilities.{field}': {msg}"));
    let num = |field: &str, name: &Option<String>| -> Result<i16, String> {
        match name {
            None => Err(format!("card '{id}': field 'abilities.{field}' is missing for '{}'", a.effect)),
            Some(n) => {
                let full = format!("{id}.{n}");
                let x = v
                    .ints
                    .get(full.as_str())
                    .ok_or_else(|| format!("card '{id}': field 'abilities.{field}': '{n}' is not a parameter of this card (add it to params or keywords)"))?;
                i16::try_from(*x).map_err(|_| format!("card '{id}': field 'abilities.{field}': parameter '{full}' = {x} is out of range"))
            }
        }
    };
    let n = || num("n", &a.n);
    let m = || num("m", &a.m);
    let cond = match a.cond.as_deref() {
        None | Some("always") => Condition::Always,
        Some("unity") => Condition::Unity,
        Some("not_unity") => Condition::NotUnity,
        Some("supermajority") => Condition::Supermajority,
        Some(x) => return err("cond", format!("unknown condition '{x}'")),
    };
    let target = match a.target.as_deref() {
        None => TargetKind::None,
        Some("opponent") => TargetKind::Opponent,
        Some("figure") => TargetKind::Figure,
        Some("other_figure_optional") => TargetKind::OtherFigureOptional,
        Some("own_figure") => TargetKind::OwnFigure,
        Some("other_own_figure") => TargetKind::OtherOwnFigure,
        Some("figure_or_institution") => TargetKind::FigureOrInstitution,
        Some("institution_optional") => TargetKind::InstitutionOptional,
        Some("action") => TargetKind::Action,
        Some(x) => return err("target", format!("unknown target '{x}'")),
    };
    let trigger = match a.on.as_str() {
        "enter" => Trigger::Enter,
        "leave" => Trigger::Leave,
        "start_of_turn" => Trigger::StartOfTurn,
        "base_played" => Trigger::BasePlayed,
        "resolve" => Trigger::Resolve,
        "cast" => Trigger::Cast,
        "activated" => Trigger::Activated,
        "event" => Trigger::Event,
        "static" => {
            let s = match a.effect.as_str() {
                "stat_bonus" => Static::StatBonus {
                    who: match a.who.as_deref() {
                        Some("self") => Who::This,
                        Some("others") => Who::Others,
                        Some("all") => Who::All,
                        other => return err("who", format!("'{}' is not one of self, others, all", other.unwrap_or("(missing)"))),
                    },
                    influence: n()?,
                    credibility: m()?,
                    cond,
                },
                "expose_bonus" => Static::ExposeBonus { n: n()?, cond },
                "expose_tax" => Static::ExposeTax { n: n()? },
                "supermajority_increase" => Static::SupermajorityIncrease { n: n()? },
                "propaganda_blockers" => Static::PropagandaBlockers { n: n()? },
                "blocks_propaganda_alone" => Static::BlocksPropagandaAlone,
                "unblockable_with_counters" => Static::UnblockableWithCounters { n: n()? },
                "cant_attack" => Static::CantAttack,
                "expose_starts_with_scandal" => Static::ExposeStartsWithScandal { n: n()? },
                "rescue" => Static::Rescue { n: n()? },
                x => return err("do", format!("unknown static effect '{x}'")),
            };
            statics.push(s);
            return Ok(());
        }
        x => return err("on", format!("unknown trigger '{x}'")),
    };
    let effect = match a.effect.as_str() {
        "add_resource" => Effect::AddResource {
            res: match a.resource.as_deref() {
                Some("f") => F,
                Some("m") => M,
                Some("u") => U,
                other => return err("resource", format!("'{}' is not one of f, m, u", other.unwrap_or("(missing)"))),
            },
            n: n()?,
        },
        "add_any_resources" => Effect::AddAnyResources { n: n()? },
        "remove_scandal" => Effect::RemoveScandal { n: n()? },
        "remove_all_scandal" => Effect::RemoveAllScandal,
        "gain_support" => Effect::GainSupport { n: n()? },
        "gain_scandal" => Effect::GainScandal { n: n()? },
        "opponent_gains_scandal" => Effect::OpponentGainsScandal { n: n()? },
        "opponent_loses_support" => Effect::OpponentLosesSupport { n: n()? },
        "each_opponent_loses_support" => Effect::EachOpponentLosesSupport { n: n()? },
        "draw" => Effect::Draw { n: n()? },
        "damage" => Effect::Damage { n: n()? },
        "exhaust" => Effect::ExhaustTarget,
        "grant_propaganda" => Effect::GrantPropaganda,
        "return_to_hand" => Effect::ReturnToHand { controller_scandal: if a.m.is_some() { m()? } else { 0 } },
        "neutralize" => Effect::Neutralize,
        "expose" => Effect::Expose { n: n()? },
        "sympathy" => Effect::Sympathy { n: n()? },
        "sympathy_self" => Effect::SympathySelf { n: n()? },
        "sympathy_each" => Effect::SympathyEach { n: n()? },
        "pump_by_opponent_scandal" => Effect::PumpByOpponentScandal { max: n()? },
        "rally" => Effect::Rally { influence: n()?, credibility: m()? },
        "support_per_figure" => Effect::SupportPerFigure { per: n()?, max: m()? },
        "create_tokens" => {
            let tok = a.token.as_deref().unwrap_or("");
            let (ti, ttype) = *index.get(tok).ok_or_else(|| format!("card '{id}': field 'abilities.token': unknown token card '{tok}'"))?;
            // only token cards are in the box (R2.5, R13.5): any other card would never be created
            if ttype != "token" {
                return err("token", format!("'{tok}' is not a token card (type = \"token\")"));
            }
            Effect::CreateTokens { token: ti, n: n()? }
        }
        "defect" => Effect::Defect { n: n()? },
        "die_roll" => {
            let q = |f: &str| num(f, &Some(f.to_string()));
            Effect::DieRoll(DieTable {
                self_max: q("self_scandal_max_roll")?,
                self_scandal: q("self_scandal")?,
                opp_max: q("opponent_scandal_max_roll")?,
                opp_scandal: q("opponent_scandal")?,
                draw_max: q("draw_max_roll")?,
                draw: q("draw")?,
                expose: q("expose")?,
            })
        }
        "sacrifice_figure" => Effect::SacrificeFigure,
        "all_gain_support" => Effect::AllGainSupport { n: n()? },
        "lowest_support_gain_support" => Effect::LowestSupportGainSupport { n: n()? },
        "all_gain_scandal" => Effect::AllGainScandal { n: n()? },
        "most_institutions_gain_scandal" => Effect::MostInstitutionsGainScandal { n: n()?, min: m()? },
        "all_support_per_figure" => Effect::AllSupportPerFigure { per: n()?, max: m()? },
        "refresh_newsfeed" => Effect::RefreshNewsfeed,
        "all_draw" => Effect::AllDraw { n: n()? },
        "most_scandal_lose_support" => Effect::MostScandalLoseSupport { n: n()?, min: m()? },
        "all_sympathy" => Effect::AllSympathy { n: n()? },
        "expose_cost_increase" => Effect::Round(RoundMod::ExposeCostIncrease(n()?)),
        "institution_cost_reduction" => Effect::Round(RoundMod::InstitutionCostReduction(n()?)),
        "attacker_bonus" => Effect::Round(RoundMod::AttackerBonus(n()?, m()?)),
        "recruit_cost_reduction" => Effect::Round(RoundMod::RecruitCostReduction(n()?)),
        "recruit_cost_increase" => Effect::Round(RoundMod::RecruitCostIncrease(n()?)),
        "basic_expose_bonus" => Effect::Round(RoundMod::BasicExposeBonus(n()?)),
        "max_attackers" => Effect::Round(RoundMod::MaxAttackers(n()?)),
        "reaction_cost_increase" => Effect::Round(RoundMod::ReactionCostIncrease(n()?)),
        "swap_cost_increase" => Effect::Round(RoundMod::SwapCostIncrease(n()?)),
        "unblocked_extra_damage" => Effect::Round(RoundMod::UnblockedExtraDamage(n()?)),
        x => return err("do", format!("unknown effect '{x}'")),
    };
    let (cost, any_time) = if trigger == Trigger::Activated {
        let cost = match a.cost.as_deref() {
            Some("exhaust") | None => ActivationCost::Exhaust,
            Some("sacrifice_self") => ActivationCost::SacrificeSelf,
            Some(x) => return err("cost", format!("unknown activation cost '{x}'")),
        };
        let any = match a.timing.as_deref() {
            None | Some("main") => false,
            Some("any") => true,
            Some(x) => return err("timing", format!("unknown timing '{x}'")),
        };
        (cost, any)
    } else {
        (ActivationCost::Exhaust, false)
    };
    abilities.push(Ability { trigger, cost, any_time, condition: cond, target, effect });
    Ok(())
}
