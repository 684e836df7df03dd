//! What a seat sees (E2): the public state (positions, stacks, Sun, pile, laurel sides, day,
//! rule, topic kind, phase, revealed votes, who was named) plus its own private view — its
//! perception of the question, its own vote, and as asker its candidates' estimates, the votes
//! Divination showed him and its view of the others' leanings (M2.3).
//!
//! Layout for n seats: 9 per seat, then 20 global, then n + 8 + 2 + n private values.

use super::params::{MAX_CAND, RULE_CORRUPTION, RULE_DIVINATION};
use super::stacks::{IN_PILE, NONE};
use super::state::{Phase, State};

pub const PER_SEAT: usize = 9;
pub const GLOBAL: usize = 20;

pub fn observation_len(n: usize) -> usize {
    PER_SEAT * n + GLOBAL + n + MAX_CAND + 2 + n
}

impl State {
    /// Is seat `j`'s vote visible to `seat` now?
    pub fn vote_visible(&self, seat: usize, j: usize) -> bool {
        if !self.voted {
            return false;
        }
        if self.revealed || j == seat {
            return true;
        }
        let a = self.asker as usize;
        // R9.2: the asker shows his vote; the named vote as he did (public)
        if self.rule == RULE_CORRUPTION && (j == a || self.named & (1 << j) != 0) {
            return true;
        }
        // R9.3: the named show their votes to the asker only
        self.rule == RULE_DIVINATION && seat == a && self.named & (1 << j) != 0
    }

    pub fn observe_into(&self, seat: usize, out: &mut [f32]) {
        let n = self.n as usize;
        out.fill(0.0);
        let t = self.prm.temple as f32;
        for j in 0..n {
            let o = &mut out[j * PER_SEAT..(j + 1) * PER_SEAT];
            let pos = self.path.pos[j];
            o[0] = pos as f32 / t;
            o[1] = (pos == IN_PILE) as i32 as f32;
            o[2] = (self.laurel & (1 << j) != 0) as i32 as f32;
            o[3] = (j == self.asker as usize) as i32 as f32;
            o[4] = (j == self.disciple as usize) as i32 as f32;
            let mut depth = 0;
            if pos != IN_PILE && pos < self.prm.temple {
                let mut s = self.path.top[pos as usize];
                while s != NONE && s as usize != j {
                    depth += 1;
                    s = self.path.under[s as usize];
                }
            }
            o[5] = depth as f32 / 12.0;
            o[6] = (self.stats.day_order[j] != NONE) as i32 as f32;
            if self.vote_visible(seat, j) {
                o[7] = if self.black & (1 << j) != 0 { 1.0 } else { -1.0 };
            }
            o[8] = (self.named & (1 << j) != 0) as i32 as f32;
        }
        let g = &mut out[n * PER_SEAT..n * PER_SEAT + GLOBAL];
        let days = self.setup.days as f32;
        g[0] = self.day as f32 / days;
        g[1] = self.days_left_after_today() as f32 / days;
        g[2] = self.path.sun as f32 / t;
        g[3] = self.free_topic as i32 as f32;
        g[4 + self.rule as usize] = 1.0;
        g[8 + self.phase as usize] = 1.0;
        g[16] = self.setup.k as f32 / (n - 1) as f32;
        g[17] = self.m as f32 / MAX_CAND as f32;
        g[18] = self.over as i32 as f32;
        g[19] = self.turns as f32 / 100.0;
        let p = &mut out[n * PER_SEAT + GLOBAL..];
        p[seat] = 1.0;
        let a = self.asker as usize;
        if seat == a && self.phase == Phase::ChooseQuestion {
            for i in 0..self.m as usize {
                p[n + i] = self.cand_hat[i] as f32;
            }
        }
        if self.phase != Phase::ChooseQuestion && self.phase != Phase::Over {
            p[n + MAX_CAND] = self.hat[seat] as f32;
        }
        if self.voted {
            p[n + MAX_CAND + 1] = if self.black & (1 << seat) != 0 { 1.0 } else { -1.0 };
        }
        if seat == a && self.prm.tau > 0.0 && self.phase != Phase::ChooseQuestion {
            for j in 0..n {
                p[n + MAX_CAND + 2 + j] = self.eta_hat[j] as f32;
            }
        }
    }
}
