//! R5: a turn, as the state machine behind `apply` — question (R5.3), disciple window (R5.4),
//! votes (R5.5), the special-day steps (R5.6, R5.8), reveal (R5.7), then scoring (R6),
//! movement (R7), the disciple's move (R8.4), the temple check (R11.3) and the next asker
//! (R4.3) or the end of the day (R10).

use super::actions::*;
use super::day::end_of_day;
use super::disciples::{eligible, move_disciple};
use super::model::{draw_question, logit, normal, perceive, sigmoid, uniform, Scoring};
use super::movement::move_asker;
use super::order::next_asker;
use super::params::{Params, RULE_BETRAYAL, RULE_CORRUPTION, RULE_DIVINATION, RULE_NONE};
use super::scoring::agreeing;
use super::setup::{deal, setup_for, Setup};
use super::stacks::{Path, IN_PILE, NONE};
use super::state::{Phase, State, Stats, TurnRow};
use crate::rng::Rng;

impl State {
    /// A fresh game: R2 deal with `shuffle`, chance from `chance`.
    pub fn new(prm: Params, n: usize, shuffle: &mut Rng, chance: Rng) -> Result<State, String> {
        let setup = setup_for(&prm, n)?;
        let (path, order) = deal(n, setup.start, shuffle);
        let mut s = State::blank(prm, n, setup, path, chance);
        for (i, &seat) in order[..n].iter().enumerate() {
            s.stats.start_order[seat as usize] = i as u8;
        }
        s.start_turn();
        Ok(s)
    }

    /// A game from a given layout (scenario scaffolding for tests and the study): `stacks` are
    /// (position, seats top first); `day`, `rule` and `laurel` as given; the Sun at `sun`.
    /// The turn of the top of the Sun's stack starts.
    // too_many_arguments: every part of a table layout a test or study sets up, named
    #[allow(clippy::too_many_arguments)]
    pub fn from_layout(prm: Params, n: usize, stacks: &[(u8, &[u8])], sun: u8, day: u8, rule: u8, laurel: u16, chance: Rng) -> Result<State, String> {
        let setup = setup_for(&prm, n)?;
        let mut path = Path::new(&[], sun);
        let mut seen = 0u16;
        for &(pos, seats) in stacks {
            if pos == 0 || pos >= prm.temple {
                return Err(format!("osztrakon: position {pos} is not on the path"));
            }
            for &seat in seats.iter().rev() {
                if seat as usize >= n || seen & (1 << seat) != 0 {
                    return Err(format!("osztrakon: seat {seat} is out of range or placed twice"));
                }
                seen |= 1 << seat;
                path.push(seat, pos);
            }
        }
        if seen.count_ones() as usize != n {
            return Err("osztrakon: every seat must be placed".into());
        }
        if path.top[sun as usize] == NONE {
            return Err(format!("osztrakon: no stack at the Sun's position {sun}"));
        }
        let mut s = State::blank(prm, n, setup, path, chance);
        s.day = day;
        s.rule = rule;
        s.laurel = laurel & s.seats_mask();
        s.start_turn();
        Ok(s)
    }

    fn blank(prm: Params, n: usize, setup: Setup, path: Path, chance: Rng) -> State {
        State {
            prm,
            sc: Scoring { others: (n - 1) as u8, half_is_success: prm.half_is_success, unanimity_fails: prm.unanimity_fails },
            n: n as u8,
            setup,
            path,
            laurel: ((1u32 << n) - 1) as u16,
            day: 1,
            rule: RULE_NONE,
            phase: Phase::ChooseQuestion,
            asker: NONE,
            disciple: NONE,
            free_topic: false,
            m: 0,
            cand_p: [0.5; 8],
            cand_hat: [0.5; 8],
            q: 0,
            p: 0.5,
            hat: [0.5; 12],
            eta: [0.0; 12],
            eta_hat: [0.0; 12],
            elig: [NONE; 12],
            elig_len: 0,
            elig_i: 0,
            black: 0,
            voted: false,
            asker_black: false,
            named: 0,
            named_count: 0,
            revealed: false,
            spoilers: 0,
            turns: 0,
            over: false,
            winner: NONE,
            overwhelming: false,
            overwhelming_day: 0,
            temple_first: NONE,
            forced_votes: None,
            rng: chance,
            stats: Stats::default(),
            log: None,
        }
    }

