//! Diplomacy (V1, TF 169.1; docs/formats.md "Diplomacy"): non-aggression pacts between seats,
//! as data (`format.pacts`, `format.pact_until_players`, `format.pact_rounds`,
//! `format.pact_sanction`).
//!
//! A pact between seats p and q says "no Campaign or Exposé against each other". The engine
//! never forbids breaking it: attacking the partner in a Campaign or exposing it (the basic
//! Exposé or a card's) while the pact holds is a legal action that *breaks* the pact. The
//! engine then counts the break (`Player::pacts_broken`, the `pacts_broken` result column),
//! takes `format.pact_sanction` Support from the breaker (credited to nobody) and voids the
//! pact: once broken it no longer holds, for either party. The built-in bots honour pacts
//! (`bots::Policy` filters the breaking options while a pact holds, unless every option
//! breaks one); agents of the step API and Python agents decide for themselves.
//!
//! A pact holds while neither party has broken it, both parties are in the game, more than
//! `pact_until_players` seats are in the game, and (with `pact_rounds` R > 0) the game is in
//! its first R rounds.

use super::mode::Mode;
use super::seats::Seats;
use super::state::{Game, GameData};
use super::trace::glog;
use crate::cards::FormatSpec;

impl GameData<'_> {
    /// Whether a pact between `p` and `q` holds now.
    #[inline]
    pub fn pact_holds(&self, p: usize, q: usize) -> bool {
        if self.db.rules.format.pacts.is_empty() {
            return false;
        }
        self.pact_partners(p).contains(q)
    }

    /// The seats with which `p` has a pact that holds now (the bots' filter asks once per
    /// decision).
    pub fn pact_partners(&self, p: usize) -> Seats {
        let f = &self.db.rules.format;
        let mut s = Seats::EMPTY;
        if f.pacts.is_empty() || !self.state.players[p].alive || self.alive_count() as i32 <= f.pact_until_players || (f.pact_rounds > 0 && self.state.round as i32 > f.pact_rounds)
        {
            return s;
        }
        for (i, &(a, b)) in f.pacts.iter().enumerate().take(16) {
            let (a, b) = (a as usize, b as usize);
            if self.state.pacts_void >> i & 1 != 0 {
                continue;
            }
            let other = if a == p {
                b
            } else if b == p {
                a
            } else {
                continue;
            };
            if other < self.state.n && other != p && self.state.players[other].alive {
                s = s.with(other);
            }
        }
        s
    }

    /// The first pact between `p` and `q` that holds now.
    #[cold]
    fn pact_index(&self, f: &FormatSpec, p: usize, q: usize) -> Option<usize> {
        if p == q || !self.state.players[p].alive || !self.state.players[q].alive {
            return None;
        }
        if self.alive_count() as i32 <= f.pact_until_players {
            return None;
        }
        if f.pact_rounds > 0 && self.state.round as i32 > f.pact_rounds {
            return None;
        }
        f.pacts.iter().enumerate().position(|(i, &(a, b))| {
            let (a, b) = (a as usize, b as usize);
            i < 16 && self.state.pacts_void >> i & 1 == 0 && ((a, b) == (p, q) || (a, b) == (q, p))
        })
    }

    /// Whether some pact of `p` holds now.
    pub fn any_pact_of(&self, p: usize) -> bool {
        !self.pact_partners(p).is_empty()
    }
}

impl<M: Mode> Game<'_, M> {
    /// `p` breaks its pact with `q` (a Campaign attacking `q` or an Exposé against `q` while
    /// the pact holds): counted, sanctioned, and the pact is void. The state check after the
    /// action finds a breaker the sanction took to 0.
    #[cold]
    pub fn break_pact(&mut self, p: usize, q: usize) {
        let f = &self.db.rules.format;
        let Some(i) = self.pact_index(f, p, q) else { return };
        let sanction = f.pact_sanction;
        self.state.pacts_void |= 1 << i;
        self.state.players[p].pacts_broken += 1;
        glog!(self, "  P{p} breaks its pact with P{q}");
        if sanction > 0 {
            self.lose_support(p, sanction, -1);
        }
    }
}
