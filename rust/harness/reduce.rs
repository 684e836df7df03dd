//! Reductions of a generic batch: the counts a win-rate table needs, accumulated game by game
//! over [`run_blocks`](super::batch::run_blocks) instead of stored as rows, so memory does not
//! grow with the games (only with the distinct turn counts, end reasons and extra columns of
//! the game). The games are those of [`run_range`](super::batch::run_range) with the same
//! arguments, pushed in game order, so the result never depends on the thread count; and
//! every field but the float sums is an integer count, so the reductions of consecutive game
//! ranges [`merge`](GenericStats::merge) into exactly that of the whole range.

use super::batch::{check_batch, play_game, run_blocks, Blocks, GenericBatch, BLOCK};
use super::{available_threads, BatchError, Stop};
use super::{Outcome, Rules};
use crate::rng::game_seed;
use std::collections::BTreeMap;

/// The reduction of a generic batch (see the module doc).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GenericStats {
    pub game_name: &'static str,
    pub seats: usize,
    pub sides: Vec<&'static str>,
    pub agents: Vec<String>,
    /// Games played.
    pub games: u64,
    /// Wins per seat; a game with several winners counts once for each of them.
    pub wins: Vec<u64>,
    /// Games with no winner (draws and unfinished games).
    pub no_winner: u64,
    /// Games with more than one winner.
    pub shared: u64,
    /// Games stopped by a safety cap, not by the rules.
    pub unfinished: u64,
    /// Turns (the game's own unit) -> games that lasted that many.
    pub turns: BTreeMap<u32, u64>,
    /// End reason -> games that ended so.
    pub end_reasons: BTreeMap<&'static str, u64>,
    /// The sum over the games of each extra per-game column of the Outcome, in the game's order
    /// (exact while the values are whole numbers below 2^53, as every count column is).
    pub game_sums: Vec<(&'static str, f64)>,
    /// The sum over the games of each extra per-seat column, one sum per seat.
    pub seat_sums: Vec<(&'static str, Vec<f64>)>,
    /// The sum of the returns, per seat.
    pub return_sums: Vec<f64>,
}

impl GenericStats {
    /// An empty reduction for `seats` seats.
    pub fn new(game_name: &'static str, seats: usize, sides: Vec<&'static str>, agents: Vec<String>) -> Self {
        GenericStats { game_name, seats, sides, agents, wins: vec![0; seats], return_sums: vec![0.0; seats], ..Default::default() }
    }

    /// Count one game.
    pub fn push(&mut self, game: u64, o: &Outcome) -> Result<(), String> {
        if self.games == 0 && self.game_sums.is_empty() && self.seat_sums.is_empty() {
            self.game_sums = o.game_columns.iter().map(|(n, _)| (*n, 0.0)).collect();
            self.seat_sums = o.seat_columns.iter().map(|(n, _)| (*n, vec![0.0; self.seats])).collect();
        }
        if o.game_columns.len() != self.game_sums.len() || o.seat_columns.len() != self.seat_sums.len() {
            return Err(format!("game {game}: its outcome has other extra columns than the first game's"));
        }
        for (col, (n, v)) in self.game_sums.iter_mut().zip(&o.game_columns) {
            if col.0 != *n {
                return Err(format!("game {game}: extra column '{n}' where '{}' was expected", col.0));
            }
            col.1 += *v;
        }
        for (col, (n, v)) in self.seat_sums.iter_mut().zip(&o.seat_columns) {
            if col.0 != *n || v.len() != self.seats {
                return Err(format!("game {game}: extra seat column '{n}' does not match"));
            }
            for (a, b) in col.1.iter_mut().zip(v) {
                *a += *b;
            }
        }
        let mut mask = 0u64;
        for &w in &o.winners {
            mask |= 1u64 << w;
        }
        for (s, w) in self.wins.iter_mut().enumerate() {
            *w += mask >> s & 1;
        }
        match mask.count_ones() {
            0 => self.no_winner += 1,
            1 => {}
            _ => self.shared += 1,
        }
        self.unfinished += o.unfinished as u64;
        *self.turns.entry(o.turns).or_insert(0) += 1;
        *self.end_reasons.entry(o.end_reason).or_insert(0) += 1;
        for (a, r) in self.return_sums.iter_mut().zip(&o.returns) {
            *a += *r;
        }
        self.games += 1;
        Ok(())
    }

    /// Add the reduction of the next game range (same game, seats and agents).
    pub fn merge(&mut self, other: &GenericStats) -> Result<(), String> {
        if other.seats != self.seats || other.game_name != self.game_name || other.agents != self.agents {
            return Err("merge: the reductions are of different batches".into());
        }
        if self.games == 0 {
            *self = other.clone();
            return Ok(());
        }
        if other.games == 0 {
            return Ok(());
        }
        let names = |g: &GenericStats| -> (Vec<&str>, Vec<&str>) { (g.game_sums.iter().map(|c| c.0).collect(), g.seat_sums.iter().map(|c| c.0).collect()) };
        if names(self) != names(other) {
            return Err("merge: the reductions have other extra columns".into());
        }
        self.games += other.games;
        for (a, b) in self.wins.iter_mut().zip(&other.wins) {
            *a += b;
        }
        self.no_winner += other.no_winner;
        self.shared += other.shared;
        self.unfinished += other.unfinished;
        for (t, n) in &other.turns {
            *self.turns.entry(*t).or_insert(0) += n;
        }
        for (r, n) in &other.end_reasons {
            *self.end_reasons.entry(*r).or_insert(0) += n;
        }
        for (a, b) in self.game_sums.iter_mut().zip(&other.game_sums) {
            a.1 += b.1;
        }
        for (a, b) in self.seat_sums.iter_mut().zip(&other.seat_sums) {
            for (x, y) in a.1.iter_mut().zip(&b.1) {
                *x += y;
            }
        }
        for (a, b) in self.return_sums.iter_mut().zip(&other.return_sums) {
            *a += b;
        }
        Ok(())
    }
}

/// The reduction of the games of `b` (`first .. first + games`) that
/// [`run_range`](super::batch::run_range) plays with the same batch (same checks, same games),
/// stoppable between games.
pub fn reduce_range<R: Rules>(rules: &R, b: &GenericBatch, stop: &Stop) -> Result<GenericStats, BatchError>
where
    R::State: 'static,
{
    let specs = check_batch(rules, b)?;
    let GenericBatch { values, seats, agents, first, games, seed: batch_seed, threads } = *b;
    let mut st = GenericStats::new(rules.name(), seats, rules.sides(), agents.to_vec());
    let threads = threads.unwrap_or_else(available_threads);
    run_blocks(
        games,
        Blocks::Fixed(BLOCK),
        Some(threads),
        stop,
        |j| (first + j, game_seed(batch_seed, first + j)),
        || (),
        |_, j| play_game(rules, values, seats, &specs, batch_seed, first + j, stop).map(|(_, o)| (first + j, o)).map_err(BatchError::Invalid),
        |(g, o)| st.push(g, &o).map_err(BatchError::Invalid),
    )?;
    Ok(st)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::batch::run_range;
    use crate::harness::batch::tests::{vals, NimRules};

    /// Games `first .. first + games` of Nim with `agents`, batch seed `seed`.
    fn nim<'a>(v: &'a [f64], agents: &'a [String], first: u64, games: u64, seed: u64, threads: Option<usize>) -> GenericBatch<'a> {
        GenericBatch { values: v, seats: agents.len(), agents, first, games, seed, threads }
    }

    fn agents() -> Vec<String> {
        vec!["random".to_string(), "random".to_string(), "search:iterations=20".to_string()]
    }

    #[test]
    fn counts_equal_those_of_the_rows_and_do_not_depend_on_threads() {
        let a = agents();
        let stop = Stop::new();
        let rows = run_range(&NimRules, &nim(&vals(), &a, 5, 700, 9, Some(2)), &stop).unwrap();
        let s1 = reduce_range(&NimRules, &nim(&vals(), &a, 5, 700, 9, Some(1)), &stop).unwrap();
        let s2 = reduce_range(&NimRules, &nim(&vals(), &a, 5, 700, 9, Some(2)), &stop).unwrap();
        assert_eq!(s1, s2);
        assert_eq!(s1.games, 700);
        for s in 0..3 {
            assert_eq!(s1.wins[s], rows.wins(s), "seat {s}");
            let took: f64 = (0..rows.len()).map(|i| rows.seat_extra[0].1[3 * i + s]).sum();
            assert_eq!(s1.seat_sums[0], ("took_last", s1.seat_sums[0].1.clone()));
            assert_eq!(s1.seat_sums[0].1[s], took);
            let ret: f64 = (0..rows.len()).map(|i| rows.seat_return[3 * i + s]).sum();
            assert_eq!(s1.return_sums[s], ret);
        }
        assert_eq!(s1.wins.iter().sum::<u64>(), 700, "Nim has one winner per game");
        assert_eq!(s1.no_winner, rows.winners_mask.iter().filter(|&&m| m == 0).count() as u64);
        assert_eq!(s1.unfinished, rows.unfinished.iter().filter(|&&u| u).count() as u64);
        let mut hist = BTreeMap::new();
        for &t in &rows.turns {
            *hist.entry(t).or_insert(0u64) += 1;
        }
        assert_eq!(s1.turns, hist);
        assert_eq!(s1.end_reasons, BTreeMap::from([("last_counter", 700)]));
        assert_eq!(s1.game_sums, vec![("start", 0.0)]);
    }

    #[test]
    fn consecutive_ranges_merge_into_the_whole() {
        let a = agents();
        let stop = Stop::new();
        let whole = reduce_range(&NimRules, &nim(&vals(), &a, 0, 500, 3, Some(2)), &stop).unwrap();
        let mut m = reduce_range(&NimRules, &nim(&vals(), &a, 0, 123, 3, Some(2)), &stop).unwrap();
        m.merge(&reduce_range(&NimRules, &nim(&vals(), &a, 123, 377, 3, Some(1)), &stop).unwrap()).unwrap();
        assert_eq!(m, whole);
        let other = reduce_range(&NimRules, &nim(&vals(), &a[..2], 0, 10, 3, Some(1)), &stop).unwrap();
        assert!(m.merge(&other).unwrap_err().contains("different batches"));
    }

    #[test]
    fn bad_input_is_the_error_of_the_row_batch() {
        let e = reduce_range(&NimRules, &nim(&vals(), &vec!["random".to_string(); 4], 0, 10, 1, None), &Stop::new()).unwrap_err();
        assert!(matches!(&e, BatchError::Invalid(m) if m.contains("2 to 3 seats")), "{e}");
    }
}
