//! Every rule number (R2, R6, R7, R8, R9, R11) and every model assumption (M1–M6) and policy
//! default (M5, B1) as a named parameter. One declaration function both lists the registry and
//! reads resolved values, so names, defaults and the `Params` fields cannot drift apart.

use crate::harness::{GameParam, ParamKind};

/// Special-day rules (R9).
pub const RULE_NONE: u8 = 0;
pub const RULE_CORRUPTION: u8 = 1;
pub const RULE_DIVINATION: u8 = 2;
pub const RULE_BETRAYAL: u8 = 3;
pub const RULE_NAMES: [&str; 4] = ["none", "corruption", "divination", "betrayal"];

pub const LAYOUTS: &[&str] = &["none", "placeholder", "all_corruption", "all_divination", "all_betrayal"];
pub const OBJECTIVES: &[&str] = &["greedy", "safe", "race"];
pub const DISCIPLE_POLICIES: &[&str] = &["threshold", "never", "always"];
pub const TARGETS: &[&str] = &["random", "informed"];
pub const BELIEFS: &[&str] = &["plugin", "bayes"];

/// The largest number of candidate questions (M3.2).
pub const MAX_CAND: usize = 8;
/// The largest number of days a table may set (R2).
pub const MAX_DAYS: usize = 20;
pub const MAX_SEATS: usize = 12;
pub const MIN_SEATS: usize = 5;

const SEATS_NAMES: [&str; 8] = ["n5", "n6", "n7", "n8", "n9", "n10", "n11", "n12"];
const START_NAMES: [&str; 8] = ["rules.start.n5", "rules.start.n6", "rules.start.n7", "rules.start.n8", "rules.start.n9", "rules.start.n10", "rules.start.n11", "rules.start.n12"];
const DAYS_NAMES: [&str; 8] = ["rules.days.n5", "rules.days.n6", "rules.days.n7", "rules.days.n8", "rules.days.n9", "rules.days.n10", "rules.days.n11", "rules.days.n12"];
const K_NAMES: [&str; 8] = ["rules.k.n5", "rules.k.n6", "rules.k.n7", "rules.k.n8", "rules.k.n9", "rules.k.n10", "rules.k.n11", "rules.k.n12"];
const NOISE_NAMES: [&str; 12] = [
    "model.read_noise.s0",
    "model.read_noise.s1",
    "model.read_noise.s2",
    "model.read_noise.s3",
    "model.read_noise.s4",
    "model.read_noise.s5",
    "model.read_noise.s6",
    "model.read_noise.s7",
    "model.read_noise.s8",
    "model.read_noise.s9",
    "model.read_noise.s10",
    "model.read_noise.s11",
];

/// The printed R2 table: start position, days, special-day k for n = 5..12.
pub const PRINTED_START: [u8; 8] = [5, 5, 2, 2, 1, 1, 2, 2];
pub const PRINTED_DAYS: [u8; 8] = [6, 6, 5, 5, 4, 4, 3, 3];
pub const PRINTED_K: [u8; 8] = [1, 1, 2, 2, 2, 3, 3, 3];

/// Resolved parameter values in the form the engine uses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    pub start: [u8; 8],
    pub days: [u8; 8],
    pub k: [u8; 8],
    pub k_all: i8,
    pub temple: u8,
    pub half_is_success: bool,
    pub unanimity_fails: bool,
    pub disciple_cap_at_sun: bool,
    pub overwhelming_ends_game: bool,
    pub layout: u8,
    pub q_alpha: f64,
    pub p_min: f64,
    pub kappa: f64,
    pub tau: f64,
    pub tau_obs: f64,
    pub spoiler_rate: f64,
    pub read_noise: [f64; 12],
    pub m_fixed: u8,
    pub m_free: u8,
    pub free_topic_rate: f64,
    pub belief_bayes: bool,
    pub belief_kappa: f64,
    pub objective: u8,
    pub disciple: u8,
    pub disciple_theta: f64,
    pub corruption_targets: u8,
    pub divination_targets: u8,
}

struct Decl<'a> {
    list: Option<Vec<GameParam>>,
    values: Option<&'a [f64]>,
    i: usize,
}

