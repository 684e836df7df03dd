//! Influence and Credibility with every static bonus (Sympathy counters, Supermajority, Unity,
//! Joint Candidate, lords, Lone, Events), and the board conditions cards test.

use super::caches::StatCache;
use super::mode::Mode;
use super::state::{Cid, Game, GameData, Inst};
use super::trace::glog;
use crate::cards::{Condition, Static, Who};

impl GameData<'_> {
    /// Unity (cards.md §2): the Figures `p` controls show at least N different parties.
    pub fn unity(&self, p: usize) -> bool {
        self.board_count_with(p, |b| b.parties).count_ones() as i32 >= self.db.rules.unity_parties
    }

    pub fn institutions(&self, p: usize) -> i32 {
        self.board_count_with(p, |b| b.institutions) as i32
    }

    /// Supermajority (cards.md §2): 2 Institutions, 1 more while an opponent controls
    /// Szavazatszámláló delegáltak (not cumulative).
    pub fn supermajority(&self, p: usize) -> bool {
        let mut need = self.db.rules.supermajority_institutions;
        let mut inc = 0;
        for q in self.opponents(p) {
            for &c in &self.state.players[q].play {
                if !self.state.inst[c as usize].is(Inst::F_STATIC) {
                    continue;
                }
                for s in &self.def(c).statics {
                    if let Static::SupermajorityIncrease { n } = *s {
                        inc = inc.max(n as i32);
                    }
                }
            }
        }
        need += inc;
        self.institutions(p) >= need
    }

    /// Some opponent of `p` controls a card with Border Closure.
    pub fn border_closed_for(&self, p: usize) -> bool {
        self.opponents(p).any(|q| self.board_flags(q) & Inst::F_BORDER != 0)
    }

    pub fn condition(&self, p: usize, cond: Condition) -> bool {
        match cond {
            Condition::Always => true,
            Condition::Unity => self.unity(p),
            Condition::NotUnity => !self.unity(p),
            Condition::Supermajority => self.supermajority(p),
        }
    }

    /// Whether a StatBonus condition holds for `p`.
    fn stat_condition(&self, p: usize, cond: Condition, unity: &mut Option<bool>) -> bool {
        match cond {
            Condition::Always => true,
            Condition::Unity | Condition::NotUnity => {
                let u = *unity.get_or_insert_with(|| self.unity(p));
                u == (cond == Condition::Unity)
            }
            Condition::Supermajority => self.supermajority(p),
        }
    }

    /// `p`'s board-wide static bonuses, cached until what they depend on changes
    /// (`stat_gen[p]`).
    fn board_bonus(&self, p: usize) -> StatCache {
        let cached = self.cache.stat_cache[p].get();
        if cached.gen == self.cache.stat_gen[p] {
            return cached;
        }
        let mut out = StatCache { gen: self.cache.stat_gen[p], ..Default::default() };
        let mut unity: Option<bool> = None;
        for &s in &self.state.players[p].play {
            if !self.state.inst[s as usize].is(Inst::F_STATIC) {
                continue;
            }
            for st in &self.def(s).statics {
                if let Static::StatBonus { who, influence, credibility, cond } = *st {
                    if who == Who::This || !self.stat_condition(p, cond, &mut unity) {
                        continue;
                    }
                    let slot = if who == Who::All { &mut out.all } else { &mut out.others };
                    slot.0 += influence;
                    slot.1 += credibility;
                }
            }
        }
        out.unity = unity.unwrap_or_else(|| self.unity(p));
        self.cache.stat_cache[p].set(out);
        out
    }

    /// Static (+Influence, +Credibility) on Figure `c` from its controller's cards.
    fn static_bonus(&self, c: Cid) -> (i16, i16) {
        let p = self.controller(c);
        let b = self.board_bonus(p);
        let mut inf = b.all.0 + b.others.0;
        let mut cred = b.all.1 + b.others.1;
        let it = &self.state.inst[c as usize];
        if it.is(Inst::F_JOINT) && b.unity {
            let r = &self.db.rules;
            inf += r.joint_candidate_influence as i16;
            cred += r.joint_candidate_credibility as i16;
        }
        if it.is(Inst::F_STATIC) {
            // its own "this Figure" bonuses, and its "other Figures" bonuses don't count for it
            let mut unity = Some(b.unity);
            for st in &self.def(c).statics {
                if let Static::StatBonus { who, influence, credibility, cond } = *st {
                    if who == Who::All || !self.stat_condition(p, cond, &mut unity) {
                        continue;
                    }
                    let sign = if who == Who::This { 1 } else { -1 };
                    inf += sign * influence;
                    cred += sign * credibility;
                }
            }
        }
        (inf, cred)
    }

    fn attacking(&self, c: Cid) -> bool {
        self.state.campaign.active && self.state.campaign.attackers.iter().any(|a| a.0 == c)
    }

    /// Current Influence of a Figure in play.
    #[inline]
    pub fn influence(&self, c: Cid) -> i16 {
        self.stats(c).0
    }

    /// Current Credibility of a Figure in play.
    #[inline]
    pub fn credibility(&self, c: Cid) -> i16 {
        self.stats(c).1
    }

    /// (Influence, Credibility), memoised per card until anything they depend on changes: its
    /// controller's board, opponents and their Supermajority increases (`stat_gen`) for
    /// everyone; counters, pumps, attacking and the end of the turn invalidate the cards they
    /// touch. Scenario games (`full_checks`) always recompute, since
    /// tests edit counters by hand; debug builds verify every memoised value.
    pub(crate) fn stats(&self, c: Cid) -> (i16, i16) {
        if self.hooks.full_checks {
            return self.compute_stats(c);
        }
        // a card out of play has no controller: no key (u32::MAX is never handed out)
        let ctl = self.state.inst[c as usize].controller as usize;
        let key = self.cache.stat_gen.get(ctl).copied().unwrap_or(u32::MAX);
        let m = self.cache.stat_memo[c as usize].get();
        if m.0 == key {
            #[cfg(debug_assertions)]
            {
                let fresh = self.compute_stats(c);
                assert_eq!(fresh, (m.1, m.2), "stale memoised stats for {}", self.name(c));
            }
            return (m.1, m.2);
        }
        let v = self.compute_stats(c);
        self.cache.stat_memo[c as usize].set((key, v.0, v.1));
        v
    }

    fn compute_stats(&self, c: Cid) -> (i16, i16) {
        let i = &self.state.inst[c as usize];
        let r = &self.db.rules;
        let (bi, bc) = self.static_bonus(c);
        // in i32, clamped: extreme parameter values (99 counters a turn, 10 stats a counter)
        // must not wrap round
        let w = |x: i16| x as i32;
        let mut inf = w(i.base_influence) + w(i.counters) * r.counter_influence + w(i.eot_influence) + w(bi);
        let mut cred = w(i.base_credibility) + w(i.counters) * r.counter_credibility + w(i.eot_credibility) + w(bc);
        if self.attacking(c) {
            inf += w(self.state.round_mods.attacker_influence);
            cred += w(self.state.round_mods.attacker_credibility);
            if i.lone > 0 && self.state.campaign.attackers.len() == 1 {
                inf += w(i.lone);
            }
        }
        let clamp = |x: i32| x.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
        (clamp(inf), clamp(cred))
    }

    pub fn has_momentum(&self, c: Cid) -> bool {
        self.def(c).kw.momentum || self.state.inst[c as usize].eot_momentum
    }

    pub fn has_propaganda(&self, c: Cid) -> bool {
        let i = &self.state.inst[c as usize];
        i.is(Inst::F_PROPAGANDA) || i.eot_propaganda
    }

    /// Fresh and without Momentum (R6.6).
    pub fn summoning_sick(&self, c: Cid) -> bool {
        self.state.inst[c as usize].fresh && !self.has_momentum(c)
    }

    /// A Figure that is ready, not Fresh without Momentum, and not barred from attacking
    /// (the same test `Player::able` counts).
    pub fn can_attack(&self, c: Cid) -> bool {
        Self::able(&self.state.inst[c as usize]) != 0
    }

    /// Magyar Péter: can't be blocked while he has N or more counters.
    pub fn unblockable(&self, c: Cid) -> bool {
        let i = &self.state.inst[c as usize];
        let n = i.counters;
        i.is(Inst::F_STATIC) && self.def(c).statics.iter().any(|s| matches!(*s, Static::UnblockableWithCounters { n: k } if n >= k))
    }

    pub fn figures(&self, p: usize) -> impl Iterator<Item = Cid> + '_ {
        self.state.players[p].play.iter().copied().filter(move |&c| self.state.inst[c as usize].is(Inst::F_FIGURE))
    }

    pub fn figure_count(&self, p: usize) -> i32 {
        self.board_count_with(p, |b| b.figures) as i32
    }
}

impl<M: Mode> Game<'_, M> {
    /// Put `n` Sympathy counters on a Figure.
    pub fn add_counters(&mut self, c: Cid, n: i16) {
        if n > 0 && self.in_play(c) && self.ctype(c).is_figure() {
            let i = &mut self.state.inst[c as usize];
            i.counters = i.counters.saturating_add(n);
            self.forget_stats(c);
            glog!(self, "  {} gets {n} Sympathy counter(s) (now {})", self.name(c), self.state.inst[c as usize].counters);
        }
    }
}