    /// R5.1–R5.3: the top of the Sun's stack asks; topic and candidate questions are drawn.
    pub(super) fn start_turn(&mut self) {
        let a = self.path.top[self.path.sun as usize];
        self.asker = a;
        self.disciple = NONE;
        self.named = 0;
        self.named_count = 0;
        self.revealed = false;
        self.voted = false;
        self.black = 0;
        self.spoilers = 0;
        self.elig_len = 0;
        self.elig_i = 0;
        let st = &mut self.stats;
        st.day_order[a as usize] = st.asked_today;
        st.asked_today += 1;
        self.free_topic = uniform(&mut self.rng) < self.prm.free_topic_rate;
        self.m = if self.free_topic { self.prm.m_free } else { self.prm.m_fixed };
        let sig = self.prm.read_noise[a as usize];
        for i in 0..self.m as usize {
            let p = draw_question(self.prm.q_alpha, self.prm.p_min, &mut self.rng);
            self.cand_p[i] = p;
            self.cand_hat[i] = perceive(p, sig, &mut self.rng);
        }
        self.phase = Phase::ChooseQuestion;
    }

    /// The seat that decides now.
    pub fn decider(&self) -> Option<usize> {
        match self.phase {
            Phase::Over => None,
            Phase::Disciple => Some(self.elig[self.elig_i as usize] as usize),
            _ => Some(self.asker as usize),
        }
    }

    /// Legal actions of the decider.
    pub fn legal_into(&self, out: &mut Vec<u32>) {
        out.clear();
        match self.phase {
            Phase::Over => {}
            Phase::ChooseQuestion => out.extend((0..self.m as u32).map(|i| A_CAND0 + i)),
            Phase::Disciple => out.extend_from_slice(&[A_DECLARE, A_PASS]),
            Phase::Vote => out.extend_from_slice(&[A_BLACK, A_WHITE]),
            Phase::CorruptName | Phase::DivName => {
                for j in 0..self.n {
                    if j != self.asker && self.named & (1 << j) == 0 {
                        out.push(A_NAME0 + j as u32);
                    }
                }
            }
            Phase::DivChange | Phase::BetrayChange => out.extend_from_slice(&[A_KEEP, A_SWITCH]),
        }
    }

    fn is_legal(&self, a: u32) -> bool {
        match self.phase {
            Phase::Over => false,
            Phase::ChooseQuestion => a < self.m as u32,
            Phase::Disciple => a == A_DECLARE || a == A_PASS,
            Phase::Vote => a == A_BLACK || a == A_WHITE,
            Phase::CorruptName | Phase::DivName => {
                (A_NAME0..A_NAME0 + self.n as u32).contains(&a) && {
                    let j = (a - A_NAME0) as u8;
                    j != self.asker && self.named & (1 << j) == 0
                }
            }
            Phase::DivChange | Phase::BetrayChange => a == A_KEEP || a == A_SWITCH,
        }
    }

    /// Apply the decider's action.
    pub fn step(&mut self, a: u32) -> Result<(), String> {
        if !self.is_legal(a) {
            return Err(format!("osztrakon: action {a} ({}) is not legal in phase {:?}", describe(a), self.phase));
        }
        match self.phase {
            Phase::ChooseQuestion => self.choose_question(a as usize),
            Phase::Disciple => {
                let s = self.elig[self.elig_i as usize];
                if a == A_DECLARE {
                    // R8.2 (first = farthest), R8.3: the card turns for good
                    self.disciple = s;
                    self.laurel &= !(1 << s);
                    self.stats.disc_day[s as usize] = self.day;
                    self.phase = Phase::Vote;
                } else {
                    self.elig_i += 1;
                    if self.elig_i >= self.elig_len {
                        self.phase = Phase::Vote;
                    }
                }
            }
            Phase::Vote => self.vote(a == A_BLACK),
            Phase::CorruptName => {
                // R9.2: the named must vote as the asker (whose vote is shown)
                let j = (a - A_NAME0) as u8;
                self.named |= 1 << j;
                self.named_count += 1;
                if self.asker_black {
                    self.black |= 1 << j;
                } else {
                    self.black &= !(1 << j);
                }
                if self.named_count >= self.setup.k {
                    self.reveal_and_score();
                }
            }
            Phase::DivName => {
                let j = (a - A_NAME0) as u8;
                self.named |= 1 << j;
                self.named_count += 1;
                if self.named_count >= self.setup.k {
                    self.phase = Phase::DivChange;
                }
            }
            Phase::DivChange => {
                if a == A_SWITCH {
                    self.set_asker_vote(!self.asker_black);
                }
                self.reveal_and_score();
            }
            Phase::BetrayChange => {
                if a == A_SWITCH {
                    self.set_asker_vote(!self.asker_black);
                }
                self.score();
            }
            Phase::Over => unreachable!(),
        }
        Ok(())
    }

