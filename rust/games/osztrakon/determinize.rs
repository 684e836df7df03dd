//! Re-deal what a seat cannot see (for search and re-dealt copies): the latent black shares,
//! the other seats' perceptions and leanings, the votes it has not seen, and the future chance
//! stream. What the seat sees (public state, its own estimates, its own and the visible votes)
//! stays, so its observation is unchanged.
//!
//! The latent p is drawn around the seat's own estimate with its read noise (a flat-prior
//! posterior on the logit scale, truncated to [p_min, 1 - p_min]); a seat that has no estimate
//! of a question (another asker's candidates) draws it from the prior M1.1.

use super::model::{draw_question, logit, normal, perceive, sigmoid, uniform};
use super::state::{Phase, State};
use crate::rng::Rng;

impl State {
    fn around(&self, hat: f64, sigma: f64, rng: &mut Rng) -> f64 {
        let pm = self.prm.p_min;
        if sigma == 0.0 {
            return hat;
        }
        let x = sigmoid(logit(hat.clamp(1e-9, 1.0 - 1e-9)) + sigma * normal(rng));
        x.clamp(pm, 1.0 - pm)
    }

    pub fn determinize_for(&mut self, seat: usize, rng: &mut Rng) {
        if self.over {
            self.rng = Rng::new(rng.next_u64());
            return;
        }
        let n = self.n as usize;
        let a = self.asker as usize;
        let sig = self.prm.read_noise[seat];
        if self.phase == Phase::ChooseQuestion {
            for i in 0..self.m as usize {
                if seat == a {
                    self.cand_p[i] = self.around(self.cand_hat[i], sig, rng);
                } else {
                    self.cand_p[i] = draw_question(self.prm.q_alpha, self.prm.p_min, rng);
                    self.cand_hat[i] = perceive(self.cand_p[i], self.prm.read_noise[a], rng);
                }
            }
        } else {
            let p = self.around(self.hat[seat], sig, rng);
            self.p = p;
            self.cand_p[self.q as usize] = p;
            for j in 0..n {
                if j != seat {
                    self.hat[j] = perceive(p, self.prm.read_noise[j], rng);
                }
            }
            if j_is_asker_hat(seat, a) {
                self.cand_hat[self.q as usize] = self.hat[a];
            }
            if self.prm.tau > 0.0 {
                let to = self.prm.tau_obs;
                for j in 0..n {
                    if j == a {
                        continue;
                    }
                    if seat == a {
                        // eta | eta_hat ~ N(eta_hat / (1 + to^2), to^2 / (1 + to^2))
                        let v = to * to / (1.0 + to * to);
                        self.eta[j] = self.eta_hat[j] / (1.0 + to * to) + v.sqrt() * normal(rng);
                    } else {
                        self.eta[j] = normal(rng);
                        self.eta_hat[j] = self.eta[j] + to * normal(rng);
                    }
                }
            }
            if self.voted {
                let lp = logit(p.clamp(1e-12, 1.0 - 1e-12));
                for j in 0..n {
                    if j == a || self.vote_visible(seat, j) {
                        continue;
                    }
                    let pj = if self.prm.tau > 0.0 { sigmoid(lp + self.prm.tau * self.eta[j]) } else { p };
                    if uniform(rng) < pj {
                        self.black |= 1 << j;
                    } else {
                        self.black &= !(1 << j);
                    }
                }
            }
        }
        self.rng = Rng::new(rng.next_u64());
    }
}

#[inline]
fn j_is_asker_hat(seat: usize, a: usize) -> bool {
    seat != a
}
