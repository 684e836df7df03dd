//! Formats whose seating changes during the game and victory points (issue 13): the circle
//! (V3: neighbours recomputed among the survivors, victory points) and war of the gods (V4:
//! the enemy graph, a seat with no enemy left acting against every seat).
//!
//! - `reseat`: after an elimination the `State::seating` is rebuilt among the seats still in
//!   (`Seating::of_format_among`; no allocation). Formats whose enemies are "all" and whose
//!   Campaigns attack any enemy (the free-for-all, Quick, Coalition) never change seating.
//! - `credit_points`: when seats are eliminated (one state check), each one's right neighbour
//!   among the seats in before that check (the seat whose left neighbour it was: the one
//!   that could attack it) gets `points_elimination` tenths, also when that neighbour is
//!   eliminated in the same check (TF 169.3).
//! - `points_outcome`: when at most one seat is left, the last seat standing gets
//!   `points_last_standing` on top (everyone out at once: the active player counts as the
//!   last standing, as R14.5 makes it the winner); the seats with most points win, a tie
//!   going to the last seat standing if it is tied (`tie_break = "survivor"`), else shared.

use super::mode::Mode;
use super::seats::{Seating, Seats, MAX_SEATS};
use super::state::{EndReason, Game, GameData, Outcome};
use super::trace::glog;
use crate::cards::formats::{Attack, Enemies, Scoring, TieBreak};

impl GameData<'_> {
    /// Whether this game's seating depends on who is still in (rebuilt by `reseat`).
    #[inline]
    pub(crate) fn seating_follows_eliminations(&self) -> bool {
        let f = &self.db.rules.format;
        f.enemies != Enemies::All || f.attack == Attack::Left
    }

    /// Whether the game scores victory points (V3).
    #[inline]
    pub fn scores_points(&self) -> bool {
        self.db.rules.format.scoring == Scoring::VictoryPoints
    }
}

impl<M: Mode> Game<'_, M> {
    /// Rebuild the seating among the seats still in (after an elimination).
    #[cold]
    pub(crate) fn reseat(&mut self) {
        if !self.seating_follows_eliminations() {
            return;
        }
        let alive = self.state.alive_seats();
        // the format seated these n seats at the start (BatchSpec::validate): it cannot fail
        if let Ok(s) = Seating::of_format_among(&self.db.rules.format, self.state.n, alive) {
            self.state.seating = s;
        }
    }

    /// The seats `out` are eliminated in one state check: credit each one's right neighbour
    /// among the seats still in before it (V3).
    #[cold]
    pub(crate) fn credit_points(&mut self, out: Seats) {
        let alive = self.state.alive_seats();
        let n = self.state.n;
        let gain = self.db.rules.format.points_elimination as i16;
        for p in out.iter() {
            // the right neighbour: the nearest seat still in before p (p - 1, p - 2 …)
            let Some(r) = (1..n).map(|k| (p + n - k) % n).find(|&q| alive.contains(q)) else { continue };
            self.state.points[r] = self.state.points[r].saturating_add(gain);
            glog!(self, "  P{r} scores {} victory point(s) for P{p}", gain as f32 / 10.0);
        }
    }

    /// The end of a victory-point game: at most one seat is left (V3).
    #[cold]
    pub(crate) fn points_outcome(&mut self) -> Outcome {
        let alive = self.state.alive_seats();
        let (survivor, reason) = match alive.first() {
            Some(w) => (w, EndReason::LastPlayerStanding),
            None => (self.state.active, EndReason::SimultaneousElimination),
        };
        let f = &self.db.rules.format;
        self.state.points[survivor] = self.state.points[survivor].saturating_add(f.points_last_standing as i16);
        glog!(self, "  P{survivor} is the last standing: {} victory point(s)", f.points_last_standing as f32 / 10.0);
        let winners = points_winners(&self.state.points[..self.state.n], survivor, f.tie_break);
        glog!(self, "Victory points {:?}: {} win", &self.state.points[..self.state.n], winners.iter().map(|w| format!("P{w}")).collect::<Vec<_>>().join(", "));
        Outcome { winners, reason, points: Some(self.state.points) }
    }
}

/// The winners of a victory-point game (V3): the seats with most points; on a tie the
/// survivor alone if it is among them and `tie_break` is "survivor", else all of them.
pub fn points_winners(points: &[i16], survivor: usize, tie_break: TieBreak) -> Seats {
    let best = points.iter().copied().max().unwrap_or(0);
    let mut tied = Seats::EMPTY;
    for (q, &v) in points.iter().enumerate().take(MAX_SEATS) {
        if v == best {
            tied = tied.with(q);
        }
    }
    if tied.len() > 1 && tie_break == TieBreak::Survivor && tied.contains(survivor) {
        Seats::one(survivor)
    } else {
        tied
    }
}