    fn set_asker_vote(&mut self, black: bool) {
        self.asker_black = black;
        if black {
            self.black |= 1 << self.asker;
        } else {
            self.black &= !(1 << self.asker);
        }
    }

    /// The question is asked: everybody forms a view (M3.1, M2.3); the disciple window opens.
    fn choose_question(&mut self, i: usize) {
        self.q = i as u8;
        self.p = self.cand_p[i];
        let a = self.asker as usize;
        self.hat[a] = self.cand_hat[i];
        for j in 0..self.n as usize {
            if j != a {
                self.hat[j] = perceive(self.p, self.prm.read_noise[j], &mut self.rng);
            }
        }
        if self.prm.tau > 0.0 {
            for j in 0..self.n as usize {
                if j != a {
                    self.eta[j] = normal(&mut self.rng);
                    self.eta_hat[j] = self.eta[j] + self.prm.tau_obs * normal(&mut self.rng);
                }
            }
        }
        let sun = self.path.sun;
        self.elig_len = eligible(&self.path, self.laurel, sun, &mut self.elig) as u8;
        self.elig_i = 0;
        self.phase = if self.elig_len > 0 { Phase::Disciple } else { Phase::Vote };
    }

    /// R5.5: the asker's vote; the others vote by the model (M2); then the day's step (R5.6).
    fn vote(&mut self, black: bool) {
        self.black = 0;
        self.set_asker_vote(black);
        self.voted = true;
        if let Some(v) = self.forced_votes.take() {
            self.black = (v & self.others_mask()) | (self.black & (1 << self.asker));
        } else {
            self.draw_votes();
        }
        match self.rule {
            RULE_CORRUPTION if self.setup.k > 0 => self.phase = Phase::CorruptName,
            RULE_DIVINATION if self.setup.k > 0 => self.phase = Phase::DivName,
            RULE_DIVINATION => self.phase = Phase::DivChange,
            RULE_BETRAYAL => {
                self.revealed = true;
                self.phase = Phase::BetrayChange;
            }
            _ => self.reveal_and_score(),
        }
    }

    /// M2.1–M2.4: the others' votes.
    fn draw_votes(&mut self) {
        let prm = self.prm;
        let mut pq = self.p;
        if prm.kappa > 0.0 {
            pq = super::model::beta((prm.kappa * pq).max(1e-9), (prm.kappa * (1.0 - pq)).max(1e-9), &mut self.rng);
        }
        let lp = if prm.tau > 0.0 { logit(pq.clamp(1e-12, 1.0 - 1e-12)) } else { 0.0 };
        let sun = self.path.sun;
        for j in 0..self.n as usize {
            if j == self.asker as usize {
                continue;
            }
            let pj = if prm.tau > 0.0 { sigmoid(lp + prm.tau * self.eta[j]) } else { pq };
            let mut b = uniform(&mut self.rng) < pj;
            if prm.spoiler_rate > 0.0 && j as u8 != self.disciple {
                let pos = self.path.pos[j];
                if pos != IN_PILE && pos < sun && uniform(&mut self.rng) < prm.spoiler_rate {
                    if let Some(v) = self.spoiler_vote(j) {
                        b = v;
                        self.spoilers |= 1 << j;
                    }
                }
            }
            if b {
                self.black |= 1 << j;
            }
        }
    }

    /// M2.4: the vote that minimises the asker's expected advance under voter j's beliefs
    /// (he assumes the asker votes the side j believes in); None on a tie (he votes truly).
    fn spoiler_vote(&self, j: usize) -> Option<bool> {
        let h = self.hat[j];
        let asker_black = h >= 0.5;
        let r = if asker_black { h } else { 1.0 - h };
        let mut pm = [0.0; 13];
        let t = self.sc.others as usize - 1;
        super::model::pmf(t, r, 0.0, &mut pm);
        let (mut e_agree, mut e_dis) = (0.0, 0.0);
        for (x, &px) in pm.iter().enumerate().take(t + 1) {
            e_agree += px * self.sc.advance(x as u32 + 1).unwrap_or(0) as f64;
            e_dis += px * self.sc.advance(x as u32).unwrap_or(0) as f64;
        }
        if (e_agree - e_dis).abs() < 1e-12 {
            None
        } else if e_agree < e_dis {
            Some(asker_black)
        } else {
            Some(!asker_black)
        }
    }

