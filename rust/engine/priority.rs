//! Timing (R8): playing cards from hand, the chain (E36), priority windows (E37, E38) and
//! automatic passing (E43).

use super::decision::{DecisionKind, Opt};
use super::mode::Mode;
use super::seats::{Seats, MAX_SEATS};
use super::state::{ChainItem, Cid, Game, GameData, Inst, Tgt, Zone};
use super::trace::glog;
use crate::cards::formats::Priority;
use crate::cards::{TargetKind, Trigger};

impl<M: Mode> Game<'_, M> {
    /// Card `c` in `p`'s hand can be played now (`in_window`: only Reactions).
    pub fn can_play_from_hand(&self, p: usize, c: Cid, in_window: bool) -> bool {
        self.can_play_from_hand_with(p, c, in_window, self.available(p))
    }

    /// `can_play_from_hand` with `p`'s available resources computed once by the caller.
    /// Branch-light: the common checks are combined with `&`, only the rare extra
    /// conditions (Sacrifice to cast, a required target) branch.
    #[inline(always)]
    pub fn can_play_from_hand_with(&self, p: usize, c: Cid, in_window: bool, avail: ([i16; 3], i16)) -> bool {
        let it = &self.state.inst[c as usize];
        // Bases are played as Bases; Events and tokens are never in hand
        let kind = (it.flags & (Inst::F_FIGURE | Inst::F_INSTITUTION | Inst::F_ACTION) != 0) & !it.is(Inst::F_BASE) & (!in_window | it.is(Inst::F_REACTION));
        let ok = kind & GameData::can_pay_from(avail, self.play_cost(p, c));
        if ok & (it.flags & (Inst::F_SACRIFICE_CAST | Inst::F_NEEDS_TARGET) != 0) {
            return self.can_play_extra(p, c);
        }
        ok
    }

    /// The rare extra conditions of playing `c`: a Figure to Sacrifice, a legal target.
    #[inline(never)]
    pub(crate) fn can_play_extra(&self, p: usize, c: Cid) -> bool {
        let it = &self.state.inst[c as usize];
        if it.is(Inst::F_SACRIFICE_CAST) && self.figure_count(p) == 0 {
            return false;
        }
        if it.is(Inst::F_NEEDS_TARGET) {
            for ab in self.def(c).abilities.iter().filter(|a| a.trigger == Trigger::Resolve) {
                if !matches!(ab.target, TargetKind::None | TargetKind::OtherFigureOptional | TargetKind::InstitutionOptional) && !self.has_target(p, ab.target, c) {
                    return false;
                }
            }
        }
        true
    }

    /// Play card `c` from `p`'s hand: announce (targets, additional costs), pay, then a
    /// permanent enters play at once and an Action goes on the chain (E22, E36).
    pub fn play_card(&mut self, p: usize, c: Cid) {
        let d = self.def(c);
        self.take_from_hand(p, c);
        self.state.players[p].cards_played += 1;
        self.record_play(p, c);
        glog!(self, "P{p} plays {}", d.name);
        if d.ctype.is_action() {
            let cost = self.play_cost(p, c);
            self.cast_action(p, c, cost);
        } else {
            let cost = self.play_cost(p, c);
            self.pay(p, cost);
            self.enter_play(c, p);
            self.state_check();
        }
    }

    /// Announce Action card `c` for `p` at `cost` (out of its zone already): targets, pay,
    /// additional costs, then onto the chain (E22, E36). A recruited Newsfeed Action is cast
    /// this way too (E61).
    pub(crate) fn cast_action(&mut self, p: usize, c: Cid, cost: crate::cards::Cost) {
        let d = self.def(c);
        {
            let mut targets = [Tgt::None; 4];
            for (i, ab) in d.abilities.iter().filter(|a| a.trigger == Trigger::Resolve).enumerate().take(4) {
                targets[i] = self.choose_target(p, ab.target, c).unwrap_or(Tgt::None);
            }
            self.pay(p, cost);
            if d.sacrifice_to_cast {
                self.scratch.opts.clear();
                for f in self.figures(p).collect::<smallvec_like::Buf>().iter() {
                    self.scratch.opts.push(Opt::Card(*f));
                }
                if let Opt::Card(f) = self.decide(p, DecisionKind::Sacrifice) {
                    glog!(self, "  P{p} sacrifices {}", self.name(f));
                    self.leave_play(f, false);
                    self.state_check();
                }
            }
            self.state.inst[c as usize].zone = Zone::Chain;
            self.state.inst[c as usize].controller = p as i8;
            self.state.chain.push(ChainItem { card: c, controller: p as u8, targets });
        }
    }

    /// Resolve the top card of the chain (R8.2, R13.3.1 fizzling, R10.1.1 Scandal N).
    pub fn resolve_top(&mut self) {
        let Some(it) = self.state.chain.pop() else { return };
        let c = it.card;
        let p = it.controller as usize;
        let d = self.def(c);
        let mut targeted = 0;
        let mut gone = 0;
        for (i, ab) in d.abilities.iter().filter(|a| a.trigger == Trigger::Resolve).enumerate().take(4) {
            if it.targets[i] != Tgt::None {
                targeted += 1;
                if !self.target_valid(ab.target, it.targets[i]) {
                    gone += 1;
                }
            }
        }
        if targeted > 0 && gone == targeted {
            glog!(self, "  {} does nothing: its targets are gone", d.name);
        } else if self.state.players[p].alive {
            glog!(self, "  {} resolves", d.name);
            if d.kw.scandal > 0 {
                self.gain_scandal(p, d.kw.scandal as i32);
            }
            for (i, ab) in d.abilities.iter().filter(|a| a.trigger == Trigger::Resolve).enumerate() {
                if self.state.outcome.is_some() {
                    break;
                }
                let t = if i < 4 { it.targets[i] } else { Tgt::None };
                self.do_effect(p, c, ab, t);
            }
        }
        if self.state.inst[c as usize].zone == Zone::Chain {
            self.to_graveyard(c);
        }
        self.state_check();
    }

    /// `p` holds a Reaction it might afford and target, or controls a card with an ability
    /// usable at any time: the cheap test before anything is listed (most seats in most
    /// windows fail it).
    #[inline(always)]
    fn may_respond(&self, p: usize) -> (bool, bool) {
        (self.reaction_in_reach(p), self.board_flags(p) & Inst::F_INSTANT != 0)
    }

    /// `p` holds a Reaction that it might play now: one it may play with the chain as it is
    /// (an empty chain offers no Action to target) whose cost's lower bound
    /// (`Caches::reaction_floor`) its units reach. A Reaction failing this is not playable
    /// (`can_play_from_hand_with`: its cost, its targets).
    #[inline(always)]
    fn reaction_in_reach(&self, p: usize) -> bool {
        if self.cache.reactions[p] == 0 {
            return false;
        }
        let floor = self.cache.reaction_floor[p][!self.state.chain.is_empty() as usize];
        // a Reaction cost lowered this round: the floor does not hold
        if self.state.round_mods.reaction_cost_increase < 0 {
            return true;
        }
        self.units(p) >= floor as i32
    }

    /// Fill `opts` with `p`'s responses in a window; false if only passing is possible.
    fn respond_options(&mut self, p: usize) -> bool {
        let (has_reaction, has_instant) = self.may_respond(p);
        if !has_reaction && !has_instant {
            return false;
        }
        let mut found: smallvec_like::Buf = Default::default();
        let avail = if has_reaction { self.available(p) } else { ([0; 3], 0) };
        if has_reaction {
            for i in 0..self.state.players[p].hand.len() {
                let c = self.state.players[p].hand[i];
                if !self.state.inst[c as usize].is(Inst::F_REACTION) {
                    continue;
                }
                let dup = found.iter().any(|&x| self.state.inst[x as usize].def == self.state.inst[c as usize].def);
                if !dup && self.can_play_from_hand_with(p, c, true, avail) {
                    found.push(c);
                }
            }
        }
        let mut acts: [(Cid, u8); 8] = [(0, 0); 8];
        let mut na = 0;
        if has_instant {
            for i in 0..self.state.players[p].play.len() {
                let c = self.state.players[p].play[i];
                if !self.state.inst[c as usize].is(Inst::F_INSTANT) {
                    continue;
                }
                let nab = self.def(c).abilities.len();
                for a in 0..nab {
                    if self.def(c).abilities[a].any_time && na < 8 && self.can_activate(c, a, true) {
                        acts[na] = (c, a as u8);
                        na += 1;
                    }
                }
            }
        }
        if found.is_empty() && na == 0 {
            return false;
        }
        self.scratch.opts.clear();
        self.scratch.opts.push(Opt::Pass);
        for &c in found.iter() {
            self.scratch.opts.push(Opt::Play(c));
        }
        for &(c, a) in &acts[..na] {
            self.scratch.opts.push(Opt::Activate(c, a));
        }
        true
    }

    /// A priority window led by `lead` (E37): priority goes round in turn order; when every
    /// player has passed in succession the top of the chain resolves, or the window closes.
    ///
    /// With nothing on the chain and no seat in the game able to respond (`may_respond`),
    /// every seat would pass without being asked (R8.8) and the window close at once, in
    /// either priority format: that common case is this inlined test, not a call.
    #[inline(always)]
    pub fn window(&mut self, lead: usize) {
        if self.state.chain.is_empty() && !self.someone_may_respond() {
            return;
        }
        self.open_window(lead);
    }

    /// Some seat in the game may respond (`may_respond`).
    #[inline(never)]
    fn someone_may_respond(&self) -> bool {
        for q in 0..self.state.n {
            if self.state.players[q].alive && (self.reaction_in_reach(q) || self.board_flags(q) & Inst::F_INSTANT != 0) {
                return true;
            }
        }
        false
    }

    /// `window` when a seat may respond or the chain holds something.
    #[inline(never)]
    fn open_window(&mut self, lead: usize) {
        if self.db.rules.format.priority == Priority::Team {
            return self.window_team();
        }
        loop {
            let mut passes = 0;
            let mut p = lead;
            let mut guard = 0;
            let mut alive = self.alive_count();
            while passes < alive {
                if self.halted() {
                    return;
                }
                guard += 1;
                if guard > 200 {
                    break;
                }
                if self.state.players[p].alive {
                    if self.respond_options(p) {
                        match self.decide(p, DecisionKind::Respond) {
                            Opt::Play(c) => {
                                self.play_card(p, c);
                                passes = 0;
                                alive = self.alive_count();
                            }
                            Opt::Activate(c, a) => {
                                self.activate(c, a as usize);
                                passes = 0;
                                alive = self.alive_count();
                            }
                            _ => passes += 1,
                        }
                        self.count_action();
                    } else {
                        passes += 1;
                    }
                }
                p = if p + 1 == self.state.n { 0 } else { p + 1 };
            }
            if self.state.chain.is_empty() || self.halted() {
                return;
            }
            self.resolve_top();
        }
    }
}

