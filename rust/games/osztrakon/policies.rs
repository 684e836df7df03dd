//! B1 / M5 policies as harness agents. An agent reads only what its seat sees: the public
//! state, its own estimates (`hat[seat]`, as asker `cand_hat`, `eta_hat`), and the votes
//! `vote_visible` allows.
//!
//! Names: `random` (uniform legal action), or `<objective>[+<disciple>]` with objective `b1`
//! (the game's `policy.objective`), `greedy`, `safe` or `race` (M5.1) and disciple policy
//! `threshold`, `never` or `always` (M5.2; default the game's `policy.disciple`). Targets on
//! Corruption and Divination days (M5.3, M5.4), `policy.disciple_theta` and the belief (M3.4)
//! come from the game's parameters.
//!
//! The asker evaluates each candidate question by the expected utility of S (others voting
//! like him) under his belief b (plug-in p-hat, or Beta-binomial with `model.belief_kappa`):
//! none-day: max over colours; Corruption: S = k + Bin(N - k); Divination: he sees k votes
//! first and then picks the colour (pre-posterior value); Betrayal: he picks after the reveal
//! (M5.5). Utility: greedy = advance (M4.1 E_adv), safe = success, race = an estimated win
//! probability of the resulting position (normal approximation of every philosopher's final
//! position from the per-turn advance of a greedy asker at r = 0.62; documented in
//! docs/osztrakon.md — not a value function fitted by simulation).

use super::actions::*;
use super::model::{logit, phi, pmf, sigmoid};
use super::params::{RULE_BETRAYAL, RULE_CORRUPTION, RULE_DIVINATION};
use super::stacks::IN_PILE;
use super::state::{Phase, State};
use crate::harness::Agent;
use crate::rng::Rng;

pub const AGENT_NAMES: &[&str] = &["random", "b1", "greedy", "safe", "race", "greedy+never", "greedy+always", "greedy+threshold"];

const OBJ_GREEDY: u8 = 0;
const OBJ_SAFE: u8 = 1;
const OBJ_RACE: u8 = 2;
const DIS_THRESHOLD: u8 = 0;
const DIS_NEVER: u8 = 1;
const DIS_ALWAYS: u8 = 2;

/// A B1 policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OszAgent {
    pub random: bool,
    /// None = the game's `policy.objective`.
    pub objective: Option<u8>,
    /// None = the game's `policy.disciple`.
    pub disciple: Option<u8>,
}

/// The agent named `name` (see the module docs); an unknown name is an error naming it.
pub fn agent(name: &str) -> Result<OszAgent, String> {
    let bad = || format!("osztrakon: unknown agent '{name}' (use random, or b1|greedy|safe|race optionally +threshold|never|always)");
    if name == "random" {
        return Ok(OszAgent { random: true, objective: None, disciple: None });
    }
    let mut parts = name.split('+');
    let objective = match parts.next().unwrap_or("") {
        "b1" => None,
        "greedy" => Some(OBJ_GREEDY),
        "safe" => Some(OBJ_SAFE),
        "race" => Some(OBJ_RACE),
        _ => return Err(bad()),
    };
    let disciple = match parts.next() {
        None => None,
        Some("threshold") => Some(DIS_THRESHOLD),
        Some("never") => Some(DIS_NEVER),
        Some("always") => Some(DIS_ALWAYS),
        Some(_) => return Err(bad()),
    };
    if parts.next().is_some() {
        return Err(bad());
    }
    Ok(OszAgent { random: false, objective, disciple })
}

