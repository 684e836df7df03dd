//! Setup (R3): shuffles, opening hands, mulligans, Newsfeed row, Event deck, start player.
//! Randomness is consumed in the order of R3.11 (E12).

use super::decision::{DecisionKind, Opt};
use super::mode::Mode;
use super::state::{Game, GameData, Zone};
use super::trace::glog;

impl<M: Mode> Game<'_, M> {
    pub fn setup(&mut self, fixed_start: Option<u8>) {
        let r = &self.db.rules;
        let hand = r.opening_hand;
        // deck shuffles and opening draws in seat order
        for p in 0..self.state.n {
            let mut deck = std::mem::take(&mut self.state.players[p].deck);
            self.state.rng_shuffle.shuffle(&mut deck);
            self.state.players[p].deck = deck;
            self.draw(p, hand);
        }
        // mulligans in seat order (E6, E8)
        for p in 0..self.state.n {
            self.mulligan(p);
        }
        // Newsfeed and Event decks
        let st = &mut self.state; // borrowed apart
        st.rng_events.shuffle(&mut st.news_deck);
        self.refill_row();
        let st = &mut self.state;
        st.rng_events.shuffle(&mut st.event_deck);
        // start player (E9)
        st.start_player = match fixed_start {
            Some(s) => s as usize % st.n,
            None => st.rng_shuffle.below(st.n),
        };
        // TF 169.2.10 (`format.decline_to_start`): the start player may decline; then the
        // next seat in turn order starts (in pairs play an opponent) and cannot decline
        if r.format.decline_to_start && self.state.n > 1 {
            let s = self.state.start_player;
            self.scratch.opts.clear();
            self.scratch.opts.push(Opt::Keep);
            self.scratch.opts.push(Opt::Pass);
            if self.decide(s, DecisionKind::DeclineStart) == Opt::Pass {
                self.state.start_player = (s + 1) % self.state.n;
                glog!(self, "P{s} declines to start: P{} starts", self.state.start_player);
            }
        }
        self.state.active = self.state.start_player;
        self.state.first_start_player = self.state.start_player;
        // the format's starting Support (Quick E79-E80: 15; Coalition E82, E88: the team
        // pool's 30, no second-player bonus); 0 keeps rules.starting_support
        let f = &r.format;
        for p in 0..self.state.n {
            let mut s = if f.support > 0 { f.support } else { r.starting_support };
            if self.state.n == 2 && p != self.state.start_player && f.second_player_bonus {
                s += r.second_player_bonus;
            }
            self.state.set_support(p, s);
        }
        glog!(
            self,
            "Setup: {} players; start player P{} ({}); Newsfeed row: {}",
            self.state.n,
            self.state.start_player,
            self.faction_name(self.state.start_player),
            self.state.news_row.iter().map(|&c| self.name(c)).collect::<Vec<_>>().join(", ")
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
            self.state.players[p].mulligans += 1;
            glog!(self, "P{p} mulligans ({k}): shuffles the hand ({}) into the deck", crate::engine::trace::cards(self.state.players[p].hand.len()));
            let st = &mut self.state; // borrowed apart
            let pl = &mut st.players[p];
            while let Some(c) = pl.hand.pop() {
                st.inst[c as usize].zone = Zone::Deck;
                pl.deck.push(c);
            }
            self.recount_reactions(p);
            let mut deck = std::mem::take(&mut self.state.players[p].deck);
            self.state.rng_shuffle.shuffle(&mut deck);
            self.state.players[p].deck = deck;
            self.draw(p, hand);
            for _ in 0..k {
                if self.state.players[p].hand.is_empty() {
                    break;
                }
                let g: &mut GameData = self; // the state and the option list borrowed apart
                g.scratch.opts.clear();
                for &c in &g.state.players[p].hand {
                    g.scratch.opts.push(Opt::Card(c));
                }
                if let Opt::Card(c) = self.decide(p, DecisionKind::Bottom) {
                    self.take_from_hand(p, c);
                    self.state.inst[c as usize].zone = Zone::Deck;
                    self.state.players[p].deck.insert(0, c);
                    glog!(self, "  P{p} puts 1 card on the bottom of the deck ({})", self.name(c));
                }
            }
        }
        let mut bits = 0u128;
        for &c in &self.state.players[p].hand {
            bits |= 1u128 << (self.state.inst[c as usize].def & 127);
        }
        self.state.players[p].opening = bits;
        glog!(self, "P{p} ({}) keeps {} cards after {k} mulligan(s)", self.faction_name(p), self.state.players[p].hand.len());
    }
}
