//! Costs (R6): cost changes (E23) and paying them from the pool, Bases and resource
//! abilities (E22, E25). Payment is automatic: the payer uses the pool first, then Bases,
//! then resource abilities of Institutions and Figures, keeping flexible sources for last.

use super::state::{Cid, Game, Inst};
use crate::cards::{CardType, Cost, Static};

/// A cost change: increases add generic, reductions cut only generic and never below 0.
fn adjust(mut c: Cost, inc: i16, red: i16) -> Cost {
    c.generic = (c.generic + inc - red).max(0);
    c
}

impl Game<'_> {
    /// Cost to play card `c` from `p`'s hand (Defector, Alaptörvény, Pegasus-botrány).
    pub fn play_cost(&self, p: usize, c: Cid) -> Cost {
        let i = &self.inst[c as usize];
        let mut red = 0;
        let mut inc = 0;
        if i.defector > 0 && self.opponents(p).any(|q| self.institutions(q) > 0) {
            red += i.defector as i16;
        }
        if i.is(Inst::F_INSTITUTION) {
            red += self.round_mods.institution_cost_reduction;
        }
        if i.is(Inst::F_REACTION) {
            inc += self.round_mods.reaction_cost_increase;
        }
        adjust(i.cost, inc, red)
    }

    /// Cost to recruit a Newsfeed card (NOlimpia, Rekordinfláció, Alaptörvény).
    pub fn recruit_cost(&self, c: Cid) -> Cost {
        let d = self.def(c);
        let mut red = 0;
        let delta = self.round_mods.recruit_cost_delta;
        if d.ctype == CardType::Institution {
            red += self.round_mods.institution_cost_reduction;
        }
        if delta < 0 {
            red -= delta;
        }
        adjust(d.cost, delta.max(0), red)
    }

    /// Cost of `p`'s basic Exposé against `target` (R10.3.1, Médiatörvény, Közmédia).
    pub fn expose_cost(&self, target: usize) -> Cost {
        let mut inc = self.round_mods.expose_cost_increase;
        for &c in &self.players[target].play {
            if !self.inst[c as usize].is(Inst::F_STATIC) {
                continue;
            }
            for s in &self.def(c).statics {
                if let Static::ExposeTax { n } = *s {
                    inc += n;
                }
            }
        }
        adjust(self.db.rules.expose_cost, inc, 0)
    }

    pub fn swap_cost(&self) -> Cost {
        adjust(self.db.rules.swap_cost, self.round_mods.swap_cost_increase, 0)
    }

    /// Ready resource sources of `p`: (card, resource or None = any, units).
    fn source_usable(&self, c: Cid) -> Option<(Option<usize>, i16)> {
        let i = &self.inst[c as usize];
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
    pub fn available(&self, p: usize) -> ([i16; 3], i16) {
        let mut fixed = self.players[p].pool;
        let mut any = 0;
        for &c in &self.players[p].play {
            if let Some((r, n)) = self.source_usable(c) {
                match r {
                    Some(r) => fixed[r] += n,
                    None => any += n,
                }
            }
        }
        (fixed, any)
    }

    pub fn can_pay(&self, p: usize, cost: Cost) -> bool {
        if cost.total() == 0 {
            return true;
        }
        Self::can_pay_from(self.available(p), cost)
    }

    /// `can_pay` with the availability computed once by the caller.
    #[inline]
    pub fn can_pay_from(avail: ([i16; 3], i16), cost: Cost) -> bool {
        let (fixed, any) = avail;
        let mut deficit = 0;
        for r in 0..3 {
            deficit += (cost.pips[r] - fixed[r]).max(0);
        }
        if deficit > any {
            return false;
        }
        fixed.iter().sum::<i16>() + any >= cost.total()
    }

    /// Exhaust one source for `want` (a resource, or None for generic), adding its output to
    /// the pool. Bases first, then Institutions, then Figures; "any" sources last.
    /// `rest`: pip units of the cost still unpaid per resource (including the one wanted now).
    fn tap_for(&mut self, p: usize, want: Option<usize>, rest: [i16; 3]) -> bool {
        let mut best: Option<(Cid, u8)> = None;
        for &c in &self.players[p].play {
            if let Some((r, _)) = self.source_usable(c) {
                let it = &self.inst[c as usize];
                let rank = match (r, want) {
                    (Some(r), Some(w)) if r != w => continue,
                    (None, _) => 3,
                    _ if it.is(Inst::F_BASE) => 0,
                    _ if it.is(Inst::F_INSTITUTION) => 1,
                    _ => 2,
                };
                if best.is_none_or(|(_, b)| rank < b) {
                    best = Some((c, rank));
                }
            }
        }
        let Some((c, _)) = best else { return false };
        self.tap_card(p, c, want, rest);
        true
    }

    /// Exhaust source `c` for `want` (None: generic), adding its units to the pool.
    fn tap_card(&mut self, p: usize, c: Cid, want: Option<usize>, rest: [i16; 3]) {
        let (r, n) = self.source_usable(c).unwrap();
        self.inst[c as usize].exhausted = true;
        let res = r.or(want).unwrap_or_else(|| self.generic_choice(p));
        if r.is_none() && n > 1 {
            // "choose … for each" (Matolcsy György): one unit for `want`, then the cost's
            // unpaid pips, the rest for `want`
            let pool = &mut self.players[p].pool;
            pool[res] += 1;
            let mut left = n - 1;
            for q in 0..3 {
                let k = (rest[q] - pool[q]).max(0).min(left);
                pool[q] += k;
                left -= k;
            }
            pool[res] += left;
        } else {
            self.players[p].pool[res] += n;
        }
    }

    /// For "any" resources used for generic costs: the colour `p` has fewest sources of.
    fn generic_choice(&self, p: usize) -> usize {
        let (fixed, _) = self.available(p);
        (0..3).min_by_key(|&r| fixed[r]).unwrap()
    }

    /// Pay `cost` for `p` (the caller checked `can_pay`).
    pub fn pay(&mut self, p: usize, cost: Cost) {
        // coloured pips
        for r in 0..3 {
            let mut need = cost.pips[r];
            while need > 0 {
                if self.players[p].pool[r] > 0 {
                    let take = need.min(self.players[p].pool[r]);
                    self.players[p].pool[r] -= take;
                    need -= take;
                    continue;
                }
                let mut rest = cost.pips;
                rest[..r].fill(0);
                rest[r] = need;
                if !self.tap_for(p, Some(r), rest) {
                    debug_assert!(false, "cannot pay pip");
                    return;
                }
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
            let pool = self.players[p].pool;
            let r = (0..3).max_by_key(|&r| pool[r]).unwrap();
            if pool[r] > 0 {
                self.players[p].pool[r] -= 1;
                fixed[r] -= 1;
                need -= 1;
                continue;
            }
            let mut best: Option<(Cid, (u8, i16))> = None;
            for &c in &self.players[p].play {
                if let Some((r, _)) = self.source_usable(c) {
                    let it = &self.inst[c as usize];
                    let rank = match r {
                        None => 3,
                        Some(_) if it.is(Inst::F_BASE) => 0,
                        Some(_) if it.is(Inst::F_INSTITUTION) => 1,
                        Some(_) => 2,
                    };
                    let key = (rank, -r.map_or(0, |r| fixed[r]));
                    if best.is_none_or(|(_, b)| key < b) {
                        best = Some((c, key));
                    }
                }
            }
            let Some((c, _)) = best else {
                debug_assert!(false, "cannot pay generic");
                return;
            };
            let want = self.inst[c as usize].source;
            let want = if (0..3).contains(&want) { Some(want as usize) } else { None };
            // the chosen card is exactly the one `tap_for(want)` would pick; units of an "any"
            // source now sit in the pool and count as fixed
            let before = self.players[p].pool;
            let any = self.inst[c as usize].source == 3;
            self.tap_card(p, c, want, [0; 3]);
            if any {
                for r in 0..3 {
                    fixed[r] += self.players[p].pool[r] - before[r];
                }
            }
        }
    }
}