impl Agent<State> for OszAgent {
    fn act(&mut self, s: &State, legal: &[u32], rng: &mut Rng) -> u32 {
        if self.random {
            return legal[rng.below(legal.len())];
        }
        let obj = self.objective.unwrap_or(s.prm.objective);
        match s.phase {
            Phase::ChooseQuestion => {
                let u = utility(s, obj);
                let mut best = 0;
                let mut bv = f64::NEG_INFINITY;
                for i in 0..s.m as usize {
                    let (v, _) = candidate_value(s, s.cand_hat[i], &u);
                    if v > bv + 1e-12 {
                        bv = v;
                        best = i;
                    }
                }
                A_CAND0 + best as u32
            }
            Phase::Disciple => {
                let seat = s.elig[s.elig_i as usize] as usize;
                let pol = self.disciple.unwrap_or(s.prm.disciple);
                let yes = match pol {
                    DIS_NEVER => false,
                    DIS_ALWAYS => true,
                    _ => disciple_gain(s, seat) >= disciple_threshold(s),
                };
                if yes {
                    A_DECLARE
                } else {
                    A_PASS
                }
            }
            Phase::Vote => {
                let u = utility(s, obj);
                let (_, black) = candidate_value(s, s.hat[s.asker as usize], &u);
                if black {
                    A_BLACK
                } else {
                    A_WHITE
                }
            }
            Phase::CorruptName | Phase::DivName => {
                let informed = if s.phase == Phase::CorruptName { s.prm.corruption_targets == 1 } else { s.prm.divination_targets == 1 };
                if !informed || s.prm.tau == 0.0 {
                    return legal[rng.below(legal.len())];
                }
                // the asker's estimate of each legal other's chance to vote like him
                let b = s.hat[s.asker as usize];
                let bc = if s.asker_black { b } else { 1.0 - b };
                let shrink = 1.0 / (1.0 + s.prm.tau_obs * s.prm.tau_obs);
                let mut best = legal[0];
                let mut bv = f64::INFINITY;
                for &a in legal {
                    let j = (a - A_NAME0) as usize;
                    let lean = if s.asker_black { s.eta_hat[j] } else { -s.eta_hat[j] };
                    let r = sigmoid(logit(bc.clamp(1e-9, 1.0 - 1e-9)) + s.prm.tau * lean * shrink);
                    // Corruption: force the least likely to agree; Divination: see the least predictable
                    let key = if s.phase == Phase::CorruptName { r } else { (r - 0.5).abs() };
                    if key < bv {
                        bv = key;
                        best = a;
                    }
                }
                best
            }
            Phase::DivChange => {
                let u = utility(s, obj);
                let n = s.sc.others as usize;
                let a = s.asker as usize;
                let k = s.named_count as usize;
                let bk = (s.black & s.named).count_ones() as usize;
                let b = s.hat[a];
                let (b2, kap) = belief_after(s, b, bk, k);
                let t = n - k;
                let mut pm = [0.0; 13];
                pmf(t, b2, kap, &mut pm);
                let (mut vb, mut vw) = (0.0, 0.0);
                for x in 0..=t {
                    vb += pm[x] * u[bk + x];
                    vw += pm[x] * u[(k - bk) + (t - x)];
                }
                let keep = if s.asker_black { vb >= vw } else { vw >= vb };
                if keep {
                    A_KEEP
                } else {
                    A_SWITCH
                }
            }
            Phase::BetrayChange => {
                let u = utility(s, obj);
                let n = s.sc.others as usize;
                let others = s.others_mask();
                let bl = (s.black & others).count_ones() as usize;
                let (cur, other) = if s.asker_black { (bl, n - bl) } else { (n - bl, bl) };
                if u[cur] >= u[other] {
                    A_KEEP
                } else {
                    A_SWITCH
                }
            }
            Phase::Over => legal[0],
        }
    }
}

/// The asker's belief after seeing `bk` black of `k` named votes (M5.4): the Beta posterior
/// mean with `belief = bayes`, else unchanged; and the concentration for the predictive.
fn belief_after(s: &State, b: f64, bk: usize, k: usize) -> (f64, f64) {
    if s.prm.belief_bayes {
        let kap = s.prm.belief_kappa;
        let a = kap * b + bk as f64;
        let bb = kap * (1.0 - b) + (k - bk) as f64;
        (a / (a + bb), a + bb)
    } else {
        (b, 0.0)
    }
}

/// Utility u[S] of the asker's outcome for every S = 0..N under objective `obj`.
pub fn utility(s: &State, obj: u8) -> [f64; 13] {
    let n = s.sc.others as usize;
    let mut u = [0.0; 13];
    match obj {
        OBJ_SAFE => {
            for (x, v) in u.iter_mut().enumerate().take(n + 1) {
                *v = s.sc.success(x as u32) as i32 as f64;
            }
        }
        OBJ_RACE => {
            let from = s.path.sun;
            let fail = race_value(s, from);
            for (x, v) in u.iter_mut().enumerate().take(n + 1) {
                *v = match s.sc.advance(x as u32) {
                    Some(d) => race_value(s, from.saturating_add(d as u8)),
                    None => fail,
                };
            }
        }
        _ => {
            for (x, v) in u.iter_mut().enumerate().take(n + 1) {
                *v = s.sc.advance(x as u32).unwrap_or(0) as f64;
            }
        }
    }
    u
}