    fn reveal_and_score(&mut self) {
        self.revealed = true;
        self.score();
    }

    /// R6–R8, R11.3, R4.3.
    fn score(&mut self) {
        self.revealed = true;
        let a = self.asker;
        let s = agreeing(self.black, self.others_mask(), self.asker_black);
        let adv = self.sc.advance(s);
        let from = self.path.sun;
        let popped = self.path.pop(from);
        debug_assert_eq!(popped, a);
        let reached = move_asker(&mut self.path, a, from, adv, self.prm.temple);
        let st = &mut self.stats;
        st.asks[a as usize] += 1;
        st.rule_turns[self.rule as usize] += 1;
        if let Some(d) = adv {
            st.succ[a as usize] += 1;
            st.adv[a as usize] += d as u16;
            st.rule_succ[self.rule as usize] += 1;
            st.rule_adv[self.rule as usize] += d;
        }
        let day_i = (self.day - 1) as usize;
        st.turns_per_day[day_i] += 1;
        self.turns += 1;
        let ends = reached && self.prm.overwhelming_ends_game;
        let (mut dfrom, mut dto) = (0, 0);
        if let (Some(d), false) = (adv, ends) {
            if self.disciple != NONE && d > 0 {
                let (f, t) = move_disciple(&mut self.path, self.disciple, d, from, self.prm.disciple_cap_at_sun, self.prm.temple);
                self.stats.disc_gain[self.disciple as usize] = t - f;
                dfrom = f;
                dto = t;
            }
        }
        if let Some(log) = self.log.as_mut() {
            log.push(TurnRow {
                day: self.day,
                asker: a,
                position: from,
                rule: self.rule,
                p: self.p,
                estimate: self.hat[a as usize],
                black: self.black,
                s: s as u8,
                d: adv.unwrap_or(0) as u8,
                success: adv.is_some(),
                disciple: self.disciple,
                disciple_from: dfrom,
                disciple_to: dto,
            });
        }
        if reached {
            if self.temple_first == NONE {
                self.temple_first = a;
                self.overwhelming_day = self.day;
            }
            if ends {
                self.overwhelming = true;
                self.finish();
                return;
            }
        }
        match next_asker(&mut self.path) {
            Some(_) => self.start_turn(),
            None => self.close_day(),
        }
    }

    /// Record the day's standings; R10.
    fn close_day(&mut self) {
        let d = (self.day - 1) as usize;
        self.record_standings(d);
        self.stats.day_rules[d] = self.rule;
        self.stats.days_done = self.day;
        let prm = self.prm;
        match end_of_day(&mut self.path, self.day, self.setup.days, prm.temple, prm.layout, self.setup.start) {
            Some(rule) if self.temple_first == NONE && self.path.front(prm.temple).is_some() => {
                self.day += 1;
                self.rule = rule;
                self.stats.asked_today = 0;
                self.stats.day_order = [NONE; 12];
                self.start_turn();
            }
            _ => {
                if self.temple_first != NONE {
                    self.overwhelming = true;
                }
                self.finish()
            }
        }
    }

    fn record_standings(&mut self, d: usize) {
        let mut order = [NONE; 12];
        let k = self.path.standings(self.n as usize, self.prm.temple, &mut order);
        for (r, &seat) in order[..k].iter().enumerate() {
            self.stats.rank_day[d][seat as usize] = r as u8;
        }
        for j in 0..self.n as usize {
            self.stats.pos_day[d][j] = self.path.pos[j];
        }
    }

    /// R11.1 / R11.3: the winner.
    fn finish(&mut self) {
        self.phase = Phase::Over;
        self.over = true;
        if self.overwhelming {
            self.winner = self.temple_first;
            if self.stats.days_done < self.day {
                let d = (self.day - 1) as usize;
                self.record_standings(d);
                self.stats.day_rules[d] = self.rule;
                self.stats.days_done = self.day;
            }
        } else {
            let f = self.path.front(self.prm.temple).expect("a stack on the path");
            self.winner = self.path.top[f as usize];
        }
    }
}
