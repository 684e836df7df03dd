//! Scandal and Support (R10, R13.7): gaining and removing Scandal, the Scandal threshold,
//! every Exposé (basic and cards'), Outrage, Border Closure's cuts.

use super::decision::{DecisionKind, Opt};
use super::mode::Mode;
use super::state::{Game, Inst};
use super::trace::glog;
use crate::cards::Static;

impl<M: Mode> Game<'_, M> {
    /// `p` gains `n` Scandal (nothing stops a gain). Triggers Outrage of `p`'s opponents.
    pub fn gain_scandal(&mut self, p: usize, n: i32) {
        if n <= 0 || !self.state.players[p].alive {
            return;
        }
        self.state.add_scandal(p, n);
        glog!(self, "  P{p} gains {n} Scandal (now {})", self.state.scandal_pool_of(p));
        // Outrage: the first time in each turn that any of q's opponents gains Scandal, each
        // Outrage Figure q controls at that moment gets its counters (a Figure that enters
        // later in the turn waits for the next turn's first gain)
        let turn = self.state.turn;
        let k = self.db.rules.outrage_sympathy as i16;
        for q in 0..self.state.n {
            if !self.state.is_enemy(q, p) || !self.state.players[q].alive || self.state.players[q].outrage_turn == turn {
                continue;
            }
            self.state.players[q].outrage_turn = turn;
            for i in 0..self.state.players[q].play.len() {
                let c = self.state.players[q].play[i];
                if self.def(c).kw.outrage {
                    glog!(self, "  Outrage: {}", self.name(c));
                    self.add_counters(c, k);
                }
            }
        }
    }

    /// `p` removes up to `n` own Scandal (R10.5); Border Closure stops it.
    pub fn remove_scandal(&mut self, p: usize, n: i32) {
        if n <= 0 || self.border_closed_for(p) {
            return;
        }
        let s = (self.state.scandal_pool_of(p) - n).max(0);
        self.state.set_scandal(p, s);
        glog!(self, "  P{p} removes Scandal (now {})", self.state.scandal_pool_of(p));
    }

    /// `p` gains `n` Support; Border Closure stops it.
    pub fn gain_support(&mut self, p: usize, n: i32) {
        if n <= 0 || !self.state.players[p].alive || self.border_closed_for(p) {
            return;
        }
        self.state.add_support(p, n);
        glog!(self, "  P{p} gains {n} Support (now {})", self.state.support_of(p));
    }

    /// `p` loses `n` Support, credited to seat `by` (-1 = nobody) for Voter takeover.
    pub fn lose_support(&mut self, p: usize, n: i32, by: i32) {
        if n <= 0 || !self.state.players[p].alive {
            return;
        }
        self.state.add_support(p, -n);
        self.state.last_reducer[p] = by as i8;
        glog!(self, "  P{p} loses {n} Support (now {})", self.state.support_of(p));
    }

    /// The Scandal threshold in the Draw step (R10.2.1).
    pub fn scandal_threshold_check(&mut self, p: usize) {
        let r = &self.db.rules;
        if self.state.scandal_pool_of(p) >= r.scandal_threshold {
            let loss = r.scandal_threshold_loss;
            glog!(self, "  P{p} is at the Scandal threshold");
            self.lose_support(p, loss, -1);
        }
    }

    /// An Exposé by `performer` against `target` taking up to `n` (+ bonuses) Scandal
    /// (R10.3, R10.4, cards.md §2). `basic`: the basic Exposé (Stop Soros applies).
    pub fn expose(&mut self, performer: usize, target: usize, n: i32, basic: bool) {
        if !self.state.players[target].alive {
            return;
        }
        if self.pact_holds(performer, target) {
            self.break_pact(performer, target);
        }
        self.state.players[performer].exposes_total += 1;
        // Jakab Péter: an Exposé against a player other than his controller begins with +1 Scandal
        let mut extra = 0;
        for q in 0..self.state.n {
            if !self.state.players[q].alive || q == target {
                continue;
            }
            for &c in &self.state.players[q].play {
                if !self.state.inst[c as usize].is(Inst::F_STATIC) {
                    continue;
                }
                for s in &self.def(c).statics {
                    if let Static::ExposeStartsWithScandal { n } = *s {
                        extra = extra.max(n as i32);
                    }
                }
            }
        }
        if extra > 0 {
            self.gain_scandal(target, extra);
        }
        let mut max = n;
        if basic {
            max += self.state.round_mods.basic_expose_bonus as i32;
        }
        for &c in &self.state.players[performer].play {
            if !self.state.inst[c as usize].is(Inst::F_STATIC) {
                continue;
            }
            for s in &self.def(c).statics {
                if let Static::ExposeBonus { n, cond } = *s {
                    if self.condition(performer, cond) {
                        max += n as i32;
                    }
                }
            }
        }
        let can = max.min(self.state.scandal_pool_of(target)).max(0);
        let k = if can == 0 {
            0
        } else {
            self.scratch.opts.clear();
            for a in (0..=can).rev() {
                self.scratch.opts.push(Opt::Amount(a as u8));
            }
            match self.decide(performer, DecisionKind::ExposeAmount) {
                Opt::Amount(a) => a as i32,
                _ => can,
            }
        };
        glog!(self, "  P{performer} exposes P{target}: takes {k} Scandal");
        if k > 0 {
            self.state.add_scandal(target, -k);
            let loss = k * self.db.rules.expose_loss_per_token;
            self.lose_support(target, loss, performer as i32);
        }
    }
}
