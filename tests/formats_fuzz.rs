//! Invariant fuzzer for every game format (issue 13, docs/formats.md "Testing every format").
//!
//! The formats come from the core, not from a list here: every `[formats.NAME]` of the
//! packaged card data (`RawDb::formats`, i.e. formats.toml). For each, the core says which seat
//! counts it plays (`BatchSpec::validate`: a format whose mechanisms the engine does not play
//! yet is refused with "not built yet" and skipped, by name, in the output), so Pairs, Circle,
//! War of the gods and Diplomacy join this fuzzer by themselves once the engine plays them.
//!
//! Each game: a random seat count the format allows, random decks (distinct factions up to
//! four seats, repeats above: `rules.allow_mirror`), a random or heuristic-family bot per
//! seat, the whole state checked after every action (`play_one(.., check = true)`). Every
//! game must end or be reported unfinished by the safety cap, with no panic and no broken
//! invariant, and its outcome must fit the format: the winner column names a seat that won,
//! the winners are closed under the seating's allies (a team wins together, E87), nobody wins
//! an unfinished game, and in a last-standing or team format the survivors are the winners.
//!
//! Sizes from the environment (the defaults are the CI size, a few seconds in release on
//! 2 cores):
//!   KETHARMAD_FORMATS_FUZZ_GAMES  games per format (2000)
//!   KETHARMAD_FORMATS_FUZZ_SEED   base seed (0): another seed, other games
//! The big run: KETHARMAD_FORMATS_FUZZ_GAMES=50000 cargo test --release --test formats_fuzz -- --nocapture

use ketharmad::batch::{play_one, BatchSpec, GameResult};
use ketharmad::bots::BotSpec;
use ketharmad::cards::formats::Scoring;
use ketharmad::cards::{build_db, load_raw, CardDb, ParamValue, RawDb};
use ketharmad::engine::Seating;
use ketharmad::rng::Rng;
use rayon::prelude::*;

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|s| s.parse().ok()).unwrap_or(default)
}

fn raw() -> RawDb {
    load_raw(ketharmad::DEFAULT_CARD_DATA).unwrap()
}

/// The card set playing format `name` (mirrors allowed: more seats than factions).
fn db_for(raw: &RawDb, name: &str) -> Result<CardDb, String> {
    build_db(raw, &[("rules.format".into(), ParamValue::Str(name.into())), ("rules.allow_mirror".into(), ParamValue::Bool(true))])
}

fn bot(rng: &mut Rng) -> BotSpec {
    let kind = ["random", "heuristic", "aggro", "control"][rng.below(4)];
    BotSpec::parse(kind, vec![]).unwrap()
}

/// Random decks for `n` seats: distinct factions up to four, then repeats.
fn factions(rng: &mut Rng, n: usize) -> Vec<u8> {
    let mut f = vec![0u8, 1, 2, 3];
    rng.shuffle(&mut f);
    (0..n).map(|i| if i < 4 { f[i] } else { rng.below(4) as u8 }).collect()
}

fn spec(factions: Vec<u8>, bots: Vec<BotSpec>, seed: u64) -> BatchSpec {
    BatchSpec { factions, bots, games: 1, seed, threads: Some(1), start_player: None, ..Default::default() }
}

/// The seat counts the core plays `db`'s format with (empty, with the core's reason, when
/// it plays none).
fn played_seats(db: &CardDb) -> (Vec<usize>, String) {
    let f = &db.rules.format;
    let mut ok = Vec::new();
    let mut why = String::new();
    for n in f.seats_min..=f.seats_max {
        let s = spec((0..n).map(|i| (i % 4) as u8).collect(), vec![BotSpec::random(); n], 0);
        match s.validate(db) {
            Ok(()) => ok.push(n),
            Err(e) => why = e,
        }
    }
    (ok, why)
}

