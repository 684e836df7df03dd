//! M: the abstract voter model that replaces the social part (questions, opinions, perception)
//! and the M4 scoring probabilities the bots and the T13 check use. Everything here is a model
//! assumption, parameterised in `params.rs`.

use crate::rng::Rng;

/// Uniform in (0, 1).
#[inline]
pub fn uniform(rng: &mut Rng) -> f64 {
    ((rng.next_u64() >> 11) as f64 + 0.5) * (1.0 / (1u64 << 53) as f64)
}

/// Standard normal (Box–Muller, one value per call).
#[inline]
pub fn normal(rng: &mut Rng) -> f64 {
    let u = uniform(rng);
    let v = uniform(rng);
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

/// Gamma(a, 1) (Marsaglia–Tsang; a < 1 by the u^(1/a) boost).
pub fn gamma(a: f64, rng: &mut Rng) -> f64 {
    if a < 1.0 {
        let g = gamma(a + 1.0, rng);
        return g * uniform(rng).powf(1.0 / a);
    }
    let d = a - 1.0 / 3.0;
    let c = 1.0 / (9.0 * d).sqrt();
    loop {
        let x = normal(rng);
        let v = 1.0 + c * x;
        if v <= 0.0 {
            continue;
        }
        let v = v * v * v;
        let u = uniform(rng);
        if u < 1.0 - 0.0331 * x * x * x * x || u.ln() < 0.5 * x * x + d * (1.0 - v + v.ln()) {
            return d * v;
        }
    }
}

/// Beta(a, b).
pub fn beta(a: f64, b: f64, rng: &mut Rng) -> f64 {
    let x = gamma(a, rng);
    let y = gamma(b, rng);
    if x + y <= 0.0 {
        return 0.5;
    }
    x / (x + y)
}

#[inline]
pub fn logit(p: f64) -> f64 {
    (p / (1.0 - p)).ln()
}

#[inline]
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// M1.1: a question's black share, Beta(alpha, alpha) truncated to [p_min, 1 - p_min]
/// (rejection; after 1000 rejections the draw is clamped, only reachable with tiny alpha).
pub fn draw_question(alpha: f64, p_min: f64, rng: &mut Rng) -> f64 {
    for _ in 0..1000 {
        let p = beta(alpha, alpha, rng);
        if p >= p_min && p <= 1.0 - p_min {
            return p;
        }
    }
    beta(alpha, alpha, rng).clamp(p_min, 1.0 - p_min)
}

/// M3.1: a perception of p with logit noise sigma, kept inside (0, 1).
#[inline]
pub fn perceive(p: f64, sigma: f64, rng: &mut Rng) -> f64 {
    if sigma == 0.0 {
        return p;
    }
    sigmoid(logit(p.clamp(1e-9, 1.0 - 1e-9)) + sigma * normal(rng))
}

/// Scoring rule switches (R6.3, R6.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scoring {
    /// N = n - 1, the others.
    pub others: u8,
    pub half_is_success: bool,
    pub unanimity_fails: bool,
}

impl Scoring {
    /// R6.1–R6.4: is S (others voting like the asker) a success?
    #[inline]
    pub fn success(&self, s: u32) -> bool {
        let n = self.others as u32;
        let enough = if self.half_is_success { 2 * s >= n } else { 2 * s > n };
        enough && !(self.unanimity_fails && s == n)
    }
    /// The advance D = N - S on success, None on failure.
    #[inline]
    pub fn advance(&self, s: u32) -> Option<u32> {
        if self.success(s) {
            Some(self.others as u32 - s)
        } else {
            None
        }
    }
    /// R6.6: the largest possible advance.
    pub fn d_max(&self) -> u32 {
        (0..=self.others as u32).filter_map(|s| self.advance(s)).max().unwrap_or(0)
    }
}

/// The distribution of X ~ Bin(t, r) (kappa = 0) or Beta-binomial(t, kappa r, kappa (1-r))
/// (kappa > 0) into `out[0..=t]`. No allocation.
pub fn pmf(t: usize, r: f64, kappa: f64, out: &mut [f64; 13]) {
    if kappa > 0.0 {
        let a = (kappa * r).max(1e-9);
        let b = (kappa * (1.0 - r)).max(1e-9);
        let mut p0 = 1.0;
        for i in 0..t {
            p0 *= (b + i as f64) / (a + b + i as f64);
        }
        out[0] = p0;
        for x in 0..t {
            let xf = x as f64;
            out[x + 1] = out[x] * ((t - x) as f64 / (xf + 1.0)) * ((xf + a) / ((t - x - 1) as f64 + b));
        }
        return;
    }
    let q = 1.0 - r;
    // out[x] = C(t, x) r^x q^(t-x), by the ratio recurrence (guarding r = 0 and r = 1)
    if r <= 0.0 {
        out[..=t].fill(0.0);
        out[0] = 1.0;
        return;
    }
    if q <= 0.0 {
        out[..=t].fill(0.0);
        out[t] = 1.0;
        return;
    }
    out[0] = q.powi(t as i32);
    let ratio = r / q;
    for x in 0..t {
        out[x + 1] = out[x] * ((t - x) as f64 / (x + 1) as f64) * ratio;
    }
}

/// M4.1: success probability and expected advance for agreement probability r, S ~ Bin(N, r).
pub fn succ_and_adv(sc: &Scoring, r: f64) -> (f64, f64) {
    let n = sc.others as usize;
    let mut pm = [0.0; 13];
    pmf(n, r, 0.0, &mut pm);
    let mut ps = 0.0;
    let mut ea = 0.0;
    for (s, &p) in pm.iter().enumerate().take(n + 1) {
        if let Some(d) = sc.advance(s as u32) {
            ps += p;
            ea += p * d as f64;
        }
    }
    (ps, ea)
}

/// M4.2 Betrayal: expected advance when the asker may switch after the reveal, black share p.
pub fn betrayal_adv(sc: &Scoring, p: f64) -> f64 {
    let n = sc.others as usize;
    let mut pm = [0.0; 13];
    pmf(n, p, 0.0, &mut pm);
    let mut e = 0.0;
    for (b, &pb) in pm.iter().enumerate().take(n + 1) {
        let best = sc.advance(b as u32).unwrap_or(0).max(sc.advance((n - b) as u32).unwrap_or(0));
        e += pb * best as f64;
    }
    e
}

/// Standard normal CDF (Abramowitz–Stegun 7.1.26 erf, |error| < 1.5e-7).
pub fn phi(x: f64) -> f64 {
    let z = x.abs() / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.327_591_1 * z);
    let y = 1.0 - (((((1.061_405_429 * t - 1.453_152_027) * t) + 1.421_413_741) * t - 0.284_496_736) * t + 0.254_829_592) * t * (-z * z).exp();
    if x >= 0.0 {
        0.5 * (1.0 + y)
    } else {
        0.5 * (1.0 - y)
    }
}