impl Decl<'_> {
    // too_many_arguments: one registry row (name, kind, default, min, max, choices, description) per call
    #[allow(clippy::too_many_arguments)]
    fn add(&mut self, name: &'static str, kind: ParamKind, default: f64, min: f64, max: f64, choices: &'static [&'static str], description: &'static str) -> f64 {
        if let Some(l) = self.list.as_mut() {
            l.push(GameParam { name: name.into(), default, min, max, kind, choices: crate::harness::choices(choices), description: description.into() });
        }
        let v = self.values.map(|v| v[self.i]).unwrap_or(default);
        self.i += 1;
        v
    }
    fn int(&mut self, name: &'static str, default: i64, min: i64, max: i64, d: &'static str) -> i64 {
        self.add(name, ParamKind::Int, default as f64, min as f64, max as f64, &[], d) as i64
    }
    fn float(&mut self, name: &'static str, default: f64, min: f64, max: f64, d: &'static str) -> f64 {
        self.add(name, ParamKind::Float, default, min, max, &[], d)
    }
    fn bool(&mut self, name: &'static str, default: bool, d: &'static str) -> bool {
        self.add(name, ParamKind::Bool, default as i64 as f64, 0.0, 1.0, &[], d) != 0.0
    }
    fn choice(&mut self, name: &'static str, choices: &'static [&'static str], default: usize, d: &'static str) -> u8 {
        self.add(name, ParamKind::Choice, default as f64, 0.0, (choices.len() - 1) as f64, choices, d) as u8
    }
}

fn declare(d: &mut Decl) -> Params {
    let _ = SEATS_NAMES;
    let mut start = [0u8; 8];
    let mut days = [0u8; 8];
    let mut k = [0u8; 8];
    for i in 0..8 {
        start[i] = d.int(START_NAMES[i], PRINTED_START[i] as i64, 1, 16, "R2: the position of the philosopher deck and the Sun at setup for this player count") as u8;
    }
    for i in 0..8 {
        days[i] = d.int(DAYS_NAMES[i], PRINTED_DAYS[i] as i64, 1, MAX_DAYS as i64, "R2/R10.2: days (visible moon phases) for this player count") as u8;
    }
    for i in 0..8 {
        k[i] = d.int(K_NAMES[i], PRINTED_K[i] as i64, 0, 11, "R2/R9.2-R9.3: philosophers named on Corruption and Divination days (must be < n - 1)") as u8;
    }
    let k_all = d.int("rules.k_all", -1, -1, 11, "R2: one k for every player count (-1 = the per-count table rules.k.*)") as i8;
    let temple = d.int("rules.temple_position", 17, 2, 17, "R1.2.1: the temple's position (path = 1..temple-1); must exceed the start position") as u8;
    let half_is_success = d.bool("rules.half_is_success", true, "R6.4: an exact half of the others voting like the asker is a success");
    let unanimity_fails = d.bool("rules.unanimity_fails", true, "R6.3: all others voting like the asker is a failure (false: a success with advance 0)");
    let disciple_cap_at_sun = d.bool("rules.disciple_cap_at_sun", true, "R8.4: a disciple never moves past the Sun's position");
    let overwhelming_ends_game =
        d.bool("rules.overwhelming_ends_game", true, "R11.3/open 5: reaching the temple ends the game at once (false: the day is finished, the first to arrive wins)");
    let layout = d.choice("rules.special_layout", LAYOUTS, 0, "R9.5: special-day symbols on the path (the printed layout is unknown; placeholder is invented)");
    let q_alpha = d.float("model.q_alpha", 2.0, 0.05, 100.0, "M1.1: questions' black share p ~ Beta(q_alpha, q_alpha)");
    let p_min = d.float("model.p_min", 0.1, 0.0, 0.49, "M1.1: p truncated to [p_min, 1 - p_min] (R5.3 'not obvious')");
    let kappa = d.float("model.kappa", 0.0, 0.0, 1e6, "M2.2: common shock p' ~ Beta(kappa p, kappa (1-p)); 0 = off (the spec's kappa = inf)");
    let tau = d.float("model.tau", 0.0, 0.0, 5.0, "M2.3: individual leaning logit p_j = logit p + tau eta_j (0 = off)");
    let tau_obs = d.float("model.tau_obs", 0.5, 0.0, 5.0, "M2.3: noise of the asker's view of the others' leanings eta_j");
    let spoiler_rate = d.float("model.spoiler_rate", 0.0, 0.0, 1.0, "M2.4: chance a voter behind the asker (not the disciple) votes to minimise the asker's advance");
    let rn = d.float("model.read_noise", 0.5, 0.0, 5.0, "M3.1: every player's perception noise sigma on the logit scale (0 = perfect reader)");
    let mut read_noise = [rn; 12];
    for i in 0..12 {
        let v = d.float(NOISE_NAMES[i], -1.0, -1.0, 5.0, "M6: this seat's perception noise sigma (-1 = model.read_noise)");
        if v >= 0.0 {
            read_noise[i] = v;
        }
    }
    let m_fixed = d.int("model.m_fixed", 2, 1, MAX_CAND as i64, "M3.2: candidate questions on a fixed topic") as u8;
    let m_free = d.int("model.m_free", 4, 1, MAX_CAND as i64, "M3.2: candidate questions on a free topic (???)") as u8;
    let free_topic_rate = d.float("model.free_topic_rate", 1.0 / 6.0, 0.0, 1.0, "M3.3: chance a turn's topic is free");
    let belief_bayes = d.choice("model.belief", BELIEFS, 0, "M3.4: plugin p-hat, or a Beta(belief_kappa p-hat, belief_kappa (1-p-hat)) posterior") == 1;
    let belief_kappa = d.float("model.belief_kappa", 20.0, 0.1, 1e6, "M3.4/M5.4: concentration of the asker's belief (bayes; Divination update)");
    let objective = d.choice("policy.objective", OBJECTIVES, 0, "M5.1: the asker's objective for the b1 agent");
    let disciple = d.choice("policy.disciple", DISCIPLE_POLICIES, 0, "M5.2: when an eligible philosopher declares himself a disciple (b1 agent)");
    let disciple_theta = d.float("policy.disciple_theta", 1.0, 0.0, 20.0, "M5.2: disciple threshold theta (scaled by days left / (days - 1))");
    let corruption_targets = d.choice("policy.corruption_targets", TARGETS, 0, "M5.3: whom the asker names on a Corruption day");
    let divination_targets = d.choice("policy.divination_targets", TARGETS, 0, "M5.4: whom the asker names on a Divination day");
    Params {
        start,
        days,
        k,
        k_all,
        temple,
        half_is_success,
        unanimity_fails,
        disciple_cap_at_sun,
        overwhelming_ends_game,
        layout,
        q_alpha,
        p_min,
        kappa,
        tau,
        tau_obs,
        spoiler_rate,
        read_noise,
        m_fixed,
        m_free,
        free_topic_rate,
        belief_bayes,
        belief_kappa,
        objective,
        disciple,
        disciple_theta,
        corruption_targets,
        divination_targets,
    }
}

/// The registry (names, defaults, ranges, descriptions).
pub fn registry() -> Vec<GameParam> {
    let mut d = Decl { list: Some(Vec::with_capacity(64)), values: None, i: 0 };
    declare(&mut d);
    d.list.unwrap()
}

impl Params {
    /// Values resolved against `registry()` (one per entry, in order).
    pub fn from_values(values: &[f64]) -> Result<Params, String> {
        let n = registry_len();
        if values.len() != n {
            return Err(format!("osztrakon: expected {n} parameter values, got {}", values.len()));
        }
        let mut d = Decl { list: None, values: Some(values), i: 0 };
        Ok(declare(&mut d))
    }

    /// The defaults.
    pub fn defaults() -> Params {
        let mut d = Decl { list: None, values: None, i: 0 };
        declare(&mut d)
    }

    /// R2 for `n` seats: (start, days, k). Checks E4: k < n - 1, start < temple.
    pub fn table(&self, n: usize) -> Result<(u8, u8, u8), String> {
        if !(MIN_SEATS..=MAX_SEATS).contains(&n) {
            return Err(format!("osztrakon: players must be 5..12, got {n}"));
        }
        let i = n - MIN_SEATS;
        let k = if self.k_all >= 0 { self.k_all as u8 } else { self.k[i] };
        if k as usize >= n - 1 {
            return Err(format!("osztrakon: parameter '{}': k = {k} must be below n - 1 = {} for {n} players", if self.k_all >= 0 { "rules.k_all" } else { K_NAMES[i] }, n - 1));
        }
        if self.start[i] >= self.temple {
            return Err(format!("osztrakon: parameter '{}': start {} must be below rules.temple_position {}", START_NAMES[i], self.start[i], self.temple));
        }
        if self.p_min >= 0.5 {
            return Err("osztrakon: parameter 'model.p_min' must be below 0.5".into());
        }
        Ok((self.start[i], self.days[i], k))
    }
}

fn registry_len() -> usize {
    let mut d = Decl { list: None, values: None, i: 0 };
    declare(&mut d);
    d.i
}
