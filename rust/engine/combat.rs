//! The Campaign (R9): attackers with a target each (R9.2, R15.2), blocks with Propaganda
//! legality (R9.3, E46, E47), the Campaign window (R9.4) and simultaneous damage (R9.5, E48).

use super::decision::{DecisionKind, Opt};
use super::mode::Mode;
use super::seats::MAX_SEATS;
use super::state::{Cid, Game, GameData, Inst};
use super::trace::glog;
use crate::cards::Static;

impl GameData<'_> {
    pub fn can_start_campaign(&self, p: usize) -> bool {
        // scenario tests set readiness by hand: look at the board there
        self.state.players[p].campaigns < self.db.rules.campaigns_per_turn as u8
            && self.state.round_mods.max_attackers.is_none_or(|n| n > 0)
            && if self.hooks.full_checks { self.state.players[p].play.iter().any(|&c| self.can_attack(c)) } else { self.cache.able[p] > 0 }
            // a seat may have no one to attack (V4, `no_enemy_left = "none"`)
            && self.state.attack_targets(p).next().is_some()
    }

    /// Blockers a Propaganda attacker needs against `defender`.
    fn propaganda_need(&self, defender: usize) -> usize {
        let mut need = self.db.rules.propaganda_min_blockers;
        for &c in &self.state.players[defender].play {
            if !self.state.inst[c as usize].is(Inst::F_STATIC) {
                continue;
            }
            for s in &self.def(c).statics {
                if let Static::PropagandaBlockers { n } = *s {
                    need = need.min(n as i32);
                }
            }
        }
        need.max(1) as usize
    }

    /// Whether `d` may block attackers that attack `q`: its own (R9.3.1) and, in a team
    /// format with partner blocking, its partner's (E86).
    #[inline]
    fn defends(&self, d: usize, q: usize) -> bool {
        q == d || (self.db.rules.format.partner_blocking && self.state.is_ally(d, q))
    }

    fn solo_blocker(&self, c: Cid) -> bool {
        self.state.inst[c as usize].is(Inst::F_STATIC) && self.def(c).statics.iter().any(|s| matches!(s, Static::BlocksPropagandaAlone))
    }

    fn blockers_of(&self, a: Cid) -> (usize, bool) {
        let mut n = 0;
        let mut solo = false;
        for &(b, x) in &self.state.campaign.blocks {
            if x == a {
                n += 1;
                solo |= self.solo_blocker(b);
            }
        }
        (n, solo)
    }

    /// Forget the memoised stats of every current attacker.
    pub(crate) fn invalidate_attackers(&self) {
        for &(a, _) in &self.state.campaign.attackers {
            self.forget_stats(a);
        }
    }
}

