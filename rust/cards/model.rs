//! The compiled card database: dense `CardDef`s indexed by a small integer, every number resolved.

use super::effects::{Ability, Static, Trigger};
use super::params::Rules;

pub const FACTIONS: [&str; 4] = ["ner", "osszefogas", "tisza", "radikalisok"];

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Faction {
    Ner = 0,
    Osszefogas = 1,
    Tisza = 2,
    Radikalisok = 3,
    Newsfeed = 4,
    Event = 5,
    Token = 6,
}

impl Faction {
    pub fn parse(s: &str) -> Option<Faction> {
        Some(match s {
            "ner" => Faction::Ner,
            "osszefogas" => Faction::Osszefogas,
            "tisza" => Faction::Tisza,
            "radikalisok" => Faction::Radikalisok,
            "newsfeed" => Faction::Newsfeed,
            "event" => Faction::Event,
            "token" => Faction::Token,
            _ => return None,
        })
    }
    pub fn name(self) -> &'static str {
        ["ner", "osszefogas", "tisza", "radikalisok", "newsfeed", "event", "token"][self as usize]
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CardType {
    Base,
    Figure,
    Institution,
    Move,
    Reaction,
    Event,
    Token,
}

impl CardType {
    pub fn parse(s: &str) -> Option<CardType> {
        Some(match s {
            "base" => CardType::Base,
            "figure" => CardType::Figure,
            "institution" => CardType::Institution,
            "move" => CardType::Move,
            "reaction" => CardType::Reaction,
            "event" => CardType::Event,
            "token" => CardType::Token,
            _ => return None,
        })
    }
    pub fn name(self) -> &'static str {
        match self {
            CardType::Base => "base",
            CardType::Figure => "figure",
            CardType::Institution => "institution",
            CardType::Move => "move",
            CardType::Reaction => "reaction",
            CardType::Event => "event",
            CardType::Token => "token",
        }
    }
    /// Token cards count as Figures (R13.5).
    #[inline]
    pub fn is_figure(self) -> bool {
        matches!(self, CardType::Figure | CardType::Token)
    }
    #[inline]
    pub fn is_action(self) -> bool {
        matches!(self, CardType::Move | CardType::Reaction)
    }
}

/// Resources (R6.1): Forint, Media, Street.
pub const F: usize = 0;
pub const M: usize = 1;
pub const U: usize = 2;
pub const RES_LETTERS: [char; 3] = ['F', 'M', 'U'];

/// A cost: generic units plus coloured pips (R6.3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cost {
    pub generic: i16,
    pub pips: [i16; 3],
}

/// The first few characters of `s`, for an error message about a long input.
fn head(s: &str) -> String {
    let mut h: String = s.chars().take(12).collect();
    if h.len() < s.len() {
        h.push('…');
    }
    h
}

impl Cost {
    pub fn total(&self) -> i16 {
        self.generic + self.pips[0] + self.pips[1] + self.pips[2]
    }
    /// Printed notation: "2FM", "U", "0".
    pub fn printed(&self) -> String {
        let mut s = String::new();
        if self.generic > 0 || self.pips.iter().all(|&p| p == 0) {
            s.push_str(&self.generic.to_string());
        }
        for (i, &n) in self.pips.iter().enumerate() {
            for _ in 0..n {
                s.push(RES_LETTERS[i]);
            }
        }
        s
    }
    /// Most generic units, and most pips of one colour, a parsed cost may have (the range of a
    /// card's printed cost fields, docs/card_data.md).
    pub const MAX_PART: i16 = 20;

