//! Decks beyond the four factions (rules.md R3, R16.4, E90; docs/decks.md).
//!
//! A seat plays one of three kinds of deck, each named by one string (the form every entry
//! point passes on; `ketharmad._decks` writes the Python forms as these strings):
//!
//! * a faction's own deck: `"ner"` (R2.1);
//! * a Mixed deck of two factions: `"ner+tisza"` (R16.4, E90): `rules.mixed_deck_non_base`
//!   non-Base cards and `rules.mixed_deck_bases` Bases from each faction deck, chosen per game
//!   uniformly at random (each a uniformly random subset of the physical copies of that
//!   faction deck) from the game's own `Deck` random stream, one stream per seat;
//! * a fixed list: `"name[card_id*copies,card_id*copies,...]"`, checked here (known faction
//!   cards, copies within the card's, one faction with `rules.deck_size` cards or two with the
//!   Mixed composition).
//!
//! Everything here is checked once per call, before any game runs; dealing a game's deck
//! (`Deck::deal`) cannot fail.

use super::model::{CardDb, CardType, Faction, FACTIONS};
use crate::rng::{Rng, Stream};

/// One seat's deck.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Deck {
    /// A faction's own deck (code into `FACTIONS`).
    Faction(u8),
    /// A Mixed deck of two different factions (E90), dealt per game.
    Mixed(u8, u8),
    /// A fixed list: card definitions, one entry per copy, in card-file order.
    List { name: String, cards: Vec<u16>, faction: u8, factions: u8 },
}

fn faction_code(s: &str) -> Option<u8> {
    FACTIONS.iter().position(|f| *f == s).map(|i| i as u8)
}

/// Whether `name` may name a custom deck: 1-40 letters, digits, `_`, `-`, `.`, not a
/// faction's name (a label must say which deck a row played).
pub fn check_deck_name(name: &str) -> Result<(), String> {
    if name.is_empty() || name.chars().count() > 40 {
        return Err(format!("a deck name must have 1 to 40 characters, got {name:?}"));
    }
    if let Some(c) = name.chars().find(|c| !(c.is_alphanumeric() || matches!(c, '_' | '-' | '.'))) {
        return Err(format!("deck name {name:?}: the character {c:?} is not allowed (letters, digits, '_', '-', '.')"));
    }
    if faction_code(name).is_some() {
        return Err(format!("deck name {name:?} is a faction's name; give a custom deck a name of its own"));
    }
    Ok(())
}

impl Deck {
    /// Parse and check one deck string against the card set `db` (its rules: deck size,
    /// Mixed composition, copy limit).
    pub fn parse(db: &CardDb, s: &str) -> Result<Deck, String> {
        let s = s.trim();
        if let Some(open) = s.find('[') {
            let name = &s[..open];
            check_deck_name(name)?;
            let Some(body) = s[open + 1..].strip_suffix(']') else {
                return Err(format!("deck {name:?}: the card list must end with ']'"));
            };
            let mut entries: Vec<(String, i64)> = Vec::new();
            for item in body.split(',').map(str::trim).filter(|x| !x.is_empty()) {
                let (id, n) = match item.rsplit_once('*') {
                    Some((id, n)) => {
                        let n = n.trim().parse::<i64>().map_err(|_| format!("deck {name:?}: '{item}': copies must be a whole number"))?;
                        (id.trim(), n)
                    }
                    None => (item, 1),
                };
                entries.push((id.to_string(), n));
            }
            return Deck::from_list(db, name, &entries);
        }
        if let Some((a, b)) = s.split_once('+') {
            let fa = faction_code(a.trim()).ok_or_else(|| unknown_faction(a.trim(), s))?;
            let fb = faction_code(b.trim()).ok_or_else(|| unknown_faction(b.trim(), s))?;
            if fa == fb {
                return Err(format!("Mixed deck '{s}' names the faction '{a}' twice; a Mixed deck takes two different factions (R16.4)"));
            }
            let r = &db.rules;
            for f in [fa, fb] {
                let (non_base, bases) = split_counts(db, &db.decks[f as usize]);
                if non_base < r.mixed_deck_non_base as usize || bases < r.mixed_deck_bases as usize {
                    return Err(format!(
                        "Mixed deck '{s}': the {} deck has {non_base} non-Base cards and {bases} Bases, a Mixed deck takes {} and {} from it (rules.mixed_deck_non_base, rules.mixed_deck_bases)",
                        FACTIONS[f as usize], r.mixed_deck_non_base, r.mixed_deck_bases
                    ));
                }
            }
            return Ok(Deck::Mixed(fa, fb));
        }
        faction_code(s).map(Deck::Faction).ok_or_else(|| unknown_faction(s, s))
    }

