//! Caches: values derived from the rules state (`State`) and kept only for speed, and the
//! few card mutations that keep them in step.
//!
//! Nothing here is rules state. Every field can be recomputed from `State` (how is said at
//! each field; `Game::rebuild_caches` does it all, and tests/caches.rs plays games whose
//! caches are rebuilt at every round, and mid-turn, against the same games played through),
//! and a game whose caches are all "invalid" or "dirty" plays exactly like one whose caches
//! are warm, only slower. The invariant checker (`invariants.rs`, run after
//! every action by the fuzzer in `tests/fuzz.rs`) compares the counted ones with a fresh
//! count, and checks that Close left nothing behind.
//!
//! # The protocol
//!
//! Effect and rules code changes a card only through these functions, never by writing
//! `Inst` fields that a cache depends on:
//!
//! | change                                        | function                                   |
//! |-----------------------------------------------|--------------------------------------------|
//! | a card enters / leaves play, changes sides    | `enter_play`, `leave_play`, `remove_from_game`, `change_control` (state.rs), which call `board_changed` and `ready_out` / `ready_in` |
//! | a player is eliminated                        | `eliminate` (checks.rs) calls `board_changed_everywhere` |
//! | a card is exhausted or readied                | `set_exhausted`                            |
//! | damage to a card                              | `damage_card`                              |
//! | an "until end of turn" change                 | `until_end_of_turn`                        |
//! | a card's own stats change otherwise (counters, attacking) | `forget_stats`                 |
//! | a card enters or leaves a hand                | `hand_push`, `take_from_hand` (state.rs)   |
//!
//! What each cache relies on:
//! - **Generations.** `board_gen` (everyone) and `player_gen[p]` (seat `p`) change whenever
//!   a card that carries stats, statics, a party, an ability or an Institution enters or
//!   leaves play or changes sides (`board_changed`; a plain Base changes nothing cached).
//!   `stat_gen[p]` changes with `player_gen[p]`, and for every seat with an elimination or a
//!   card raising the Supermajority (`Static::SupermajorityIncrease`) entering, leaving or
//!   changing sides: a Figure's stats depend on its controller's board, its opponents and
//!   their Supermajority increases, nothing else of the other seats. Its values come from
//!   one clock (`stat_clock`), so no two seats, and no seat at two times, share one.
//!   `stat_cache[p]` is valid while its `gen` equals `stat_gen[p]`, `board_count[p]` while
//!   its `gen` equals `player_gen[p]`, `stat_memo[c]` while its key equals the `stat_gen` of
//!   `c`'s controller.
//! - **Per-card stats** (`stat_memo`) also depend on the card's own counters, pumps and
//!   whether it attacks: each such change calls `forget_stats(c)` (key 0 = not valid).
//! - **Sums kept by difference** (`ready`, `able`): every change of what makes a card in play
//!   a ready resource source or a possible attacker (zone, controller, exhausted, fresh,
//!   Momentum) is bracketed by `ready_out(c)` before and `ready_in(c)` after. Wake and Close
//!   recount them outright. `reactions[p]` and `reaction_floor[p]` are kept by every hand
//!   move (`hand_push`, `take_from_hand`).
//! - **Dirty hints** (`damaged`, `checked_gen`, `wounded`, `eot_touched`, `fresh_cards`,
//!   `fragile`) let the state check and Close skip work. Setting one more than needed
//!   (`damaged = true`, an extra `wounded` card, `eot_touched = true`) is always safe; only
//!   their consumers (`state_check`, Close) clear them.
//!
//! Scenario tests that place cards or set damage by hand set `hooks.full_checks`, which makes
//! every consumer ignore the caches (state checks scan every Figure, counts are recounted,
//! Close resets every card).

use super::seats::MAX_SEATS;
use super::state::{Cid, GameData, Inst, MAX_INSTS};

