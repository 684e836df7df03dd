//! Batches: per-game seeding, the rayon runner and columnar records. Results are gathered
//! in game order, so a batch gives the same rows on any number of threads.

use crate::bots::BotSpec;
use crate::cards::{CardDb, FACTIONS};
use crate::engine::{Game, GameConfig};
use crate::rng::game_seed;
use rayon::prelude::*;

/// What to play.
#[derive(Clone, Debug)]
pub struct BatchSpec {
    pub factions: Vec<u8>,
    pub bots: Vec<BotSpec>,
    pub games: u64,
    pub seed: u64,
    pub threads: Option<usize>,
    /// Fixed start seat for every game, or None for a random start player (E9).
    pub start_player: Option<u8>,
}

impl BatchSpec {
    /// Check the inputs that do not depend on the card set.
    pub fn validate(&self, db: &CardDb) -> Result<(), String> {
        let n = self.factions.len();
        if !(2..=4).contains(&n) {
            return Err(format!("a game needs 2 to 4 decks, got {n}"));
        }
        if self.bots.len() != n {
            return Err(format!("got {} bot specs for {n} seats", self.bots.len()));
        }
        if self.games == 0 {
            return Err("games must be a positive number".into());
        }
        if !db.rules.allow_mirror {
            for i in 0..n {
                for j in 0..i {
                    if self.factions[i] == self.factions[j] {
                        return Err(format!(
                            "faction '{}' is used twice; set rules.allow_mirror = true for mirror matches",
                            FACTIONS[self.factions[i] as usize]
                        ));
                    }
                }
            }
        }
        if self.threads == Some(0) {
            return Err("threads must be at least 1".into());
        }
        let cards = self.factions.iter().map(|&f| db.decks[f as usize].len()).sum::<usize>()
            + db.newsfeed.len()
            + db.events.len()
            + db.tokens.iter().map(|&(_, k)| k as usize).sum::<usize>();
        if cards > 256 {
            return Err(format!("a game of these decks would hold {cards} cards (decks, Newsfeed, Events, tokens); at most 256 fit"));
        }
        Ok(())
    }
}

/// The result of one game.
#[derive(Clone, Debug, Default)]
pub struct GameResult {
    pub seed: u64,
    pub winner: i8,
    pub turns: i32,
    pub rounds: i32,
    pub end_reason: u8,
    pub start_player: i8,
    pub actions: i32,
    pub players: [SeatResult; 4],
    pub invariant_error: Option<String>,
    /// (seat, card definition, turn) of every card played, when recorded.
    pub plays: Vec<(u8, u16, u16)>,
}

#[derive(Clone, Copy, Debug, Default)]
pub struct SeatResult {
    pub support: i32,
    pub scandal: i32,
    pub eliminated: bool,
    pub eliminated_round: i32,
    pub cards_played: i32,
    pub attacks: i32,
    pub exposes: i32,
    pub mulligans: i8,
    pub turns: i32,
    pub main_decisions: i32,
    pub opening: u128,
    pub drawn: u128,
    pub played: u128,
}

/// Play game `index` of the batch. `log`: also return the readable action log.
pub fn play_one(db: &CardDb, spec: &BatchSpec, index: u64, log: bool, check: bool) -> (GameResult, Option<Vec<String>>) {
    play_one_with(db, spec, index, log, check, false)
}

/// `play_one`, optionally recording every card play (`record_plays`).
pub fn play_one_with(db: &CardDb, spec: &BatchSpec, index: u64, log: bool, check: bool, record_plays: bool) -> (GameResult, Option<Vec<String>>) {
    play_one_in(&mut None, db, spec, index, log, check, record_plays)
}

/// `play_one_with` reusing the buffers of the game left in `slot`, and leaving this one
/// there for the next call (a batch allocates nothing per game).
pub fn play_one_in<'db>(
    slot: &mut Option<Game<'db>>,
    db: &'db CardDb,
    spec: &BatchSpec,
    index: u64,
    log: bool,
    check: bool,
    record_plays: bool,
) -> (GameResult, Option<Vec<String>>) {
    let seed = game_seed(spec.seed, index);
    let cfg = GameConfig { factions: spec.factions.clone(), seed, start_player: spec.start_player };
    let policies = Game::start_policy_streams(seed, spec.factions.len(), &spec.bots);
    let mut g = Game::new_reusing(db, &cfg, policies, slot.take());
    if log {
        g.log = Some(Vec::with_capacity(1024));
    }
    g.check_invariants = check;
    if record_plays {
        g.plays = Some(Vec::with_capacity(64));
    }
    let out = g.run(spec.start_player);
    let mut r = GameResult {
        seed,
        winner: out.winner.map_or(-1, |w| w as i8),
        turns: g.turn as i32,
        rounds: g.round as i32,
        end_reason: out.reason as u8,
        start_player: first_start(&g) as i8,
        actions: g.total_actions as i32,
        players: Default::default(),
        invariant_error: g.invariant_error.take(),
        plays: g.plays.take().unwrap_or_default(),
    };
    for (i, p) in g.players.iter().enumerate() {
        r.players[i] = SeatResult {
            support: p.support,
            scandal: p.scandal,
            eliminated: !p.alive,
            eliminated_round: p.eliminated_round,
            cards_played: p.cards_played as i32,
            attacks: p.attacks as i32,
            exposes: p.exposes_total as i32,
            mulligans: p.mulligans as i8,
            turns: p.turns_taken as i32,
            main_decisions: p.main_decisions as i32,
            opening: p.opening,
            drawn: p.drawn,
            played: p.played,
        };
    }
    let log = g.log.take();
    *slot = Some(g);
    (r, log)
}

