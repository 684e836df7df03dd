//! Costs (R6): cost changes (E23) and paying them from the pool, Bases and resource
//! abilities (E22, E25). Payment is automatic: the payer uses the pool first, then Bases,
//! then resource abilities of Institutions and Figures, keeping flexible sources for last.

use super::mode::Mode;
use super::state::{Cid, Game, GameData, Inst};
use super::trace::glog;
use crate::cards::Cost;

/// A cost change: increases add generic, reductions cut only generic and never below 0.
fn adjust(mut c: Cost, inc: i16, red: i16) -> Cost {
    c.generic = (c.generic + inc - red).max(0);
    c
}

impl GameData<'_> {
    /// Cost to play card `c` from `p`'s hand (Defector, Alaptörvény, Pegasus-botrány).
    #[inline(always)]
    pub fn play_cost(&self, p: usize, c: Cid) -> Cost {
        let i = &self.state.inst[c as usize];
        let mut red = 0;
        let mut inc = 0;
        if i.defector > 0 && self.opponents(p).any(|q| self.board_count_with(q, |b| b.institutions) > 0) {
            red += i.defector as i16;
        }
        if i.is(Inst::F_INSTITUTION) {
            red += self.state.round_mods.institution_cost_reduction;
        }
        if i.is(Inst::F_REACTION) {
            inc += self.state.round_mods.reaction_cost_increase;
        }
        adjust(i.cost, inc, red)
    }

    /// Cost to recruit a Newsfeed card (NOlimpia, Rekordinfláció, Alaptörvény).
    #[inline]
    pub fn recruit_cost(&self, c: Cid) -> Cost {
        let i = &self.state.inst[c as usize];
        let delta = self.state.round_mods.recruit_cost_delta;
        let red = if i.is(Inst::F_INSTITUTION) { self.state.round_mods.institution_cost_reduction } else { 0 } - delta.min(0);
        adjust(i.cost, delta.max(0), red)
    }

    /// Cost of `p`'s basic Exposé against `target` (R10.3.1, Médiatörvény, Közmédia).
    pub fn expose_cost(&self, target: usize) -> Cost {
        let inc = self.state.round_mods.expose_cost_increase + self.board_count_with(target, |b| b.expose_tax);
        adjust(self.db.rules.expose_cost, inc, 0)
    }

    pub fn swap_cost(&self) -> Cost {
        adjust(self.db.rules.swap_cost, self.state.round_mods.swap_cost_increase, 0)
    }

    /// Card `c` as a ready resource source: (its resource or None = any, units).
    fn source_usable(&self, c: Cid) -> Option<(Option<usize>, i16)> {
        let i = &self.state.inst[c as usize];
        if i.exhausted || i.source < 0 {
            return None;
        }
        if i.is(Inst::F_FIGURE) && i.fresh && !i.is(Inst::F_MOMENTUM) && !i.eot_momentum {
            return None;
        }
        let r = if i.source == 3 { None } else { Some(i.source as usize) };
        Some((r, i.source_units as i16))
    }

    /// Units available: per resource (pool + fixed sources) and "any" units.
    #[inline(always)]
    pub fn available(&self, p: usize) -> ([i16; 3], i16) {
        let pl = &self.state.players[p];
        // scenario tests set readiness by hand: count afresh there
        let acc = if self.hooks.full_checks { self.count_ready(p) } else { self.cache.ready[p] };
        let lane = |k: u32| (acc >> (16 * k)) as u16 as i16;
        ([pl.pool[0] + lane(0), pl.pool[1] + lane(1), pl.pool[2] + lane(2)], lane(3))
    }

    /// Every unit `p` could pay with now (the sum of `available`): its pool and the four
    /// lanes of its ready units, summed into the top lane by one multiplication.
    #[inline(always)]
    pub fn units(&self, p: usize) -> i32 {
        let pool = self.state.players[p].pool;
        let acc = if self.hooks.full_checks { self.count_ready(p) } else { self.cache.ready[p] };
        (acc.wrapping_mul(0x0001_0001_0001_0001) >> 48) as i32 + pool[0] as i32 + pool[1] as i32 + pool[2] as i32
    }

    /// The ready units of `p`'s sources counted afresh (see `Player::ready`): one
    /// branch-free pass, each card adding its ready units to the lane of its resource (a
    /// card without a source has 0 units, so its masked lane gets nothing).
    pub fn count_ready(&self, p: usize) -> u64 {
        let mut acc: u64 = 0;
        for &c in &self.state.players[p].play {
            acc = acc.wrapping_add(Self::ready_word(&self.state.inst[c as usize]));
        }
        acc
    }

    /// The Figures of `p` that could attack now, counted afresh (see `Player::able`).
    pub fn count_able(&self, p: usize) -> u16 {
        self.state.players[p].play.iter().map(|&c| Self::able(&self.state.inst[c as usize])).sum()
    }

    #[inline(always)]
    pub(crate) fn ready_word(i: &Inst) -> u64 {
        (Self::ready_units(i) as u64) << ((i.source as u8 & 3) * 16)
    }

    /// 1 if the card (in play) is a Figure that could attack now (`Game::can_attack`).
    #[inline(always)]
    pub(crate) fn able(i: &Inst) -> u16 {
        ((i.flags & (Inst::F_FIGURE | Inst::F_CANT_ATTACK) == Inst::F_FIGURE) & Self::source_ready(i)) as u16
    }

    /// The card's source could be exhausted now (ignoring whether it has one).
    #[inline(always)]
    fn source_ready(i: &Inst) -> bool {
        let sick = (i.flags & (Inst::F_FIGURE | Inst::F_MOMENTUM) == Inst::F_FIGURE) & i.fresh & !i.eot_momentum;
        !(i.exhausted | sick)
    }

    /// Units source `i` gives if exhausted now (0 if it has no source or can't be used).
    #[inline(always)]
    fn ready_units(i: &Inst) -> i16 {
        i.source_units.max(0) as i16 * Self::source_ready(i) as i16
    }

    pub fn can_pay(&self, p: usize, cost: Cost) -> bool {
        if cost.total() == 0 {
            return true;
        }
        Self::can_pay_from(self.available(p), cost)
    }

    /// `can_pay` with the availability computed once by the caller.
    #[inline(always)]
    pub fn can_pay_from(avail: ([i16; 3], i16), cost: Cost) -> bool {
        let (fixed, any) = avail;
        let mut deficit = 0;
        for (&need, &have) in cost.pips.iter().zip(&fixed) {
            deficit += (need - have).max(0);
        }
        // `&`: no early exit, so no hard-to-predict branch
        (deficit <= any) & (fixed[0] + fixed[1] + fixed[2] + any >= cost.total())
    }

    /// For "any" resources used for generic costs: the colour `p` has fewest sources of.
    fn generic_choice(&self, p: usize) -> usize {
        let (fixed, _) = self.available(p);
        // unwrap: the range 0..3 is not empty
        (0..3).min_by_key(|&r| fixed[r]).unwrap()
    }
}

