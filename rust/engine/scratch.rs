//! Reusable buffers: no meaning between actions, kept only so that the hot loop allocates
//! nothing. A buffer is filled and used within one step (`opts` from the option builder
//! that fills it to the `Game::decide` that reads it); a function borrowing one takes it
//! with `std::mem::take` and puts it back, so nothing of a game lives here.

use super::decision::Opt;
use super::state::Cid;

/// The reusable buffers of one game (their capacities carry over to the next game of a batch).
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    /// The options of the decision being built (read by `Game::decide`).
    pub opts: Vec<Opt>,
    /// Cards (able attackers, free blockers, blockers of one attacker).
    pub cards: Vec<Cid>,
    /// Damage to assign: (card, amount).
    pub damage: Vec<(Cid, i16)>,
    /// Ready resource sources of the payer: (card, resource 0..2 or 3 = any, rank).
    pub sources: Vec<(Cid, u8, u8)>,
}

impl Scratch {
    /// Empty every buffer, keeping the capacity.
    pub fn clear(&mut self) {
        self.opts.clear();
        self.cards.clear();
        self.damage.clear();
        self.sources.clear();
    }

    /// Capacities for a whole game (no-ops for reused buffers).
    pub fn reserve(&mut self) {
        self.opts.reserve(64);
        self.cards.reserve(32);
        self.damage.reserve(32);
        self.sources.reserve(32);
    }
}