/// `race`: estimated probability that the asker, now at position `at`, wins.
fn race_value(s: &State, at: u8) -> f64 {
    let t = s.prm.temple;
    if at >= t {
        return 1.0;
    }
    let n = s.n as usize;
    let a = s.asker as usize;
    let (mu, var) = per_turn(s);
    let left = s.days_left_after_today() as f64;
    let m_me = (at as f64 + left * mu).min(t as f64);
    let v_me = left * var;
    let mut p = 1.0;
    for j in 0..n {
        if j == a {
            continue;
        }
        let mut pos = s.path.pos[j];
        if pos == IN_PILE {
            pos = s.path.sun;
        }
        if pos >= t {
            return 0.0;
        }
        let tj = left + (s.stats.day_order[j] == super::stacks::NONE) as i32 as f64;
        let m_j = (pos as f64 + tj * mu).min(t as f64);
        let v = v_me + tj * var;
        let diff = m_me - m_j + 0.25;
        p *= if v <= 1e-9 {
            if diff > 0.0 {
                1.0
            } else {
                0.0
            }
        } else {
            phi(diff / v.sqrt())
        };
    }
    p
}

/// Mean and variance of one turn's advance of a greedy asker at agreement probability 0.62.
fn per_turn(s: &State) -> (f64, f64) {
    let n = s.sc.others as usize;
    let mut pm = [0.0; 13];
    pmf(n, 0.62, 0.0, &mut pm);
    let (mut m, mut m2) = (0.0, 0.0);
    for (x, &px) in pm.iter().enumerate().take(n + 1) {
        let d = s.sc.advance(x as u32).unwrap_or(0) as f64;
        m += px * d;
        m2 += px * d * d;
    }
    (m, (m2 - m * m).max(0.0))
}

/// Value of a question with belief b (chance a non-asker votes black) under the day's rule,
/// and the colour to vote first (true = black).
pub fn candidate_value(s: &State, b: f64, u: &[f64; 13]) -> (f64, bool) {
    let n = s.sc.others as usize;
    let k = s.setup.k as usize;
    let kap = if s.prm.belief_bayes { s.prm.belief_kappa } else { 0.0 };
    let mut pm = [0.0; 13];
    match s.rule {
        RULE_CORRUPTION if k > 0 => {
            let t = n - k;
            let mut best = (f64::NEG_INFINITY, true);
            for black in [true, false] {
                let r = if black { b } else { 1.0 - b };
                pmf(t, r, kap, &mut pm);
                let v: f64 = (0..=t).map(|x| pm[x] * u[k + x]).sum();
                if v > best.0 {
                    best = (v, black);
                }
            }
            best
        }
        RULE_DIVINATION if k > 0 => {
            let t = n - k;
            let mut pk = [0.0; 13];
            pmf(k, b, kap, &mut pk);
            let mut total = 0.0;
            for bk in 0..=k {
                let (b2, kap2) = belief_after(s, b, bk, k);
                pmf(t, b2, kap2, &mut pm);
                let (mut vb, mut vw) = (0.0, 0.0);
                for x in 0..=t {
                    vb += pm[x] * u[bk + x];
                    vw += pm[x] * u[(k - bk) + (t - x)];
                }
                total += pk[bk] * vb.max(vw);
            }
            (total, b >= 0.5)
        }
        RULE_BETRAYAL => {
            pmf(n, b, kap, &mut pm);
            let v: f64 = (0..=n).map(|x| pm[x] * u[x].max(u[n - x])).sum();
            (v, b >= 0.5)
        }
        _ => {
            let mut best = (f64::NEG_INFINITY, true);
            for black in [true, false] {
                let r = if black { b } else { 1.0 - b };
                pmf(n, r, kap, &mut pm);
                let v: f64 = (0..=n).map(|x| pm[x] * u[x]).sum();
                if v > best.0 {
                    best = (v, black);
                }
            }
            best
        }
    }
}

/// M5.2: seat's expected disciple gain under its own beliefs.
pub fn disciple_gain(s: &State, seat: usize) -> f64 {
    let n = s.sc.others as usize;
    let h = s.hat[seat];
    let r = h.max(1.0 - h);
    let cap = if s.prm.disciple_cap_at_sun { (s.path.sun - s.path.pos[seat]) as u32 } else { u32::MAX };
    let mut pm = [0.0; 13];
    pmf(n, r, 0.0, &mut pm);
    (0..=n).filter_map(|x| s.sc.advance(x as u32).map(|d| pm[x] * d.min(cap) as f64)).sum()
}

/// M5.2: theta(d) = disciple_theta × days left after this one / (days − 1).
pub fn disciple_threshold(s: &State) -> f64 {
    let days = s.setup.days as f64;
    if days <= 1.0 {
        return 0.0;
    }
    s.prm.disciple_theta * s.days_left_after_today() as f64 / (days - 1.0)
}
