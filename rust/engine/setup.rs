//! Setup (R3): shuffles, opening hands, mulligans, Newsfeed row, Event deck, start player.
//! Randomness is consumed in the order of R3.11 (E12).

use super::decision::{DecisionKind, Opt};
use super::trace::glog;
use super::state::{Game, Zone};

impl Game<'_> {
    pub fn setup(&mut self, fixed_start: Option<u8>) {
        let r = &self.db.rules;
        let hand = r.opening_hand;
        // deck shuffles and opening draws in seat order
        for p in 0..self.n {
            let mut deck = std::mem::take(&mut self.players[p].deck);
            self.rng_shuffle.shuffle(&mut deck);
            self.players[p].deck = deck;
            self.draw(p, hand);
        }
        // mulligans in seat order (E6, E8)
        for p in 0..self.n {
            self.mulligan(p);
        }
        // Newsfeed and Event decks
        self.rng_events.shuffle(&mut self.news_deck);
        self.refill_row();
        self.rng_events.shuffle(&mut self.event_deck);
        // start player (E9)
        self.start_player = match fixed_start {
            Some(s) => s as usize % self.n,
            None => self.rng_shuffle.below(self.n),
        };
        self.active = self.start_player;
        self.first_start_player = self.start_player;
        for p in 0..self.n {
            let mut s = r.starting_support;
            if self.n == 2 && p != self.start_player {
                s += r.second_player_bonus;
            }
            self.players[p].support = s;
        }
        glog!(
            self,
            "Setup: {} players; start player P{} ({}); Newsfeed row: {}",
            self.n,
            self.start_player,
            self.faction_name(self.start_player),
            self.news_row.iter().map(|&c| self.name(c)).collect::<Vec<_>>().join(", ")
        );
    }

    /// The mulligan procedure of R3.3.2 for one player.
    fn mulligan(&mut self, p: usize) {
        let max = self.db.rules.max_mulligans;
        let hand = self.db.rules.opening_hand;
        let mut k = 0;
        while k < max {
            self.scratch.opts.clear();
            self.scratch.opts.push(Opt::Keep);
            self.scratch.opts.push(Opt::Mulligan);
            if self.decide(p, DecisionKind::Mulligan) == Opt::Keep {
                break;
            }
            k += 1;
            self.players[p].mulligans += 1;
            glog!(self, "P{p} mulligans ({k}): shuffles the hand ({}) into the deck", crate::engine::trace::cards(self.players[p].hand.len()));
            let pl = &mut self.players[p];
            while let Some(c) = pl.hand.pop() {
                self.inst[c as usize].zone = Zone::Deck;
                pl.deck.push(c);
            }
            self.cache.reactions[p] = 0;
            let mut deck = std::mem::take(&mut self.players[p].deck);
            self.rng_shuffle.shuffle(&mut deck);
            self.players[p].deck = deck;
            self.draw(p, hand);
            for _ in 0..k {
                if self.players[p].hand.is_empty() {
                    break;
                }
                self.scratch.opts.clear();
                for &c in &self.players[p].hand {
                    self.scratch.opts.push(Opt::Card(c));
                }
                if let Opt::Card(c) = self.decide(p, DecisionKind::Bottom) {
                    self.take_from_hand(p, c);
                    self.inst[c as usize].zone = Zone::Deck;
                    self.players[p].deck.insert(0, c);
                    glog!(self, "  P{p} puts 1 card on the bottom of the deck ({})", self.name(c));
                }
            }
        }
        let mut bits = 0u128;
        for &c in &self.players[p].hand {
            bits |= 1u128 << (self.inst[c as usize].def & 127);
        }
        self.players[p].opening = bits;
        glog!(self, "P{p} ({}) keeps {} cards after {k} mulligan(s)", self.faction_name(p), self.players[p].hand.len());
    }
}