impl<M: Mode> Game<'_, M> {
    /// `p` answers one priority decision: plays a Reaction or uses an ability (true), or
    /// passes (false, also when it has nothing to play: R8.8).
    fn respond_once(&mut self, p: usize) -> bool {
        if !self.state.players[p].alive || !self.respond_options(p) {
            return false;
        }
        let acted = match self.decide(p, DecisionKind::Respond) {
            Opt::Play(c) => {
                self.play_card(p, c);
                true
            }
            Opt::Activate(c, a) => {
                self.activate(c, a as usize);
                true
            }
            _ => false,
        };
        self.count_action();
        acted
    }

    /// The teams still in the game in priority order: the active player's team first, then
    /// each other team in the turn order of its first member after the active player. A
    /// team is a seat with its allies (a seat alone in a format without teams).
    fn priority_teams(&self) -> ([Seats; MAX_SEATS], usize) {
        let a = self.state.active;
        let n = self.state.n;
        let alive = self.state.alive_seats();
        let mut teams = [Seats::EMPTY; MAX_SEATS];
        let mut k = 0;
        let mut covered = Seats::EMPTY;
        for q in alive.with(a).after(if a == 0 { n - 1 } else { a - 1 }, n) {
            if covered.contains(q) {
                continue;
            }
            let t = Seats((self.state.seating.allies(q).0 | Seats::one(q).0) & (alive.0 | Seats::one(a).0));
            covered = Seats(covered.0 | t.0);
            teams[k] = t;
            k += 1;
        }
        (teams, k)
    }

    /// A priority window with `format.priority = "team"` (TF 169.2.11–12): priority passes
    /// between teams, not players. The active player leads every window and cannot hand the
    /// lead to the partner: it plays or passes alone, then the next team has priority. A team
    /// with priority names one member to act, asked in turn order from the active player
    /// (the first who plays acts for the team), or passes when every member passes; after a
    /// play priority goes to the next team. When every team has passed in succession the
    /// top of the chain resolves and the active player leads again, or the window closes.
    /// The lead's own pass is not its team's pass: its partner may still act once the other
    /// team has had priority.
    pub fn window_team(&mut self) {
        let a = self.state.active;
        loop {
            if self.halted() {
                return;
            }
            let mut guard = 0;
            // the lead: the active player alone
            self.respond_once(a);
            let mut holder = 1usize;
            let mut passes = 0usize;
            loop {
                if self.halted() {
                    return;
                }
                guard += 1;
                if guard > 400 {
                    break;
                }
                let (teams, k) = self.priority_teams();
                if passes >= k {
                    break;
                }
                let team = teams[holder % k];
                let mut acted = false;
                for q in team.after(if a == 0 { self.state.n - 1 } else { a - 1 }, self.state.n) {
                    if self.respond_once(q) {
                        acted = true;
                        break;
                    }
                    if self.halted() {
                        return;
                    }
                }
                passes = if acted { 0 } else { passes + 1 };
                holder = holder % k + 1;
            }
            if self.state.chain.is_empty() || self.halted() {
                return;
            }
            self.resolve_top();
        }
    }
}

/// A tiny fixed-capacity buffer to avoid allocating in the hot loop.
pub mod smallvec_like {
    use crate::engine::state::Cid;
    #[derive(Default)]
    pub struct Buf {
        n: usize,
        v: [Cid; 32],
    }
    impl Buf {
        pub fn push(&mut self, c: Cid) {
            if self.n < 32 {
                self.v[self.n] = c;
                self.n += 1;
            }
        }
        pub fn iter(&self) -> std::slice::Iter<'_, Cid> {
            self.v[..self.n].iter()
        }
        pub fn is_empty(&self) -> bool {
            self.n == 0
        }
        pub fn len(&self) -> usize {
            self.n
        }
    }
    impl FromIterator<Cid> for Buf {
        fn from_iter<I: IntoIterator<Item = Cid>>(it: I) -> Self {
            let mut b = Buf::default();
            for c in it {
                b.push(c);
            }
            b
        }
    }
}