impl<M: Mode> Game<'_, M> {
    /// Run the whole Campaign for the active player.
    pub fn campaign(&mut self) {
        let p = self.state.active;
        self.state.players[p].campaigns += 1;
        self.invalidate_attackers();
        self.state.campaign.active = true;
        self.state.campaign.attackers.clear();
        self.state.campaign.blocks.clear();
        self.state.campaign.blocked.clear();
        // Step 1: attackers (at least one, E44)
        // "at most N Figures may attack" (Veszélyhelyzet): N = 0 means none may
        let max = self.state.round_mods.max_attackers.map_or(usize::MAX, |n| n.max(0) as usize);
        // the Figures that can attack, in play order: declaring changes nothing else, so
        // the list only loses each declared attacker
        let mut able = std::mem::take(&mut self.scratch.cards);
        able.clear();
        able.extend(self.state.players[p].play.iter().copied().filter(|&c| self.can_attack(c)));
        // TF 169.2.13 (`format.one_opponent_per_campaign`): once the first attacker names its
        // opponent, every other attacker attacks that one
        let one = self.db.rules.format.one_opponent_per_campaign;
        loop {
            if self.state.campaign.attackers.len() >= max {
                break;
            }
            self.scratch.opts.clear();
            let only = if one { self.state.campaign.attackers.first().map(|x| x.1 as usize) } else { None };
            let g: &mut GameData = self; // the state and the option list borrowed apart
            for &c in &able {
                for q in g.state.attack_targets(p) {
                    if only.is_none_or(|o| o == q) {
                        g.scratch.opts.push(Opt::Attack(c, q as u8));
                    }
                }
            }
            if self.scratch.opts.is_empty() {
                break;
            }
            if !self.state.campaign.attackers.is_empty() {
                self.scratch.opts.push(Opt::Done);
            }
            match self.decide(p, DecisionKind::Attackers) {
                Opt::Attack(c, q) => {
                    if self.pact_holds(p, q as usize) {
                        self.break_pact(p, q as usize);
                    }
                    able.retain(|&x| x != c);
                    self.set_exhausted(c, true);
                    self.state.campaign.attackers.push((c, q));
                    // attacking changes the stats of the attackers only (Lone counts them all)
                    self.invalidate_attackers();
                    self.state.players[p].attacks += 1;
                    glog!(self, "  {} attacks P{q}", self.name(c));
                }
                _ => break,
            }
        }
        self.scratch.cards = able;
        // Step 2: blocks, attacked players in turn order after the active player (E46, E75)
        for d in self.state.seating.enemy_order(p) {
            if self.state.players[d].alive && self.state.campaign.attackers.iter().any(|a| self.defends(d, a.1 as usize)) {
                self.declare_blocks(d);
            }
        }
        let mut blocked = std::mem::take(&mut self.state.campaign.blocked);
        blocked.clear();
        blocked.extend(self.state.campaign.attackers.iter().map(|a| a.0).filter(|&a| self.state.campaign.blocks.iter().any(|b| b.1 == a)));
        self.state.campaign.blocked = blocked;
        // Step 3: Campaign window, led by the attacker
        self.window(p);
        if self.halted() {
            self.end_campaign();
            return;
        }
        // Step 4: damage
        self.combat_damage();
        self.end_campaign();
        self.state_check();
    }

    fn end_campaign(&mut self) {
        // attackers lose "while attacking" bonuses: recheck Credibility
        self.cache.damaged = true;
        self.invalidate_attackers();
        self.state.campaign.active = false;
        self.state.campaign.attackers.clear();
        self.state.campaign.blocks.clear();
        self.state.campaign.blocked.clear();
    }

    /// Defender `d` declares all blocks at once (legal declarations only).
    fn declare_blocks(&mut self, d: usize) {
        let need = self.propaganda_need(d);
        // ready Figures not blocking yet, in play order (each block removes its blocker)
        let mut free = std::mem::take(&mut self.scratch.cards);
        free.clear();
        free.extend(
            self.state.players[d]
                .play
                .iter()
                .copied()
                .filter(|&b| self.state.inst[b as usize].is(Inst::F_FIGURE) && !self.state.inst[b as usize].exhausted && !self.state.campaign.blocks.iter().any(|x| x.0 == b)),
        );
        loop {
            self.scratch.opts.clear();
            // an incomplete Propaganda block must be completed first
            let mut forced: Option<Cid> = None;
            for &(a, q) in &self.state.campaign.attackers {
                if self.defends(d, q as usize) && self.has_propaganda(a) {
                    let (n, solo) = self.blockers_of(a);
                    if n > 0 && n < need && !solo {
                        forced = Some(a);
                        break;
                    }
                }
            }
            let g: &mut GameData = self; // the state and the option list borrowed apart
            for &(a, q) in g.state.campaign.attackers.iter() {
                if !g.defends(d, q as usize) || g.unblockable(a) {
                    continue;
                }
                if let Some(f) = forced {
                    if a != f {
                        continue;
                    }
                }
                let prop = g.has_propaganda(a) && g.blockers_of(a).0 == 0;
                for &b in &free {
                    if prop && !g.solo_blocker(b) && free.len() < need {
                        continue;
                    }
                    g.scratch.opts.push(Opt::Block(b, a));
                }
            }
            if forced.is_none() {
                self.scratch.opts.push(Opt::Done);
            }
            if self.scratch.opts.is_empty() {
                // cannot happen: a forced block always has enough free blockers
                break;
            }
            match self.decide(d, DecisionKind::Blocks) {
                Opt::Block(b, a) => {
                    glog!(self, "  {} blocks {}", self.name(b), self.name(a));
                    self.state.campaign.blocks.push((b, a));
                    free.retain(|&x| x != b);
                }
                _ => break,
            }
        }
        self.scratch.cards = free;
    }

    /// R9.5.1: all combat damage at once.
    fn combat_damage(&mut self) {
        let p = self.state.active;
        let extra = self.state.round_mods.unblocked_extra_damage;
        let mut dmg_to_figs = std::mem::take(&mut self.scratch.damage);
        dmg_to_figs.clear();
        let mut dmg_to_players = [0i32; MAX_SEATS];
        let mut blockers = std::mem::take(&mut self.scratch.cards);
        for k in 0..self.state.campaign.attackers.len() {
            let (a, q) = self.state.campaign.attackers[k];
            if !self.in_play(a) || self.controller(a) != p || !self.state.players[q as usize].alive {
                continue;
            }
            let inf = self.influence(a).max(0);
            blockers.clear();
            blockers.extend(self.state.campaign.blocks.iter().filter(|b| b.1 == a).map(|b| b.0).filter(|&b| self.in_play(b) && self.defends(self.controller(b), q as usize)));
            for &b in &blockers {
                dmg_to_figs.push((a, self.influence(b).max(0)));
            }
            if self.state.campaign.blocked.contains(&a) {
                match blockers.len() {
                    0 => {}
                    1 => dmg_to_figs.push((blockers[0], inf)),
                    _ => {
                        // the attacker's controller divides its damage, one point at a time
                        // one entry per blocker (any number of blockers: a custom card set
                        // can field more than 32 Figures); allocated only for multi-blocks
                        let mut split = vec![0i16; blockers.len()];
                        for _ in 0..inf {
                            self.scratch.opts.clear();
                            for &b in &blockers {
                                self.scratch.opts.push(Opt::Card(b));
                            }
                            if let Opt::Card(b) = self.decide(p, DecisionKind::DivideDamage) {
                                // unwrap: the options offered were exactly Opt::Card(b) for b in blockers
                                let i = blockers.iter().position(|&x| x == b).unwrap();
                                split[i] = split[i].saturating_add(1);
                            }
                        }
                        for (i, &b) in blockers.iter().enumerate() {
                            dmg_to_figs.push((b, split[i]));
                        }
                    }
                }
            } else {
                dmg_to_players[q as usize] += inf as i32 + extra as i32;
            }
        }
        for &(c, n) in &dmg_to_figs {
            if n > 0 {
                glog!(self, "  {} takes {n} combat damage", self.name(c));
                self.damage_card(c, n);
            }
        }
        self.scratch.damage = dmg_to_figs;
        self.scratch.cards = blockers;
        for (q, &dmg) in dmg_to_players.iter().enumerate().take(self.state.n) {
            if dmg > 0 {
                glog!(self, "  P{q} takes {dmg} combat damage");
                self.lose_support(q, dmg, p as i32);
            }
        }
    }
}
