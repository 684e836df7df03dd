//! R11: the end of the game and the record (R11.4) as harness `Outcome` columns.
//! `turns` counts questions (turns, R5). Per game: winner, overwhelming (R11.3) and its day,
//! tie (the winner shares the leading position, decided by stack order, R11.1), days played,
//! lead changes between days, disciple counts, per special rule the turns, successes and
//! advance, and the rule of every day (`rule_dayD`, -1 = not played). Per seat: final position and rank, initial stack order, order of asking on the last
//! day played, asks/successes/advance, disciple day and gain, read noise, rank after each day.

use super::params::{MAX_DAYS, RULE_NAMES};
use super::stacks::NONE;
use super::state::State;
use crate::harness::Outcome;

const RANK_DAY: [&str; MAX_DAYS] = [
    "rank_day1",
    "rank_day2",
    "rank_day3",
    "rank_day4",
    "rank_day5",
    "rank_day6",
    "rank_day7",
    "rank_day8",
    "rank_day9",
    "rank_day10",
    "rank_day11",
    "rank_day12",
    "rank_day13",
    "rank_day14",
    "rank_day15",
    "rank_day16",
    "rank_day17",
    "rank_day18",
    "rank_day19",
    "rank_day20",
];
const RULE_DAY: [&str; MAX_DAYS] = [
    "rule_day1",
    "rule_day2",
    "rule_day3",
    "rule_day4",
    "rule_day5",
    "rule_day6",
    "rule_day7",
    "rule_day8",
    "rule_day9",
    "rule_day10",
    "rule_day11",
    "rule_day12",
    "rule_day13",
    "rule_day14",
    "rule_day15",
    "rule_day16",
    "rule_day17",
    "rule_day18",
    "rule_day19",
    "rule_day20",
];
const RULE_TURNS: [&str; 4] = ["turns_none", "turns_corruption", "turns_divination", "turns_betrayal"];
const RULE_SUCC: [&str; 4] = ["succ_none", "succ_corruption", "succ_divination", "succ_betrayal"];
const RULE_ADV: [&str; 4] = ["adv_none", "adv_corruption", "adv_divination", "adv_betrayal"];

impl State {
    /// Final rank of every seat (0 = winner), standings from the front.
    pub fn final_ranks(&self) -> [u8; 12] {
        let mut order = [NONE; 12];
        let k = self.path.standings(self.n as usize, self.prm.temple, &mut order);
        let mut rank = [NONE; 12];
        // an overwhelming winner first even if others reached the temple later (open 5 variant)
        let mut r = 0u8;
        if self.overwhelming {
            rank[self.winner as usize] = 0;
            r = 1;
        }
        for &s in &order[..k] {
            if rank[s as usize] == NONE {
                rank[s as usize] = r;
                r += 1;
            }
        }
        rank
    }

    /// Leader (rank 0) after finished day d (0-based).
    pub fn leader_after(&self, d: usize) -> u8 {
        (0..self.n).find(|&j| self.stats.rank_day[d][j as usize] == 0).unwrap_or(NONE)
    }

    /// Did the winner share the leading position (a tie decided by stack order, R11.1)?
    pub fn tie(&self) -> bool {
        !self.overwhelming && self.over && self.path.under[self.winner as usize] != NONE
    }

    pub fn make_outcome(&self) -> Outcome {
        let n = self.n as usize;
        let st = &self.stats;
        let mut o = Outcome { turns: self.turns, end_reason: if self.overwhelming { "temple" } else { "moon" }, ..Outcome::default() };
        if !self.over {
            o.unfinished = true;
            o.end_reason = "running";
        } else {
            o.winners.push(self.winner);
        }
        o.returns = (0..n)
            .map(|j| {
                if self.over && j as u8 == self.winner {
                    1.0
                } else if self.over {
                    -1.0
                } else {
                    0.0
                }
            })
            .collect();
        let ranks = self.final_ranks();
        let days = self.setup.days as usize;
        let done = st.days_done as usize;
        let mut lead_changes = 0;
        for d in 1..done {
            if self.leader_after(d) != self.leader_after(d - 1) {
                lead_changes += 1;
            }
        }
        let declared = (0..n).filter(|&j| st.disc_day[j] > 0).count();
        let moved = (0..n).filter(|&j| st.disc_gain[j] > 0).count();
        let decisive = if self.over && st.disc_gain[self.winner as usize] > 0 {
            let w = self.winner as usize;
            let runner = (0..n).find(|&j| ranks[j] == 1).unwrap_or(w);
            let wp = self.path.pos[w] as i32 - st.disc_gain[w] as i32;
            (wp < self.path.pos[runner] as i32) as i32 as f64
        } else {
            0.0
        };
        o.game_columns = vec![
            ("winner", if self.over { self.winner as f64 } else { -1.0 }),
            ("overwhelming", self.overwhelming as i32 as f64),
            ("overwhelming_day", if self.overwhelming { self.overwhelming_day as f64 } else { 0.0 }),
            ("tie", self.tie() as i32 as f64),
            ("days_played", done as f64),
            ("lead_changes", lead_changes as f64),
            ("disciples_declared", declared as f64),
            ("disciple_moves", moved as f64),
            ("disciple_decisive", decisive),
        ];
        for r in 0..4 {
            let _ = RULE_NAMES[r];
            o.game_columns.push((RULE_TURNS[r], st.rule_turns[r] as f64));
            o.game_columns.push((RULE_SUCC[r], st.rule_succ[r] as f64));
            o.game_columns.push((RULE_ADV[r], st.rule_adv[r] as f64));
        }
        // the rule of every day (params::RULE_NAMES index; -1 = not played)
        for (d, &name) in RULE_DAY.iter().enumerate().take(days.min(MAX_DAYS)) {
            o.game_columns.push((name, if d < done { st.day_rules[d] as f64 } else { -1.0 }));
        }
        let col = |f: &dyn Fn(usize) -> f64| (0..n).map(f).collect::<Vec<f64>>();
        o.seat_columns = vec![
            ("final_pos", col(&|j| self.path.pos[j] as f64)),
            ("final_rank", col(&|j| ranks[j] as f64)),
            ("start_order", col(&|j| st.start_order[j] as f64)),
            ("last_day_order", col(&|j| if st.day_order[j] == NONE { -1.0 } else { st.day_order[j] as f64 })),
            ("asks", col(&|j| st.asks[j] as f64)),
            ("successes", col(&|j| st.succ[j] as f64)),
            ("advance", col(&|j| st.adv[j] as f64)),
            ("disciple_day", col(&|j| st.disc_day[j] as f64)),
            ("disciple_gain", col(&|j| st.disc_gain[j] as f64)),
            ("read_noise", col(&|j| self.prm.read_noise[j])),
        ];
        for (d, &name) in RANK_DAY.iter().enumerate().take(days.min(MAX_DAYS)) {
            let v = col(&|j| if d < done { st.rank_day[d][j] as f64 } else { ranks[j] as f64 });
            o.seat_columns.push((name, v));
        }
        o
    }
}