    /// A custom list `(card id, copies)` checked against `db`.
    pub fn from_list(db: &CardDb, name: &str, entries: &[(String, i64)]) -> Result<Deck, String> {
        check_deck_name(name)?;
        if entries.is_empty() {
            return Err(format!("deck {name:?}: the card list is empty"));
        }
        let r = &db.rules;
        let mut counts = vec![0i64; db.cards.len()];
        for (id, n) in entries {
            let Some(i) = db.index_of(id) else {
                let similar: Vec<&str> = db.cards.iter().filter(|c| c.id.contains(id.as_str()) || id.contains(c.id.as_str())).take(3).map(|c| c.id.as_str()).collect();
                let hint = if similar.is_empty() { String::new() } else { format!(" (similar: {})", similar.join(", ")) };
                return Err(format!("deck {name:?}: unknown card id '{id}'{hint}"));
            };
            let d = db.def(i);
            if !matches!(d.faction, Faction::Ner | Faction::Osszefogas | Faction::Tisza | Faction::Radikalisok) {
                let what = match d.faction {
                    Faction::Newsfeed => "a Newsfeed card",
                    Faction::Event => "an Event card",
                    _ => "a token card",
                };
                return Err(format!("deck {name:?}: '{id}' is {what}; a deck holds only faction cards (R2.1)"));
            }
            if *n < 1 {
                return Err(format!("deck {name:?}: '{id}' has {n} copies; give each card 1 or more copies (leave a card out to play none)"));
            }
            if counts[i as usize] > 0 {
                return Err(format!("deck {name:?}: '{id}' is listed twice"));
            }
            if *n > d.copies as i64 && !r.allow_extra_copies {
                return Err(format!(
                    "deck {name:?}: {n} copies of '{id}', but the card allows {} (its copies in the {} deck, E90); set rules.allow_extra_copies = true to lift the limit",
                    d.copies,
                    d.faction.name()
                ));
            }
            if *n > 256 {
                return Err(format!("deck {name:?}: {n} copies of '{id}' is more than any game holds"));
            }
            counts[i as usize] = *n;
        }
        let mut cards = Vec::new();
        let mut per_faction = [0usize; 4];
        for (i, &n) in counts.iter().enumerate() {
            for _ in 0..n {
                cards.push(i as u16);
            }
            if n > 0 {
                per_faction[db.cards[i].faction as usize] += n as usize;
            }
        }
        let used: Vec<usize> = (0..4).filter(|&f| per_faction[f] > 0).collect();
        let factions = used.iter().fold(0u8, |m, &f| m | (1 << f));
        match used.len() {
            1 => {
                if cards.len() != r.deck_size as usize {
                    return Err(format!("deck {name:?} has {} cards; a deck of one faction has {} (rules.deck_size, R2.1)", cards.len(), r.deck_size));
                }
            }
            2 => {
                let mut problems = Vec::new();
                for &f in &used {
                    let of: Vec<u16> = cards.iter().copied().filter(|&c| db.def(c).faction as usize == f).collect();
                    let (non_base, bases) = split_counts(db, &of);
                    if non_base != r.mixed_deck_non_base as usize || bases != r.mixed_deck_bases as usize {
                        problems.push(format!("{non_base} non-Base and {bases} Bases from {}", FACTIONS[f]));
                    }
                }
                if !problems.is_empty() {
                    return Err(format!(
                        "deck {name:?} takes cards from {} and {}, so it is a Mixed deck (R16.4, E90) of {} non-Base cards and {} Bases from each faction; it has {} (rules.mixed_deck_non_base, rules.mixed_deck_bases)",
                        FACTIONS[used[0]],
                        FACTIONS[used[1]],
                        r.mixed_deck_non_base,
                        r.mixed_deck_bases,
                        problems.join(", ")
                    ));
                }
            }
            k => {
                return Err(format!(
                    "deck {name:?} takes cards from {k} factions ({}); a deck is built from one faction or two (a Mixed deck, R16.4)",
                    used.iter().map(|&f| FACTIONS[f]).collect::<Vec<_>>().join(", ")
                ));
            }
        }
        // the seat's faction: the one that gives most cards (ties: the first in FACTIONS order)
        let faction = (0..4).max_by_key(|&f| (per_faction[f], 3 - f)).unwrap_or(0) as u8;
        Ok(Deck::List { name: name.to_string(), cards, faction, factions })
    }

    /// The label results carry: the faction, "a+b", or the custom name.
    pub fn label(&self) -> String {
        match self {
            Deck::Faction(f) => FACTIONS[*f as usize].to_string(),
            Deck::Mixed(a, b) => format!("{}+{}", FACTIONS[*a as usize], FACTIONS[*b as usize]),
            Deck::List { name, .. } => name.clone(),
        }
    }

    /// The seat's faction (the `faction` column, the observation): the faction itself, a
    /// Mixed deck's first faction, a list's faction that gives most cards.
    pub fn faction(&self) -> u8 {
        match self {
            Deck::Faction(f) | Deck::Mixed(f, _) => *f,
            Deck::List { faction, .. } => *faction,
        }
    }

