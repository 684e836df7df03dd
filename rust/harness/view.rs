//! A readable picture of a game for viewers (issue 28: the replay viewer and terminal play):
//! the numbers to chart per seat, the zones on the table with who may see each, and a few
//! public facts. Not for bots (they read `GameState::observe`), never on a batch's path: it
//! allocates freely.

/// One number of one seat to chart over a game ("damaged sections" of the Attacker).
#[derive(Clone, Debug, PartialEq)]
pub struct Score {
    pub seat: usize,
    pub name: &'static str,
    pub value: f64,
}

/// One zone on the table: a hand, a section's side, a stack, the discard pile.
#[derive(Clone, Debug, PartialEq)]
pub struct Zone {
    /// "hand", "left_ditch", "stack at 7" …
    pub name: String,
    /// The seat the zone belongs to (None: the table's).
    pub owner: Option<usize>,
    /// Bit `s`: seat `s` sees the items ([`Zone::PUBLIC`]: every seat; 0: nobody, a deck's order).
    pub seen_by: u64,
    /// The items in the zone's own order (cards, philosophers, votes), as labels.
    pub items: Vec<String>,
}

impl Zone {
    /// `seen_by` of a zone every seat sees.
    pub const PUBLIC: u64 = u64::MAX;

    /// A zone every seat sees.
    pub fn public(name: impl Into<String>, owner: Option<usize>, items: Vec<String>) -> Zone {
        Zone { name: name.into(), owner, seen_by: Zone::PUBLIC, items }
    }

    /// A zone only `seat` sees (its hand, its own perception).
    pub fn private(name: impl Into<String>, seat: usize, items: Vec<String>) -> Zone {
        Zone { name: name.into(), owner: Some(seat), seen_by: 1 << seat, items }
    }

    /// Does `seat` see the items?
    pub fn seen(&self, seat: usize) -> bool {
        self.seen_by >> seat & 1 == 1
    }
}

/// What a viewer shows of a game at one moment (`GameState::view`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TableView {
    pub scores: Vec<Score>,
    pub zones: Vec<Zone>,
    /// Public facts as (name, value): "phase" → "play", "deck" → "31 cards".
    pub facts: Vec<(&'static str, String)>,
}

impl TableView {
    pub fn score(&mut self, seat: usize, name: &'static str, value: f64) {
        self.scores.push(Score { seat, name, value });
    }
    pub fn fact(&mut self, name: &'static str, value: impl Into<String>) {
        self.facts.push((name, value.into()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zones_say_who_sees_them() {
        let hand = Zone::private("hand", 1, vec!["red 3".into()]);
        assert!(hand.seen(1) && !hand.seen(0) && !hand.seen(2));
        let table = Zone::public("discard", None, vec![]);
        assert!((0..12).all(|s| table.seen(s)));
        let deck = Zone { name: "deck".into(), owner: None, seen_by: 0, items: vec![] };
        assert!(!deck.seen(0));
    }
}