/// Per card instance: (its controller's `stat_gen` when computed, Influence, Credibility);
/// key 0 = not valid. A fixed array like `Insts`.
#[derive(Clone, Debug)]
pub struct StatMemo(pub Box<[std::cell::Cell<(u32, i16, i16)>; MAX_INSTS]>);

impl Default for StatMemo {
    fn default() -> StatMemo {
        StatMemo(Box::new([const { std::cell::Cell::new((0, 0, 0)) }; MAX_INSTS]))
    }
}

impl std::ops::Index<usize> for StatMemo {
    type Output = std::cell::Cell<(u32, i16, i16)>;
    #[inline(always)]
    fn index(&self, i: usize) -> &Self::Output {
        &self.0[i & (MAX_INSTS - 1)]
    }
}

/// A player's board-wide static stat bonuses, valid while `gen` equals its `Caches::stat_gen`.
#[derive(Clone, Copy, Debug, Default)]
pub struct StatCache {
    pub gen: u32,
    /// (+Influence, +Credibility) for all Figures / for Figures other than the source.
    pub all: (i16, i16),
    pub others: (i16, i16),
    pub unity: bool,
}

/// Counts over the cards a player controls, valid while `gen` equals `Caches::player_gen`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BoardCount {
    pub gen: u32,
    pub institutions: u8,
    pub figures: u8,
    /// Sum of the Exposé taxes of its statics (Médiatörvény, Közmédia).
    pub expose_tax: i16,
    /// The `Inst::F_COUNTED` bits of all its cards ORed together.
    pub flags: u16,
    /// Its cards with activated abilities (`Inst::F_ACTIVATED`), in play order (the first
    /// `activated`; more than 8 such cards are not listed, see `Game::main_options`).
    pub activated: u8,
    pub with_abilities: [Cid; 8],
    /// The parties of its Figures (one bit each), for Unity.
    pub parties: u32,
}

impl BoardCount {
    /// Count card `c` (instance `i`) in, after the cards already counted.
    #[inline]
    fn take_in(&mut self, c: Cid, i: &Inst) {
        self.flags |= i.flags & Inst::F_COUNTED;
        if i.is(Inst::F_ACTIVATED) && (self.activated as usize) < self.with_abilities.len() {
            self.with_abilities[self.activated as usize] = c;
            self.activated += 1;
        }
        self.institutions += i.is(Inst::F_INSTITUTION) as u8;
        self.figures += i.is(Inst::F_FIGURE) as u8;
        self.expose_tax += i.expose_tax;
        self.parties |= i.party_bit;
    }
}

/// The caches of one game (see the module documentation for the protocol).
#[derive(Clone, Debug)]
pub struct Caches {
    /// Generation of the whole board: changes with any counted card entering, leaving or
    /// changing sides, and with eliminations. Starts at 1.
    pub board_gen: u32,
    /// Generation of each seat's board (the cards it controls).
    pub player_gen: [u32; MAX_SEATS],
    /// Generation of what the stats of each seat's Figures depend on: its board, its
    /// opponents, their Supermajority increases (`Game::stats_changed`). Every value is
    /// unique (drawn from `stat_clock`) and never 0.
    pub stat_gen: [u32; MAX_SEATS],
    /// The last value handed out to a `stat_gen`.
    pub stat_clock: u32,
    /// Per card: (its controller's `stat_gen` when computed, Influence, Credibility);
    /// recomputed by `Game::compute_stats`.
    pub stat_memo: StatMemo,
    /// Per seat: board-wide static bonuses (`Game::board_bonus`).
    pub stat_cache: [std::cell::Cell<StatCache>; MAX_SEATS],
    /// Per seat: counts over its cards in play (`Game::tally_board`).
    pub board_count: [std::cell::Cell<BoardCount>; MAX_SEATS],
    /// Per seat: units its ready resource sources would give, in four 16-bit lanes
    /// (F, M, U, any) (`Game::count_ready`).
    pub ready: [u64; MAX_SEATS],
    /// Per seat: Figures it controls that could attack now (`Game::count_able`).
    pub able: [u16; MAX_SEATS],
    /// Per seat: Reaction cards in its hand.
    pub reactions: [u8; MAX_SEATS],
    /// Per seat: the fewest units that could pay for one of the Reactions in its hand (its
    /// printed cost less its Defector N, a lower bound of its cost with every change but a
    /// lowered Reaction cost), `[0]` among those it may play with nothing on the chain (no
    /// required Action target), `[1]` among all; `i16::MAX` when there is none. Kept with
    /// `reactions` (`Game::recount_reactions`).
    pub reaction_floor: [[i16; 2]; MAX_SEATS],
    /// Damage was dealt (or an attacker stopped attacking) since the last state check.
    pub damaged: bool,
    /// `board_gen` at the last state check.
    pub checked_gen: u32,
    /// The cards dealt damage this turn (cleared at Close with the damage): only they can
    /// hold damage. A superset of the cards with damage.
    pub wounded: Vec<Cid>,
    /// An "until end of turn" change (Influence, Credibility, Propaganda, Momentum) was made
    /// this turn (cleared at Close).
    pub eot_touched: bool,
    /// Cards that entered play Fresh since the last Close (a superset of the Fresh cards).
    pub fresh_cards: Vec<Cid>,
    /// Some Figure of this game has printed Credibility <= 0 (it can die undamaged).
    pub fragile: bool,
}