    /// The faction decks it takes cards from (bit f = `FACTIONS[f]`).
    pub fn factions(&self) -> u8 {
        match self {
            Deck::Faction(f) => 1 << f,
            Deck::Mixed(a, b) => (1 << a) | (1 << b),
            Deck::List { factions, .. } => *factions,
        }
    }

    /// Cards in the deck.
    pub fn len(&self, db: &CardDb) -> usize {
        match self {
            Deck::Faction(f) => db.decks[*f as usize].len(),
            Deck::Mixed(..) => 2 * (db.rules.mixed_deck_non_base + db.rules.mixed_deck_bases) as usize,
            Deck::List { cards, .. } => cards.len(),
        }
    }

    pub fn is_empty(&self, db: &CardDb) -> bool {
        self.len(db) == 0
    }

    /// Whether two games of the same seed deal the same list (false only for Mixed decks).
    pub fn is_fixed(&self) -> bool {
        !matches!(self, Deck::Mixed(..))
    }

    /// The card definitions (one per copy) seat `seat` plays in the game seeded `seed`, into
    /// `out` (cleared first). A Mixed deck draws its choice from the game's `Deck` stream of
    /// that seat, so the choice never shifts a shuffle, a die or a bot's stream.
    pub fn deal(&self, db: &CardDb, seed: u64, seat: usize, out: &mut Vec<u16>) {
        out.clear();
        match self {
            Deck::Faction(f) => out.extend_from_slice(&db.decks[*f as usize]),
            Deck::List { cards, .. } => out.extend_from_slice(cards),
            Deck::Mixed(a, b) => {
                let mut rng = Rng::stream(seed, Stream::Deck as u64 + seat as u64);
                let r = &db.rules;
                for f in [*a, *b] {
                    let deck = &db.decks[f as usize];
                    for (base, k) in [(false, r.mixed_deck_non_base), (true, r.mixed_deck_bases)] {
                        // positions in the faction deck: the pick is a uniformly random
                        // k-subset of these copies, kept in card-file order
                        let mut pos: Vec<u16> = (0..deck.len() as u16).filter(|&i| (db.def(deck[i as usize]).ctype == CardType::Base) == base).collect();
                        rng.shuffle(&mut pos);
                        pos.truncate(k.max(0) as usize);
                        pos.sort_unstable();
                        out.extend(pos.iter().map(|&i| deck[i as usize]));
                    }
                }
            }
        }
    }
}

fn unknown_faction(f: &str, deck: &str) -> String {
    if f == deck {
        format!("unknown deck '{deck}': a faction ({}), a Mixed deck 'a+b' of two factions, or a card list (docs/decks.md)", FACTIONS.join(", "))
    } else {
        format!("unknown faction '{f}' in Mixed deck '{deck}' (known: {})", FACTIONS.join(", "))
    }
}

/// (non-Base cards, Bases) of a list of definitions.
fn split_counts(db: &CardDb, cards: &[u16]) -> (usize, usize) {
    let bases = cards.iter().filter(|&&c| db.def(c).ctype == CardType::Base).count();
    (cards.len() - bases, bases)
}

/// Parse every seat's deck; `(factions, decks)` where `decks` is empty when every seat plays
/// its faction's own deck (the batch fast path builds nothing then).
pub fn parse_decks(db: &CardDb, decks: &[String]) -> Result<(Vec<u8>, Vec<Deck>), String> {
    let parsed = decks.iter().map(|d| Deck::parse(db, d)).collect::<Result<Vec<_>, _>>()?;
    let factions = parsed.iter().map(Deck::faction).collect();
    let plain = parsed.iter().all(|d| matches!(d, Deck::Faction(_)));
    Ok((factions, if plain { Vec::new() } else { parsed }))
}

/// The rulebook's "each faction deck exists once" (E5, E90): without `rules.allow_mirror`, no
/// two seats' decks take cards from the same faction deck.
pub fn check_disjoint(db: &CardDb, factions: &[u8], decks: &[Deck]) -> Result<(), String> {
    if db.rules.allow_mirror {
        return Ok(());
    }
    let deck_of = |i: usize| decks.get(i).cloned().unwrap_or(Deck::Faction(factions[i]));
    for i in 0..factions.len() {
        for j in 0..i {
            let (a, b) = (deck_of(i), deck_of(j));
            let both = a.factions() & b.factions();
            if both != 0 {
                let f = FACTIONS[both.trailing_zeros() as usize];
                return Err(if a == b && matches!(a, Deck::Faction(_)) {
                    format!("faction '{f}' is used twice; set rules.allow_mirror = true for mirror matches")
                } else {
                    format!("decks '{}' and '{}' both take cards from the {f} deck, which exists once (E90); set rules.allow_mirror = true to allow it", b.label(), a.label())
                });
            }
        }
    }
    Ok(())
}