impl<M: Mode> Game<'_, M> {
    /// Exhaust source `c` for `want` (None: generic), adding its units to the pool.
    fn tap_card(&mut self, p: usize, c: Cid, want: Option<usize>, rest: [i16; 3]) {
        // unwrap: pay_from taps only sources listed as ready (source >= 0, source_ready), exactly
        // what source_usable accepts; each is tapped once (marked USED)
        let (r, n) = self.source_usable(c).unwrap();
        self.set_exhausted(c, true);
        glog!(self, "  {} is exhausted for resources", self.name(c));
        let res = r.or(want).unwrap_or_else(|| self.generic_choice(p));
        if r.is_none() && n > 1 {
            // "choose … for each" (Matolcsy György): one unit for `want`, then the cost's
            // unpaid pips, the rest for `want`
            let pool = &mut self.state.players[p].pool;
            pool[res] += 1;
            let mut left = n - 1;
            for q in 0..3 {
                let k = (rest[q] - pool[q]).max(0).min(left);
                pool[q] += k;
                left -= k;
            }
            pool[res] += left;
        } else {
            self.state.players[p].pool[res] += n;
        }
    }

    /// Pay `cost` for `p` (the caller checked `can_pay`).
    ///
    /// The ready sources are listed once, in play order, with their rank (Base 0,
    /// Institution 1, Figure 2, "any" source 3); each unit then exhausts the first source of
    /// the lowest rank that fits, so the choice is the same as scanning the board each time.
    pub fn pay(&mut self, p: usize, cost: Cost) {
        if cost.pips == [0; 3] && cost.generic <= 0 {
            return;
        }
        glog!(self, "  P{p} pays {}", cost.braces());
        let n = self.state.players[p].play.len();
        if n <= 64 && !self.hooks.scan_payment {
            // the ready sources as bit sets over the play list (bit `k`: `play[k]`), by
            // resource (3: any) and by rank (an "any" source, and only one, has rank 3)
            let (mut res, mut rank) = ([0u64; 4], [0u64; 4]);
            for (k, &c) in self.state.players[p].play.iter().enumerate() {
                let i = &self.state.inst[c as usize];
                let b = (((i.source >= 0) & GameData::source_ready(i)) as u64) << k;
                res[i.source as usize & 3] |= b;
                rank[i.src_rank as usize & 3] |= b;
            }
            self.pay_from_sets(p, cost, res, rank);
            return;
        }
        let mut src = std::mem::take(&mut self.scratch.sources);
        src.clear();
        src.reserve(n);
        for &c in &self.state.players[p].play {
            let i = &self.state.inst[c as usize];
            // branch-free: write, then keep only a ready source
            let keep = (i.source >= 0) & GameData::source_ready(i);
            super::turn::push_if(&mut src, (c, i.source as u8, i.src_rank), keep);
        }
        self.pay_from(p, cost, &mut src);
        self.scratch.sources = src;
    }

    /// `pay_from` for a board of at most 64 cards, its ready sources held as bit sets over
    /// the play list (bit `k`: `play[k]`; paying changes no play list), by resource (`res`,
    /// 3: any) and by rank: each choice is a few mask operations instead of a scan, and picks
    /// the same source (the first in play order among the best).
    fn pay_from_sets(&mut self, p: usize, cost: Cost, res: [u64; 4], rank: [u64; 4]) {
        // the sources not yet exhausted
        let mut left = res[0] | res[1] | res[2] | res[3];
        // coloured pips: the pool, then the first source of the lowest rank that gives the
        // colour or any
        for r in 0..3 {
            let mut need = cost.pips[r];
            while need > 0 {
                let in_pool = self.state.players[p].pool[r];
                if in_pool > 0 {
                    let take = need.min(in_pool);
                    self.state.players[p].pool[r] -= take;
                    need -= take;
                    continue;
                }
                let fits = (res[r] | res[3]) & left;
                let Some(k) = rank.iter().map(|&m| m & fits).find(|&m| m != 0).map(|m| m.trailing_zeros() as usize) else {
                    debug_assert!(false, "cannot pay pip");
                    return;
                };
                left &= !(1u64 << k);
                let mut rest = cost.pips;
                rest[..r].fill(0);
                rest[r] = need;
                let c = self.state.players[p].play[k];
                self.tap_card(p, c, Some(r), rest);
            }
        }
        // generic: pool first (colour with the most units), then Bases before Institutions
        // before Figures (a Figure tapped for mana can't block), among those the colour with
        // the most sources left, then "any" sources
        let mut need = cost.generic;
        if need <= 0 {
            return;
        }
        // `fixed` = pool + ready single-resource sources, kept up to date as we go
        let (mut fixed, _) = self.available(p);
        while need > 0 {
            let pool = self.state.players[p].pool;
            // unwrap: the range 0..3 is not empty
            let r = (0..3).max_by_key(|&r| pool[r]).unwrap();
            if pool[r] > 0 {
                self.state.players[p].pool[r] -= 1;
                fixed[r] -= 1;
                need -= 1;
                continue;
            }
            // the lowest rank with a source left; in it, the sources of the resource (or
            // resources, tied) with the most fixed units
            let mut pick = 0u64;
            if let Some(m) = rank[..3].iter().map(|&m| m & left).find(|&m| m != 0) {
                let mut most = i16::MIN;
                for s in 0..3 {
                    let g = m & res[s];
                    if g != 0 {
                        if fixed[s] > most {
                            most = fixed[s];
                            pick = g;
                        } else if fixed[s] == most {
                            pick |= g;
                        }
                    }
                }
            } else {
                pick = rank[3] & left;
            }
            if pick == 0 {
                debug_assert!(false, "cannot pay generic");
                return;
            }
            let k = pick.trailing_zeros() as usize;
            left &= !(1u64 << k);
            let c = self.state.players[p].play[k];
            let s = self.state.inst[c as usize].source as u8;
            let want = if s < 3 { Some(s as usize) } else { None };
            // units of an "any" source now sit in the pool and count as fixed
            let before = self.state.players[p].pool;
            self.tap_card(p, c, want, [0; 3]);
            if s == 3 {
                for r in 0..3 {
                    fixed[r] += self.state.players[p].pool[r] - before[r];
                }
            }
        }
    }

    fn pay_from(&mut self, p: usize, cost: Cost, src: &mut [(Cid, u8, u8)]) {
        const USED: u8 = u8::MAX;
        // coloured pips
        for r in 0..3 {
            let mut need = cost.pips[r];
            while need > 0 {
                let in_pool = self.state.players[p].pool[r];
                if in_pool > 0 {
                    let take = need.min(in_pool);
                    self.state.players[p].pool[r] -= take;
                    need -= take;
                    continue;
                }
                let mut rest = cost.pips;
                rest[..r].fill(0);
                rest[r] = need;
                let mut best = usize::MAX;
                let mut best_rank = USED;
                for (k, &(_, s, rank)) in src.iter().enumerate() {
                    if rank < best_rank && (s == 3 || s as usize == r) {
                        best = k;
                        best_rank = rank;
                    }
                }
                if best == usize::MAX {
                    debug_assert!(false, "cannot pay pip");
                    return;
                }
                src[best].2 = USED;
                self.tap_card(p, src[best].0, Some(r), rest);
            }
        }
        // generic: pool first (colour with the most units), then Bases before Institutions
        // before Figures (a Figure tapped for mana can't block), among those the colour with
        // the most sources left
        let mut need = cost.generic;
        if need <= 0 {
            return;
        }
        // `fixed` = pool + ready single-resource sources, kept up to date as we go
        let (mut fixed, _) = self.available(p);
        while need > 0 {
            let pool = self.state.players[p].pool;
            // unwrap: the range 0..3 is not empty
            let r = (0..3).max_by_key(|&r| pool[r]).unwrap();
            if pool[r] > 0 {
                self.state.players[p].pool[r] -= 1;
                fixed[r] -= 1;
                need -= 1;
                continue;
            }
            let mut best = usize::MAX;
            let mut best_key = (USED, 0i16);
            for (k, &(_, s, rank)) in src.iter().enumerate() {
                if rank == USED {
                    continue;
                }
                let key = (rank, if s == 3 { 0 } else { -fixed[s as usize] });
                if key < best_key {
                    best = k;
                    best_key = key;
                }
            }
            if best == usize::MAX {
                debug_assert!(false, "cannot pay generic");
                return;
            }
            src[best].2 = USED;
            let (c, s, _) = src[best];
            let want = if s < 3 { Some(s as usize) } else { None };
            // units of an "any" source now sit in the pool and count as fixed
            let before = self.state.players[p].pool;
            self.tap_card(p, c, want, [0; 3]);
            if s == 3 {
                for r in 0..3 {
                    fixed[r] += self.state.players[p].pool[r] - before[r];
                }
            }
        }
    }
}
