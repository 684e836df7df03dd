//! Reading a card-data TOML file into raw, validated records. Every error names the card and
//! the field.

use serde::Deserialize;
use std::collections::{BTreeMap, HashSet};

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCost {
    pub generic: i64,
    pub f: i64,
    pub m: i64,
    pub u: i64,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawKeyword {
    pub name: String,
    pub n: i64,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawAbility {
    pub on: String,
    #[serde(rename = "do")]
    pub effect: String,
    pub n: Option<String>,
    pub m: Option<String>,
    pub target: Option<String>,
    pub resource: Option<String>,
    pub token: Option<String>,
    pub cond: Option<String>,
    pub timing: Option<String>,
    pub cost: Option<String>,
    pub who: Option<String>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCard {
    pub id: String,
    pub name: String,
    pub faction: String,
    pub copies: i64,
    #[serde(rename = "type")]
    pub ctype: String,
    pub role: String,
    pub party: String,
    pub public_figure: bool,
    pub cost: RawCost,
    pub produces: Option<String>,
    pub influence: Option<i64>,
    pub credibility: Option<i64>,
    pub keywords: Vec<RawKeyword>,
    pub text: String,
    #[serde(default)]
    pub params: BTreeMap<String, i64>,
    #[serde(default)]
    pub abilities: Vec<RawAbility>,
    pub duration: Option<String>,
    // flavour fields of the shared file, accepted and ignored
    pub note: Option<String>,
    pub year: Option<String>,
    pub label: Option<String>,
    pub mentions: Option<Vec<String>>,
    pub tokens_created: Option<toml::Table>,
}

#[derive(Clone, Debug)]
pub struct RawDb {
    pub cards: Vec<RawCard>,
    pub keywords: Vec<String>,
    /// FNV-1a hash of the file text (provenance).
    pub hash: u64,
    /// Rule and keyword-wide parameter values of the file's top-level `[params]` table
    /// (`"rules.starting_support" = 25`): they replace the built-in defaults.
    pub rule_params: Vec<(String, super::params::ParamValue)>,
    /// The formats a game may pick (`rules.format`): the shipped ones, then the file's own
    /// `[formats.NAME]` tables (docs/formats.md).
    pub formats: Vec<super::formats::RawFormat>,
}

pub const KEYWORD_IDS: &[&str] =
    &["swap", "scandal", "expose", "propaganda", "supermajority", "unity", "joint_candidate", "movement", "sympathy", "defector", "outrage", "momentum", "lone", "border_closure"];
const NUMBERED: &[&str] = &["scandal", "expose", "movement", "sympathy", "defector", "lone"];

/// Parameter names every card may have from its own fields (`registry`); a `params` key may
/// not reuse them.
const STAT_PARAMS: &[&str] = &["copies", "cost_generic", "cost_f", "cost_m", "cost_u", "influence", "credibility"];

fn is_snake(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit() || ch == '_')
}

pub fn fnv1a(s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// Parse and validate the card-data file text: every card on its own, then the whole set
/// compiled with every parameter at its default (deck composition, ability parameters, token
/// references, die bands). `cards()`, `parameters()` and `simulate()` all load through here,
/// so they accept exactly the same files; overrides are checked again by `build_db`.
pub fn load_raw(text: &str) -> Result<RawDb, String> {
    let db = parse_raw(text)?;
    super::params::build_db(&db, &[])?;
    Ok(db)
}

/// Parse and check each card (types, ranges, names), without compiling the set.
fn parse_raw(text: &str) -> Result<RawDb, String> {
    let table: toml::Table = toml::from_str(text).map_err(|e| format!("malformed card data: {}", e.message()))?;
    for key in table.keys() {
        if !matches!(key.as_str(), "meta" | "keyword" | "card" | "params" | "formats") {
            return Err(format!("malformed card data: unknown top-level table '{key}'"));
        }
    }
    let mut keywords = Vec::new();
    if let Some(kws) = table.get("keyword") {
        let arr = kws.as_array().ok_or("malformed card data: 'keyword' must be an array of tables")?;
        for k in arr {
            let id = k.get("id").and_then(|v| v.as_str()).ok_or("malformed card data: a [[keyword]] has no id")?;
            if !KEYWORD_IDS.contains(&id) {
                return Err(format!("malformed card data: unknown keyword '{id}' in [[keyword]]"));
            }
            keywords.push(id.to_string());
        }
    }
    let cards_v = table.get("card").and_then(|v| v.as_array()).ok_or("malformed card data: no [[card]] tables")?;
    let mut cards = Vec::with_capacity(cards_v.len());
    let mut seen = HashSet::new();
    for (i, v) in cards_v.iter().enumerate() {
        let id = v.get("id").and_then(|x| x.as_str()).map(|s| s.to_string()).ok_or_else(|| format!("malformed card data: card #{} has no 'id' field", i + 1))?;
        check_field_types(&id, v)?;
        let card: RawCard = v.clone().try_into().map_err(|e: toml::de::Error| format!("card '{id}': {}", e.message()))?;
        if !seen.insert(id.clone()) {
            return Err(format!("card '{id}': duplicate id"));
        }
        validate_card(&card)?;
        cards.push(card);
    }
    // formats before [params], which may pick one of the file's own (rules.format)
    let mut formats = super::formats::default_formats();
    super::formats::read_formats(&table, &mut formats).map_err(|e| format!("malformed card data: {e}"))?;
    let rule_params = match table.get("params") {
        None => Vec::new(),
        Some(v) => {
            let t = v.as_table().ok_or("malformed card data: 'params' must be a table of rules.* and keyword.* values")?;
            let mut out = Vec::new();
            flatten_params("", t, &mut out)?;
            super::params::check_rule_params(&out).map_err(|e| format!("malformed card data: [params]: {e}"))?;
            out
        }
    };
    Ok(RawDb { cards, keywords, hash: fnv1a(text), rule_params, formats })
}

/// The `[params]` table as `(dotted name, value)` pairs: quoted dotted keys
/// (`"rules.hand_limit" = 6`) and nested tables (`[params.rules] hand_limit = 6`) both work.
fn flatten_params(prefix: &str, t: &toml::Table, out: &mut Vec<(String, super::params::ParamValue)>) -> Result<(), String> {
    use super::params::ParamValue;
    for (k, v) in t {
        let name = if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") };
        let value = match v {
            toml::Value::Table(sub) => {
                flatten_params(&name, sub, out)?;
                continue;
            }
            toml::Value::Integer(i) => ParamValue::Int(*i),
            toml::Value::Boolean(b) => ParamValue::Bool(*b),
            toml::Value::String(s) => ParamValue::Str(s.clone()),
            other => return Err(format!("malformed card data: [params] key '{name}': expected an integer, bool or string, got {}", type_name(other))),
        };
        if !(name.starts_with("rules.") || name.starts_with("keyword.")) {
            return Err(format!("malformed card data: [params] key '{name}': only rules.* and keyword.* parameters may be set here (a card's numbers are its own fields)"));
        }
        if out.iter().any(|(n, _)| *n == name) {
            return Err(format!("malformed card data: [params] key '{name}' is given twice"));
        }
        out.push((name, value));
    }
    Ok(())
}

fn type_name(v: &toml::Value) -> &'static str {
    match v {
        toml::Value::String(_) => "a string",
        toml::Value::Integer(_) => "an integer",
        toml::Value::Float(_) => "a float",
        toml::Value::Boolean(_) => "a bool",
        toml::Value::Datetime(_) => "a datetime",
        toml::Value::Array(_) => "an array",
        toml::Value::Table(_) => "a table",
    }
}

/// Name the field whose value has the wrong type (serde's message does not).
fn check_field_types(id: &str, v: &toml::Value) -> Result<(), String> {
    let Some(t) = v.as_table() else {
        return Err(format!("card '{id}': a [[card]] must be a table"));
    };
    for (key, val) in t {
        let want = match key.as_str() {
            "copies" | "influence" | "credibility" => "an integer",
            "id" | "name" | "faction" | "type" | "role" | "party" | "text" | "produces" | "duration" | "note" | "year" | "label" => "a string",
            "public_figure" => "a bool",
            "cost" | "params" | "tokens_created" => "a table",
            "keywords" | "abilities" | "mentions" => "an array",
            _ => continue, // unknown fields are reported by name afterwards
        };
        if type_name(val) != want {
            return Err(format!("card '{id}': field '{key}': expected {want}, got {}", type_name(val)));
        }
        match (key.as_str(), val) {
            ("cost" | "params", toml::Value::Table(sub)) => {
                for (k, x) in sub {
                    if x.as_integer().is_none() {
                        return Err(format!("card '{id}': field '{key}.{k}': expected an integer, got {}", type_name(x)));
                    }
                }
            }
            ("keywords" | "abilities", toml::Value::Array(items)) => {
                for item in items {
                    let Some(t) = item.as_table() else {
                        return Err(format!("card '{id}': field '{key}': each entry must be a table, got {}", type_name(item)));
                    };
                    for (k, x) in t {
                        let want = if key == "keywords" && k == "n" { "an integer" } else { "a string" };
                        if type_name(x) != want {
                            return Err(format!("card '{id}': field '{key}.{k}': expected {want}, got {}", type_name(x)));
                        }
                    }
                }
            }
            ("mentions", toml::Value::Array(items)) => {
                if let Some(x) = items.iter().find(|x| !x.is_str()) {
                    return Err(format!("card '{id}': field 'mentions': expected strings, got {}", type_name(x)));
                }
            }
            _ => {}
        }
    }
    Ok(())
}

fn validate_card(c: &RawCard) -> Result<(), String> {
    let id = &c.id;
    if !is_snake(id) {
        return Err(format!("card '{id}': field 'id' must be snake_case ascii"));
    }
    if matches!(id.as_str(), "rules" | "keyword") {
        return Err(format!("card '{id}': field 'id': '{id}' is reserved for rule parameters"));
    }
    let ctype = super::CardType::parse(&c.ctype).ok_or_else(|| format!("card '{id}': field 'type': unknown card type '{}'", c.ctype))?;
    let faction = super::Faction::parse(&c.faction).ok_or_else(|| format!("card '{id}': field 'faction': unknown faction '{}'", c.faction))?;
    {
        use super::{CardType as T, Faction as F};
        let fits = match faction {
            F::Event => ctype == T::Event,
            F::Token => ctype == T::Token,
            // R11.2.2/E61: a Newsfeed card may also be an Action (Move or Reaction)
            F::Newsfeed => matches!(ctype, T::Figure | T::Institution | T::Move | T::Reaction),
            _ => !matches!(ctype, T::Event | T::Token),
        };
        if !fits {
            return Err(format!(
                "card '{id}': field 'type': a card of faction '{}' cannot be of type '{}' (events are faction event, tokens faction token, Newsfeed cards Figures, Institutions or Actions)",
                c.faction, c.ctype
            ));
        }
    }
    if c.copies < 0 || c.copies > 31 {
        return Err(format!("card '{id}': field 'copies': {} is out of range 0..=31", c.copies));
    }
    for (f, v) in [("generic", c.cost.generic), ("f", c.cost.f), ("m", c.cost.m), ("u", c.cost.u)] {
        if !(0..=20).contains(&v) {
            return Err(format!("card '{id}': field 'cost.{f}': {v} is out of range 0..=20"));
        }
    }
    match ctype {
        super::CardType::Base => {
            let p = c.produces.as_deref().ok_or_else(|| format!("card '{id}': field 'produces' is missing (a Base must produce f, m or u)"))?;
            if !matches!(p, "f" | "m" | "u") {
                return Err(format!("card '{id}': field 'produces': unknown resource '{p}'"));
            }
        }
        super::CardType::Figure | super::CardType::Token => {
            for (f, v) in [("influence", c.influence), ("credibility", c.credibility)] {
                match v {
                    None => return Err(format!("card '{id}': field '{f}' is missing")),
                    Some(x) if !(0..=99).contains(&x) => return Err(format!("card '{id}': field '{f}': {x} is out of range 0..=99")),
                    _ => {}
                }
            }
        }
        super::CardType::Event => {
            let d = c.duration.as_deref().ok_or_else(|| format!("card '{id}': field 'duration' is missing"))?;
            if !matches!(d, "one_shot" | "round") {
                return Err(format!("card '{id}': field 'duration': unknown duration '{d}'"));
            }
        }
        _ => {}
    }
    // fields that belong to one card type only: elsewhere they would be ignored or half-used
    if !ctype.is_figure() {
        for (f, v) in [("influence", c.influence), ("credibility", c.credibility)] {
            if v.is_some() {
                return Err(format!("card '{id}': field '{f}': only Figures and tokens have Influence and Credibility (this card is of type '{}')", c.ctype));
            }
        }
    }
    if c.produces.is_some() && ctype != super::CardType::Base {
        return Err(format!("card '{id}': field 'produces': only Bases produce a resource (this card is of type '{}')", c.ctype));
    }
    if c.duration.is_some() && ctype != super::CardType::Event {
        return Err(format!("card '{id}': field 'duration': only Events have a duration (this card is of type '{}')", c.ctype));
    }
    for (i, k) in c.keywords.iter().enumerate() {
        if c.keywords[..i].iter().any(|o| o.name == k.name) {
            return Err(format!("card '{id}': field 'keywords': keyword '{}' is listed twice", k.name));
        }
        if !KEYWORD_IDS.contains(&k.name.as_str()) {
            return Err(format!("card '{id}': field 'keywords': unknown keyword '{}'", k.name));
        }
        if !(0..=20).contains(&k.n) {
            return Err(format!("card '{id}': field 'keywords': {} {} is out of range 0..=20", k.name, k.n));
        }
        if NUMBERED.contains(&k.name.as_str()) != (k.n > 0) && k.name != "expose" {
            return Err(format!("card '{id}': field 'keywords': keyword '{}' has the wrong number {}", k.name, k.n));
        }
    }
    for (name, v) in &c.params {
        // a params key names the parameter `<card_id>.<key>`: it must not be another parameter
        // of the card (a stat, a cost field, copies, a keyword's N), or it would shadow it
        if !is_snake(name) {
            return Err(format!("card '{id}': field 'params.{name}': a parameter name must be snake_case ascii"));
        }
        if STAT_PARAMS.contains(&name.as_str()) {
            return Err(format!("card '{id}': field 'params.{name}': '{name}' is the card's own {name} field, not a rules-text number (use the field, or another name)"));
        }
        if c.keywords.iter().any(|k| k.name == *name && NUMBERED.contains(&k.name.as_str()) && k.n > 0) {
            return Err(format!("card '{id}': field 'params.{name}': '{name}' is already the N of the card's {name} keyword"));
        }
        if !(0..=99).contains(v) {
            return Err(format!("card '{id}': field 'params.{name}': {v} is out of range 0..=99"));
        }
    }
    Ok(())
}