/// The seat that took the first turn (the start player can move on elimination, E66).
fn first_start(g: &Game) -> usize {
    g.first_start_player
}

/// Columns of a batch, one entry per game (and per game × seat).
#[derive(Default, Debug)]
pub struct Columns {
    pub n_seats: usize,
    pub game: Vec<i64>,
    pub seed: Vec<u64>,
    pub winner: Vec<i8>,
    pub turns: Vec<i32>,
    pub rounds: Vec<i32>,
    pub end_reason: Vec<u8>,
    pub start_player: Vec<i8>,
    pub actions: Vec<i32>,
    pub p_game: Vec<i64>,
    pub p_seat: Vec<i8>,
    pub p_faction: Vec<u8>,
    pub p_won: Vec<bool>,
    pub p_support: Vec<i32>,
    pub p_scandal: Vec<i32>,
    pub p_eliminated: Vec<bool>,
    pub p_eliminated_round: Vec<i32>,
    pub p_cards_played: Vec<i32>,
    pub p_attacks: Vec<i32>,
    pub p_exposes: Vec<i32>,
    pub p_mulligans: Vec<i8>,
    pub p_turns: Vec<i32>,
    pub p_main_decisions: Vec<i32>,
    /// Card records as 128-bit sets split in two u64 halves (bit = card definition index).
    pub p_opening: [Vec<u64>; 2],
    pub p_drawn: [Vec<u64>; 2],
    pub p_played: [Vec<u64>; 2],
    /// One row per card played (only with `record_plays`).
    pub play_game: Vec<i64>,
    pub play_seat: Vec<i8>,
    pub play_card: Vec<u16>,
    pub play_turn: Vec<u16>,
}

/// Run a batch on `threads` threads (None = all cores). A panic inside a game is reported
/// with its index and seed.
pub fn run_batch(db: &CardDb, spec: &BatchSpec) -> Result<Columns, String> {
    run_batch_with(db, spec, false, 0)
}

/// `run_batch`, optionally with one row per card played (`record_plays`).
/// Games `first_game .. first_game + spec.games` of the batch are played (chunked runs give
/// exactly the rows of one big run).
pub fn run_batch_with(db: &CardDb, spec: &BatchSpec, record_plays: bool, first_game: u64) -> Result<Columns, String> {
    spec.validate(db)?;
    // test hook: make game N panic, to check that a panic is reported with its game and seed
    let panic_at: Option<u64> = std::env::var("KETHARMAD_TEST_PANIC_GAME").ok().and_then(|v| v.parse().ok());
    let work = || -> Vec<Result<GameResult, String>> {
        (first_game..first_game + spec.games)
            .into_par_iter()
            // one reusable game per worker
            .map_init(|| None, |slot, i| {
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    if panic_at == Some(i) {
                        panic!("test panic requested by KETHARMAD_TEST_PANIC_GAME");
                    }
                    play_one_in(slot, db, spec, i, false, false, record_plays).0
                }))
                .map_err(|e| {
                    let msg = e
                        .downcast_ref::<String>()
                        .cloned()
                        .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                        .unwrap_or_else(|| "unknown panic".into());
                    format!("game {i} (seed {}) panicked: {msg}", game_seed(spec.seed, i))
                })
            })
            .collect()
    };
    let results = match spec.threads {
        Some(t) => rayon::ThreadPoolBuilder::new().num_threads(t).build().map_err(|e| e.to_string())?.install(work),
        None => work(),
    };
    let n = spec.factions.len();
    let g = spec.games as usize;
    let mut c = Columns { n_seats: n, ..Default::default() };
    c.game.reserve(g);
    c.p_game.reserve(g * n);
    for (k, r) in results.into_iter().enumerate() {
        let r = r?;
        let i = first_game as usize + k;
        c.game.push(i as i64);
        c.seed.push(r.seed);
        c.winner.push(r.winner);
        c.turns.push(r.turns);
        c.rounds.push(r.rounds);
        c.end_reason.push(r.end_reason);
        c.start_player.push(r.start_player);
        c.actions.push(r.actions);
        for &(seat, card, turn) in &r.plays {
            c.play_game.push(i as i64);
            c.play_seat.push(seat as i8);
            c.play_card.push(card);
            c.play_turn.push(turn);
        }
        for s in 0..n {
            let p = &r.players[s];
            c.p_game.push(i as i64);
            c.p_seat.push(s as i8);
            c.p_faction.push(spec.factions[s]);
            c.p_won.push(r.winner == s as i8);
            c.p_support.push(p.support);
            c.p_scandal.push(p.scandal);
            c.p_eliminated.push(p.eliminated);
            c.p_eliminated_round.push(p.eliminated_round);
            c.p_cards_played.push(p.cards_played);
            c.p_attacks.push(p.attacks);
            c.p_exposes.push(p.exposes);
            c.p_mulligans.push(p.mulligans);
            c.p_turns.push(p.turns);
            c.p_main_decisions.push(p.main_decisions);
            for (col, v) in [(&mut c.p_opening, p.opening), (&mut c.p_drawn, p.drawn), (&mut c.p_played, p.played)] {
                col[0].push(v as u64);
                col[1].push((v >> 64) as u64);
            }
        }
    }
    Ok(c)
}