    /// Parse the rules notation "{1}{M}", "{2}", "{F}{F}". The generic numbers add up and
    /// their total must stay within 0..=`MAX_PART`, as must the pips of each colour; an error
    /// says what is wrong (the caller names the parameter).
    pub fn parse_braces(s: &str) -> Result<Cost, String> {
        let mut c = Cost::default();
        let mut rest = s.trim();
        if rest.is_empty() {
            return Err("a cost cannot be empty (write {0} for no cost)".into());
        }
        while !rest.is_empty() {
            let Some(body) = rest.strip_prefix('{') else {
                return Err(format!("expected '{{' at '{}'", head(rest)));
            };
            let Some(inner_end) = body.find('}') else {
                return Err(format!("missing '}}' after '{{{}'", head(body)));
            };
            let inner = &body[..inner_end];
            let (slot, what) = match inner {
                "F" => (&mut c.pips[F], "Forint pips"),
                "M" => (&mut c.pips[M], "Media pips"),
                "U" => (&mut c.pips[U], "Street pips"),
                n => {
                    let v = n
                        .parse::<i16>()
                        .ok()
                        .filter(|v| (0..=Self::MAX_PART).contains(v))
                        .ok_or_else(|| format!("'{{{}}}' is not a generic number 0..={} or F, M, U", head(n), Self::MAX_PART))?;
                    // bounded below, so the add cannot overflow
                    c.generic += v;
                    if c.generic > Self::MAX_PART {
                        return Err(format!("the generic total exceeds {}", Self::MAX_PART));
                    }
                    rest = &body[inner_end + 1..];
                    continue;
                }
            };
            *slot += 1;
            if *slot > Self::MAX_PART {
                return Err(format!("more than {} {what}", Self::MAX_PART));
            }
            rest = &body[inner_end + 1..];
        }
        Ok(c)
    }
    pub fn braces(&self) -> String {
        let mut s = String::new();
        if self.generic > 0 || self.total() == 0 {
            s.push_str(&format!("{{{}}}", self.generic));
        }
        for (i, &n) in self.pips.iter().enumerate() {
            for _ in 0..n {
                s.push_str(&format!("{{{}}}", RES_LETTERS[i]));
            }
        }
        s
    }
}

/// Keywords a card has (cards.md §2), with their numbers.
#[derive(Clone, Debug, Default)]
pub struct Keywords {
    pub scandal: i16,
    pub expose: i16,
    pub lone: i16,
    pub movement: i16,
    pub defector: i16,
    pub sympathy: i16,
    pub propaganda: bool,
    pub momentum: bool,
    pub outrage: bool,
    pub joint_candidate: bool,
    pub supermajority: bool,
    pub unity: bool,
    pub border_closure: bool,
    pub swap: bool,
}

#[derive(Clone, Debug)]
pub struct CardDef {
    pub id: String,
    pub name: String,
    pub faction: Faction,
    pub ctype: CardType,
    pub copies: u8,
    pub cost: Cost,
    /// Bases: the resource one exhaust gives.
    pub produces: Option<usize>,
    pub influence: i16,
    pub credibility: i16,
    /// Party bit (0 = no party, never counts for Unity).
    pub party_bit: u32,
    pub party: String,
    pub role: String,
    pub public_figure: bool,
    pub kw: Keywords,
    pub keyword_text: String,
    pub text: String,
    pub abilities: Vec<Ability>,
    pub statics: Vec<Static>,
    /// Event: lasts the round (true) or one-shot (false).
    pub round_event: bool,
    /// Quick flags for the hot loop.
    pub has_start_of_turn: bool,
    pub has_enter: bool,
    pub has_leave: bool,
    pub has_base_played: bool,
    pub has_activated: bool,
    /// Activated ability usable in windows (Bűnbak).
    pub has_instant_ability: bool,
    /// Its only activated effect adds resources (R6.4.2): used by the payer, never offered.
    pub mana_ability: Option<(Option<usize>, i16)>,
    pub sacrifice_to_cast: bool,
}

impl CardDef {
    pub fn abilities_on(&self, t: Trigger) -> impl Iterator<Item = &Ability> {
        self.abilities.iter().filter(move |a| a.trigger == t)
    }
}

/// A compiled card set with resolved parameters: what one batch plays with.
#[derive(Clone, Debug)]
pub struct CardDb {
    pub cards: Vec<CardDef>,
    pub rules: Rules,
    /// Per faction (0..4): the deck as card-def indices, one entry per copy.
    pub decks: [Vec<u16>; 4],
    pub newsfeed: Vec<u16>,
    pub events: Vec<u16>,
    /// Token defs: [Fence, Splinter] and how many of each are in the box.
    pub tokens: Vec<(u16, u8)>,
    /// Card id of Szavazatszámláló-like static (supermajority increase) etc. are found via statics.
    pub hash: u64,
}

impl CardDb {
    pub fn index_of(&self, id: &str) -> Option<u16> {
        self.cards.iter().position(|c| c.id == id).map(|i| i as u16)
    }
    #[inline]
    pub fn def(&self, i: u16) -> &CardDef {
        &self.cards[i as usize]
    }
}