impl Default for Caches {
    fn default() -> Caches {
        Caches {
            board_gen: 1,
            player_gen: [0; MAX_SEATS],
            stat_gen: FIRST_STAT_GEN,
            stat_clock: MAX_SEATS as u32,
            stat_memo: StatMemo::default(),
            stat_cache: Default::default(),
            board_count: Default::default(),
            ready: [0; MAX_SEATS],
            able: [0; MAX_SEATS],
            reactions: [0; MAX_SEATS],
            reaction_floor: [[i16::MAX; 2]; MAX_SEATS],
            damaged: false,
            checked_gen: 0,
            wounded: Vec::new(),
            eot_touched: false,
            fresh_cards: Vec::new(),
            fragile: false,
        }
    }
}

/// Each seat's first `stat_gen` (1, 2, …: distinct, and below the clock's first value).
const FIRST_STAT_GEN: [u32; MAX_SEATS] = {
    let mut g = [0; MAX_SEATS];
    let mut p = 0;
    while p < MAX_SEATS {
        g[p] = p as u32 + 1;
        p += 1;
    }
    g
};

impl Caches {
    /// The caches of a new game of `insts` card instances, keeping the buffers
    /// (`stat_memo`, `wounded`, `fresh_cards`) of a finished one. Only the memo entries of
    /// the game's instances are cleared (no other is read).
    pub(crate) fn reset(&mut self, insts: usize) {
        self.board_gen = 1;
        self.player_gen = [0; MAX_SEATS];
        self.stat_gen = FIRST_STAT_GEN;
        self.stat_clock = MAX_SEATS as u32;
        self.stat_memo.0[..insts.min(MAX_INSTS)].fill(std::cell::Cell::new((0, 0, 0)));
        self.stat_cache = Default::default();
        self.board_count = Default::default();
        self.ready = [0; MAX_SEATS];
        self.able = [0; MAX_SEATS];
        self.reactions = [0; MAX_SEATS];
        self.reaction_floor = [[i16::MAX; 2]; MAX_SEATS];
        self.damaged = false;
        self.checked_gen = 0;
        self.wounded.clear();
        self.eot_touched = false;
        self.fresh_cards.clear();
        self.fragile = false;
    }
}