/// Play one game with the invariant checks; panics with the context on anything wrong.
fn checked(db: &CardDb, s: &BatchSpec, ctx: &str) -> GameResult {
    let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| play_one(db, s, 0, false, true).0));
    let r = match run {
        Ok(r) => r,
        Err(e) => panic!("{ctx}: game of batch seed {} panicked: {}", s.seed, ketharmad::harness::panic_message(&*e)),
    };
    let n = s.factions.len();
    let bots: Vec<String> = s.bots.iter().map(|b| b.label()).collect();
    let at = format!("{ctx}: factions {:?} bots {bots:?} (batch seed {}, game seed {})", s.factions, s.seed, r.seed);
    if let Some(e) = &r.invariant_error {
        panic!("{at}: invariant broken: {e}");
    }
    let won: Vec<bool> = (0..n).map(|q| r.players[q].won).collect();
    if r.end_reason >= 2 {
        assert_eq!(r.winner, -1, "{at}: an unfinished game has no winner");
        assert!(!won.iter().any(|&w| w), "{at}: a seat won an unfinished game");
        return r;
    }
    assert!(r.winner >= 0 && (r.winner as usize) < n, "{at}: finished game without a winner");
    assert!(won[r.winner as usize], "{at}: the winner column names a seat that did not win");
    let seating = Seating::of_format(&db.rules.format, n).unwrap();
    for p in (0..n).filter(|&p| won[p]) {
        for q in (0..n).filter(|&q| seating.allies(p).contains(q)) {
            assert!(won[q], "{at}: seat {p} won without its ally {q}");
        }
    }
    let scoring = &db.rules.format.scoring;
    if r.end_reason == 0 && matches!(scoring, Scoring::LastStanding | Scoring::Team) {
        for (q, (&w, p)) in won.iter().zip(&r.players).enumerate() {
            assert_eq!(w, !p.eliminated, "{at}: the survivors are not exactly the winners (seat {q})");
        }
    }
    r
}

#[test]
fn every_played_format_keeps_the_invariants() {
    let raw = raw();
    let games = env("KETHARMAD_FORMATS_FUZZ_GAMES", 2000);
    let seed = env("KETHARMAD_FORMATS_FUZZ_SEED", 0);
    let mut played = Vec::new();
    for (k, f) in raw.formats.iter().enumerate() {
        let name = f.name.clone();
        let db = match db_for(&raw, &name) {
            Ok(db) => db,
            Err(e) => panic!("format {name}: the shipped format does not build a card set: {e}"),
        };
        let (seats, why) = played_seats(&db);
        if seats.is_empty() {
            println!("format {name}: skipped, the engine does not play it ({why})");
            continue;
        }
        let base = seed.wrapping_add(1_000_003 * k as u64);
        let out: Vec<(u64, u64, usize)> = (0..games)
            .into_par_iter()
            .map(|i| {
                let mut rng = Rng::new(base ^ (i.wrapping_mul(0x9E37_79B9_7F4A_7C15)));
                let n = seats[rng.below(seats.len())];
                let s = spec(factions(&mut rng, n), (0..n).map(|_| bot(&mut rng)).collect(), base.wrapping_add(i));
                let r = checked(&db, &s, &format!("format {name}, game {i}"));
                ((r.end_reason >= 2) as u64, r.turns as u64, n)
            })
            .collect();
        let unfinished: u64 = out.iter().map(|x| x.0).sum();
        let turns: u64 = out.iter().map(|x| x.1).sum();
        let mut by_n = [0u64; 10];
        for x in &out {
            by_n[x.2] += 1;
        }
        println!(
            "format {name}: {games} games, seats {:?} ({}), {unfinished} unfinished, {:.1} turns on average",
            seats,
            seats.iter().map(|&n| format!("{n}: {}", by_n[n])).collect::<Vec<_>>().join(", "),
            turns as f64 / games as f64
        );
        assert!(unfinished * 20 <= games, "format {name}: {unfinished} of {games} games unfinished");
        if games >= 50 {
            for &n in &seats {
                assert!(by_n[n] > 0, "format {name}: no game of {n} seats was sampled");
            }
        }
        played.push(name);
    }
    // the formats the engine plays today are among them (more join as they are built)
    for name in ["ffa", "quick", "coalition"] {
        assert!(played.iter().any(|p| p == name), "format {name} was not fuzzed: {played:?}");
    }
}