impl GameData<'_> {
    /// Card `c` entered, left or changed sides: renew what depends on the board. A plain
    /// Base carries no stats, statics, party, abilities or Institution count, so it changes
    /// nothing cached.
    #[inline]
    pub(crate) fn board_changed(&mut self, c: Cid) {
        let i = &self.state.inst[c as usize];
        if i.flags & Inst::F_BASE == 0 || i.flags & Inst::F_COUNTED != 0 || i.party_bit != 0 {
            self.cache.board_gen += 1;
            let i = self.state.inst[c as usize];
            self.stats_changed(&i);
            let ctl = i.controller;
            if ctl >= 0 {
                self.cache.player_gen[ctl as usize] += 1;
            }
        }
    }

    /// Counted card `i` (in play) enters, leaves or changes sides: new `stat_gen`s for its
    /// controller, and for every seat when it raises the Supermajority of its opponents.
    #[inline(always)]
    fn stats_changed(&mut self, i: &Inst) {
        if i.is(Inst::F_STATIC) && self.db.def(i.def).statics.iter().any(|s| matches!(s, crate::cards::Static::SupermajorityIncrease { .. })) {
            self.stats_changed_everywhere();
        } else if i.controller >= 0 {
            self.cache.stat_clock += 1;
            self.cache.stat_gen[i.controller as usize] = self.cache.stat_clock;
        }
    }

    /// New `stat_gen`s for every seat.
    pub(crate) fn stats_changed_everywhere(&mut self) {
        for q in 0..MAX_SEATS {
            self.cache.stat_clock += 1;
            self.cache.stat_gen[q] = self.cache.stat_clock;
        }
    }

    /// Card `c` entered play: `board_changed`, and when its controller's board counts were
    /// valid they take the card in (no recount). `c` must be the last card of the
    /// controller's play list, so the counts stay what `tally_board` would give.
    #[inline]
    pub(crate) fn board_in(&mut self, c: Cid) {
        let i = self.state.inst[c as usize];
        let Some((p, was)) = self.board_renewed(&i) else { return };
        let mut bc = self.cache.board_count[p].get();
        if bc.gen != was {
            return;
        }
        bc.gen = self.cache.player_gen[p];
        bc.take_in(c, &i);
        self.cache.board_count[p].set(bc);
    }

    /// Card `c` is about to leave play (still in its controller's play list):
    /// `board_changed`, and when its controller's board counts were valid they let the card
    /// go (no recount; a full list of activated cards, which may have left some out, is
    /// recounted when next needed).
    #[inline]
    pub(crate) fn board_out(&mut self, c: Cid) {
        let i = self.state.inst[c as usize];
        let Some((p, was)) = self.board_renewed(&i) else { return };
        let mut bc = self.cache.board_count[p].get();
        let activated = i.is(Inst::F_ACTIVATED);
        if bc.gen != was || (activated && bc.activated as usize == bc.with_abilities.len()) {
            return;
        }
        bc.gen = self.cache.player_gen[p];
        if activated {
            let n = bc.activated as usize;
            if let Some(k) = bc.with_abilities[..n].iter().position(|&x| x == c) {
                bc.with_abilities.copy_within(k + 1..n, k);
                bc.with_abilities[n - 1] = 0;
                bc.activated -= 1;
            }
        }
        bc.institutions -= i.is(Inst::F_INSTITUTION) as u8;
        bc.figures -= i.is(Inst::F_FIGURE) as u8;
        bc.expose_tax -= i.expose_tax;
        // the ORs: what the other cards give
        let (mut flags, mut parties) = (0, 0);
        for &x in &self.state.players[p].play {
            let o = &self.state.inst[x as usize];
            let other = x != c;
            flags |= o.flags & Inst::F_COUNTED & (0u16.wrapping_sub(other as u16));
            parties |= o.party_bit & (0u32.wrapping_sub(other as u32));
        }
        bc.flags = flags;
        bc.parties = parties;
        self.cache.board_count[p].set(bc);
    }

    /// `board_changed` for card `i` in play: the controller and its generation before the
    /// change, when the change counts (see `board_changed`).
    #[inline(always)]
    fn board_renewed(&mut self, i: &Inst) -> Option<(usize, u32)> {
        if i.flags & Inst::F_BASE == 0 || i.flags & Inst::F_COUNTED != 0 || i.party_bit != 0 {
            self.cache.board_gen += 1;
            self.stats_changed(i);
            if i.controller >= 0 {
                let p = i.controller as usize;
                let was = self.cache.player_gen[p];
                self.cache.player_gen[p] = was + 1;
                return Some((p, was));
            }
        }
        None
    }

    /// Every board changed (an elimination: opponents, Unity counts, Border Closure).
    pub(crate) fn board_changed_everywhere(&mut self) {
        self.cache.board_gen += 1;
        self.stats_changed_everywhere();
        for q in 0..self.state.n {
            self.cache.player_gen[q] += 1;
        }
    }

    /// Forget the memoised Influence and Credibility of `c` (its counters, pumps or
    /// attacking changed).
    #[inline]
    pub(crate) fn forget_stats(&self, c: Cid) {
        self.cache.stat_memo[c as usize].set((0, 0, 0));
    }

    /// Take card `c` out of its controller's ready units and attackers (before a change),
    /// when in play.
    #[inline]
    pub(crate) fn ready_out(&mut self, c: Cid) {
        let i = &self.state.inst[c as usize];
        if i.zone == super::Zone::Play {
            let (w, a) = (Self::ready_word(i), Self::able(i));
            let p = i.controller as usize;
            self.cache.ready[p] = self.cache.ready[p].wrapping_sub(w);
            self.cache.able[p] = self.cache.able[p].wrapping_sub(a);
        }
    }

    /// Put card `c` back into its controller's ready units and attackers (after a
    /// change), when in play.
    #[inline]
    pub(crate) fn ready_in(&mut self, c: Cid) {
        let i = &self.state.inst[c as usize];
        if i.zone == super::Zone::Play {
            let (w, a) = (Self::ready_word(i), Self::able(i));
            let p = i.controller as usize;
            self.cache.ready[p] = self.cache.ready[p].wrapping_add(w);
            self.cache.able[p] = self.cache.able[p].wrapping_add(a);
        }
    }

    /// Exhaust or ready a card, keeping the ready units in step.
    #[inline]
    pub fn set_exhausted(&mut self, c: Cid, v: bool) {
        self.ready_out(c);
        self.state.inst[c as usize].exhausted = v;
        self.ready_in(c);
    }

    /// Deal `n` damage to card `c` (the state check that follows sees it).
    #[inline]
    pub(crate) fn damage_card(&mut self, c: Cid, n: i16) {
        self.state.inst[c as usize].damage = self.state.inst[c as usize].damage.saturating_add(n);
        self.cache.damaged = true;
        self.cache.wounded.push(c);
    }

    /// Make an "until end of turn" change to card `c` (Influence, Credibility, Propaganda,
    /// Momentum): Close undoes it.
    #[inline]
    pub(crate) fn until_end_of_turn(&mut self, c: Cid, change: impl FnOnce(&mut Inst)) {
        self.ready_out(c);
        change(&mut self.state.inst[c as usize]);
        self.ready_in(c);
        self.forget_stats(c);
        self.cache.eot_touched = true;
    }

    /// Recompute every cache from the rules state alone, as a copy of the `State` without
    /// its caches would have to: new generations (every memo and count invalid), the sums
    /// recounted, the dirty hints derived from the cards (damage, "until end of turn"
    /// changes, Freshness). The game then plays on exactly as it would have.
    pub fn rebuild_caches(&mut self) {
        self.cache.reset(self.state.inst.len());
        // generation 0 is what the empty default counts carry: start every seat past it
        self.cache.player_gen = [1; MAX_SEATS];
        for p in 0..self.state.n {
            self.cache.ready[p] = self.count_ready(p);
            self.cache.able[p] = self.count_able(p);
            self.recount_reactions(p);
        }
        self.cache.damaged = true;
        for p in 0..self.state.n {
            for &c in &self.state.players[p].play {
                let i = &self.state.inst[c as usize];
                if i.damage != 0 {
                    self.cache.wounded.push(c);
                }
                if i.eot_influence != 0 || i.eot_credibility != 0 || i.eot_propaganda || i.eot_momentum {
                    self.cache.eot_touched = true;
                }
                if i.fresh {
                    self.cache.fresh_cards.push(c);
                }
            }
        }
        self.cache.fragile = self.state.inst.iter().any(|i| i.is(Inst::F_FIGURE) && i.base_credibility <= 0);
    }

    /// Counts over the cards `p` controls (cached until `p`'s board changes; counted
    /// afresh in scenario tests, which may place cards by hand).
    #[inline]
    pub fn board_count(&self, p: usize) -> BoardCount {
        let cached = self.cache.board_count[p].get();
        if cached.gen == self.cache.player_gen[p] && !self.hooks.full_checks {
            return cached;
        }
        self.count_board(p)
    }

    /// `f(&board_count(p))`, with `f` applied in each branch, so that a caller reading one
    /// count reads just that field of valid counts (`board_count` returns them whole, and
    /// the two branches meeting made the compiler copy all 32 bytes out to read one).
    #[inline(always)]
    pub fn board_count_with<R>(&self, p: usize, f: impl Fn(&BoardCount) -> R) -> R {
        let cached = self.cache.board_count[p].get();
        if cached.gen == self.cache.player_gen[p] && !self.hooks.full_checks {
            return f(&cached);
        }
        f(&self.count_board(p))
    }

    /// `board_count(p).flags` (`board_count_with`).
    #[inline(always)]
    pub fn board_flags(&self, p: usize) -> u16 {
        self.board_count_with(p, |b| b.flags)
    }

    #[cold]
    fn count_board(&self, p: usize) -> BoardCount {
        let out = self.tally_board(p);
        self.cache.board_count[p].set(out);
        out
    }

    /// `board_count` computed afresh (not stored).
    pub fn tally_board(&self, p: usize) -> BoardCount {
        let mut out = BoardCount { gen: self.cache.player_gen[p], ..Default::default() };
        for &c in &self.state.players[p].play {
            out.take_in(c, &self.state.inst[c as usize]);
        }
        out
    }

    /// Close (E31) for the caches' sake: end damage, "until end of turn" changes and
    /// Freshness on every card in play, and empty the pools. When no card was damaged or
    /// changed until end of turn, only the cards that entered play Fresh need a look.
    pub(crate) fn end_turn_changes(&mut self) {
        if !self.hooks.full_checks && self.cache.wounded.is_empty() && !self.cache.eot_touched {
            // nothing but Freshness to end: only the cards that entered play this turn
            for i in 0..self.cache.fresh_cards.len() {
                let c = self.cache.fresh_cards[i];
                if self.state.inst[c as usize].fresh {
                    self.ready_out(c);
                    self.state.inst[c as usize].fresh = false;
                    self.ready_in(c);
                }
            }
            for q in 0..self.state.n {
                self.state.players[q].pool = [0; 3];
            }
        } else {
            for q in 0..self.state.n {
                let (mut ready, mut able) = (0u64, 0u16);
                // the play list and the instances borrowed apart (as in Wake)
                let st = &mut self.state;
                for &c in &st.players[q].play {
                    let it = &mut st.inst[c as usize];
                    if it.eot_influence != 0 || it.eot_credibility != 0 {
                        self.cache.stat_memo[c as usize].set((0, 0, 0));
                    }
                    it.end_turn_state();
                    ready = ready.wrapping_add(Self::ready_word(it));
                    able += Self::able(it);
                }
                self.state.players[q].pool = [0; 3];
                self.cache.ready[q] = ready;
                self.cache.able[q] = able;
            }
        }
        self.cache.fresh_cards.clear();
        self.cache.wounded.clear();
        self.cache.eot_touched = false;
    }
}
