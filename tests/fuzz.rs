//! Invariant fuzzer: games checking the whole state after every action (`Game::invariants`),
//! in four modes:
//!
//! - `random`: random-policy games, every 2-player faction pair and some 3- and 4-player
//!   seatings;
//! - `bots`: heuristic-family games (the `heuristic`, `aggro` and `control` presets and
//!   heuristics with random knob values, mixed with random seats) in random seatings of 2 to 4
//!   players — they reach long, board-heavy games the random policy rarely sees;
//! - `search`: the search bot (few iterations) against the heuristic family;
//! - `params`: random parameter overrides sampled inside the declared ranges of the parameter
//!   registry (`ketharmad.parameters()`), a few at a time, with endpoints favoured; faction
//!   deck `copies` are moved in pairs (one card of a type down, another of the same type up)
//!   so the deck stays legal. Every sampled value must build a card set and be playable.
//!
//! Every game must end (last player standing or simultaneous elimination, checked against
//! R1.3 / R14.5.1) or be reported unfinished by the safety cap; no panic, no broken invariant.
//! A failure names the mode, the seating, the bots, the parameters and the game's seed.
//!
//! Sizes (games), from the environment; the defaults are the CI size (well under a minute in
//! release on 2 cores):
//!   KETHARMAD_FUZZ_GAMES         random games per 2-player faction pair (150; 3-4 players: 30%)
//!   KETHARMAD_FUZZ_BOT_GAMES     heuristic-family games (1000)
//!   KETHARMAD_FUZZ_SEARCH_GAMES  search-bot games (10)
//!   KETHARMAD_FUZZ_PARAM_SETS    random parameter sets (100), each played
//!   KETHARMAD_FUZZ_PARAM_GAMES   games per parameter set (10)
//!   KETHARMAD_FUZZ_SEED          base seed (0): another seed, other games
//! The big run (README "Tests and benchmarks"), about 1.04 million games:
//!   KETHARMAD_FUZZ_GAMES=40000 KETHARMAD_FUZZ_BOT_GAMES=300000 KETHARMAD_FUZZ_SEARCH_GAMES=2000 \
//!   KETHARMAD_FUZZ_PARAM_SETS=2000 KETHARMAD_FUZZ_PARAM_GAMES=100 \
//!   cargo test --release --test fuzz -- --nocapture

use ketharmad::batch::{play_one, BatchSpec, GameResult};
use ketharmad::bots::{heuristic, BotSpec};
use ketharmad::cards::formats::{check_built, Scoring};
use ketharmad::cards::{build_db, load_raw, registry, CardDb, CardType, ParamKind, ParamValue, RawDb, FACTIONS};
use ketharmad::rng::Rng;
use rayon::prelude::*;

fn db() -> CardDb {
    build_db(&raw(), &[]).unwrap()
}

fn raw() -> RawDb {
    load_raw(ketharmad::DEFAULT_CARD_DATA).unwrap()
}

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|s| s.parse().ok()).unwrap_or(default)
}

fn base_seed() -> u64 {
    env("KETHARMAD_FUZZ_SEED", 0)
}

/// Play game `index` of `spec` with invariant checks; panics with the whole context on a
/// broken invariant, an engine panic or an impossible ending. Returns the result.
fn checked_game(db: &CardDb, spec: &BatchSpec, index: u64, context: &str) -> GameResult {
    let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| play_one(db, spec, index, false, true).0));
    let r = match run {
        Ok(r) => r,
        Err(e) => {
            let msg = ketharmad::harness::panic_message(&*e);
            panic!("{context}: game {index} of batch seed {} panicked: {msg}", spec.seed);
        }
    };
    let n = spec.factions.len();
    let at = || format!("{context}: factions {:?} bots {:?} game {index} (game seed {})", spec.factions, labels(spec), r.seed);
    if let Some(e) = &r.invariant_error {
        panic!("{}: invariant broken: {e}", at());
    }
    if r.end_reason < 2 {
        let w = r.winner as usize;
        assert!(r.winner >= 0 && w < n, "{}: finished game without a winner", at());
        let alive = (0..n).filter(|&s| !r.players[s].eliminated).count();
        let coalition = db.rules.format.scoring == Scoring::Team;
        if r.end_reason == 0 {
            // R1.3: the last player remaining wins (Coalition, E87: the last team, both partners)
            assert!(!r.players[w].eliminated, "{}: the winner was eliminated", at());
            assert_eq!(alive, if coalition { 2 } else { 1 }, "{}: game ended with {alive} players left", at());
            assert!((0..n).all(|s| r.players[s].won != r.players[s].eliminated), "{}: the survivors are not exactly the winners", at());
        } else {
            // R14.5.1: everyone left was eliminated at once; the active player (and partner) wins
            assert_eq!(alive, 0, "{}: simultaneous elimination with {alive} players left", at());
        }
        if coalition {
            // E81, E87: partners (seats 0 + 2, 1 + 3) win or lose together
            assert!(r.players[0].won == r.players[2].won && r.players[1].won == r.players[3].won, "{}: partners split", at());
            assert_eq!((0..n).filter(|&s| r.players[s].won).count(), 2, "{}: a team of two wins", at());
            assert!(r.winner == 0 || r.winner == 1, "{}: the winner column is the lower seat of the team", at());
        }
    } else {
        assert_eq!(r.winner, -1, "{}: an unfinished game has no winner", at());
    }
    r
}

fn labels(spec: &BatchSpec) -> Vec<String> {
    spec.bots.iter().map(|b| b.label()).collect()
}

fn spec(factions: Vec<u8>, bots: Vec<BotSpec>, seed: u64) -> BatchSpec {
    BatchSpec { factions, bots, games: 1, seed, threads: Some(1), start_player: None, ..Default::default() }
}

/// 2 to 4 distinct factions in a random seating.
fn seating(rng: &mut Rng) -> Vec<u8> {
    let n = 2 + rng.below(3);
    let mut f = vec![0u8, 1, 2, 3];
    rng.shuffle(&mut f);
    f.truncate(n);
    f
}

/// A bot of the heuristic family: a preset, or a heuristic with random knob values.
fn heuristic_bot(rng: &mut Rng) -> BotSpec {
    match rng.below(4) {
        0 => BotSpec::parse("heuristic", vec![]).unwrap(),
        1 => BotSpec::parse("aggro", vec![]).unwrap(),
        2 => BotSpec::parse("control", vec![]).unwrap(),
        _ => {
            let knobs = heuristic::KNOBS.iter().map(|k| (k.0.to_string(), unit(rng))).collect();
            BotSpec::parse("heuristic", knobs).unwrap()
        }
    }
}

/// A number in 0..=1 with the endpoints favoured.
fn unit(rng: &mut Rng) -> f64 {
    match rng.below(5) {
        0 => 0.0,
        1 => 1.0,
        _ => rng.below(1001) as f64 / 1000.0,
    }
}

/// Run `games` games, each built by `make(index)` (a spec and its label), on all cores.
fn run_all<F>(db: &CardDb, games: u64, make: F) -> (u64, u64)
where
    F: Fn(u64) -> (BatchSpec, String) + Sync,
{
    let out: Vec<(u64, u64)> = (0..games)
        .into_par_iter()
        .map(|i| {
            let (s, ctx) = make(i);
            let r = checked_game(db, &s, 0, &ctx);
            ((r.end_reason >= 2) as u64, r.turns as u64)
        })
        .collect();
    out.iter().fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
}

// ----- random policy -------------------------------------------------------------------------

fn fuzz_random(db: &CardDb, factions: Vec<u8>, n: u64, seed: u64) -> u64 {
    let s = BatchSpec { bots: vec![BotSpec::random(); factions.len()], factions, games: n, seed, threads: Some(1), start_player: None, ..Default::default() };
    let unfinished: u64 = (0..n).into_par_iter().map(|i| (checked_game(db, &s, i, "random").end_reason >= 2) as u64).sum();
    unfinished
}

#[test]
fn random_two_player_every_pair() {
    let db = db();
    let n = env("KETHARMAD_FUZZ_GAMES", 150);
    for a in 0..4u8 {
        for b in 0..4u8 {
            if a != b {
                let unf = fuzz_random(&db, vec![a, b], n, base_seed() + 1000 + a as u64 * 10 + b as u64);
                assert!(unf * 20 <= n, "{unf} of {n} games unfinished for {a} vs {b}");
            }
        }
    }
}

#[test]
fn random_three_and_four_player() {
    let db = db();
    let n = env("KETHARMAD_FUZZ_GAMES", 150);
    for f in [vec![0u8, 1, 2], vec![1, 2, 3], vec![3, 0, 2], vec![0, 1, 2, 3], vec![3, 2, 1, 0]] {
        fuzz_random(&db, f.clone(), (n * 3 / 10).max(30), base_seed() + 77 + f.len() as u64);
    }
}

// ----- heuristic family and search -----------------------------------------------------------

#[test]
fn heuristic_family_random_seatings() {
    let db = db();
    let n = env("KETHARMAD_FUZZ_BOT_GAMES", 1000);
    let seed = base_seed() ^ 0xB075;
    let (unf, turns) = run_all(&db, n, |i| {
        let mut rng = Rng::stream(seed, i);
        let f = seating(&mut rng);
        // mostly heuristic seats, now and then a random one
        let bots = f.iter().map(|_| if rng.below(6) == 0 { BotSpec::random() } else { heuristic_bot(&mut rng) }).collect();
        (spec(f, bots, seed.wrapping_add(i)), "bots".to_string())
    });
    assert!(unf * 20 <= n.max(20), "{unf} of {n} heuristic games unfinished");
    eprintln!("bots: {n} games, {turns} turns, {unf} unfinished");
}

#[test]
fn search_bot_small() {
    let db = db();
    let n = env("KETHARMAD_FUZZ_SEARCH_GAMES", 10);
    let seed = base_seed() ^ 0x5EA4;
    let (unf, turns) = run_all(&db, n, |i| {
        let mut rng = Rng::stream(seed, i);
        let f = seating(&mut rng);
        let k = f.len();
        let searcher = rng.below(k);
        let iterations = 1 + rng.below(4) as u32;
        let bots = (0..k)
            .map(|s| if s == searcher { BotSpec::parse("search", vec![("iterations".into(), iterations as f64), ("width".into(), 2.0)]).unwrap() } else { heuristic_bot(&mut rng) })
            .collect();
        (spec(f, bots, seed.wrapping_add(i)), "search".to_string())
    });
    eprintln!("search: {n} games, {turns} turns, {unf} unfinished");
}

// ----- random parameters ---------------------------------------------------------------------

/// A random set of parameter overrides inside the declared ranges: 1 to 6 parameters, plus now
/// and then a legal copies swap in a faction deck. Safety caps are kept small (a larger cap
/// only lets an endless game run longer).
fn sample_params(raw: &RawDb, rng: &mut Rng) -> Vec<(String, ParamValue)> {
    let reg = registry(raw);
    let faction_card = |card: &str| raw.cards.iter().find(|c| c.id == card).is_some_and(|c| FACTIONS.contains(&c.faction.as_str()));
    // format.NAME.* values recombine mechanisms (tests/formats.rs fuzzes every format); here
    // only the choice of format is sampled, among the formats the engine plays
    let pool: Vec<_> = reg.iter().filter(|p| !(p.name.starts_with("format.") || (p.name.ends_with(".copies") && faction_card(&p.card)))).collect();
    let mut out: Vec<(String, ParamValue)> = Vec::new();
    let k = 1 + rng.below(6);
    for _ in 0..k {
        let p = pool[rng.below(pool.len())];
        if out.iter().any(|o| o.0 == p.name) {
            continue;
        }
        let v = match p.kind {
            ParamKind::Int => {
                let (lo, mut hi) = (p.min, p.max);
                if p.name == "rules.max_rounds" {
                    hi = hi.min(300);
                } else if p.name == "rules.max_actions_per_turn" {
                    hi = hi.min(1000);
                }
                let x = match rng.below(4) {
                    0 => lo,
                    1 => hi,
                    _ => lo + rng.below((hi - lo + 1) as usize) as i64,
                };
                ParamValue::Int(x)
            }
            ParamKind::Bool => ParamValue::Bool(rng.below(2) == 1),
            ParamKind::Choice => {
                let choices: Vec<&String> = if p.name == "rules.format" {
                    raw.formats.iter().filter(|f| check_built(&f.spec).is_ok() && f.spec.seats_min <= 4).map(|f| &f.name).collect()
                } else {
                    p.choices.iter().collect()
                };
                ParamValue::Str(choices[rng.below(choices.len())].clone())
            }
            ParamKind::Cost => {
                let mut s = format!("{{{}}}", rng.below(5));
                for pip in ["F", "M", "U"] {
                    for _ in 0..rng.below(3) {
                        s.push_str(&format!("{{{pip}}}"));
                    }
                }
                ParamValue::Str(s)
            }
        };
        out.push((p.name.clone(), v));
    }
    if rng.below(3) == 0 {
        // move one copy between two cards of the same type class in one faction deck
        let f = FACTIONS[rng.below(4)];
        let class = |t: &str| match CardType::parse(t) {
            Some(CardType::Base) => 0,
            Some(t) if t.is_figure() => 1,
            _ => 2,
        };
        let cards: Vec<_> = raw.cards.iter().filter(|c| c.faction == f).collect();
        let a = cards[rng.below(cards.len())];
        let same: Vec<_> = cards.iter().filter(|c| c.id != a.id && class(&c.ctype) == class(&a.ctype)).collect();
        let max = |c: &ketharmad::cards::loader::RawCard| reg.iter().find(|p| p.name == format!("{}.copies", c.id)).unwrap().max;
        if let Some(b) = same.get(rng.below(same.len().max(1))) {
            if a.copies > 0 && b.copies < max(b) && !out.iter().any(|o| o.0.ends_with(".copies")) {
                out.push((format!("{}.copies", a.id), ParamValue::Int(a.copies - 1)));
                out.push((format!("{}.copies", b.id), ParamValue::Int(b.copies + 1)));
            }
        }
    }
    out
}

#[test]
fn random_parameters_in_range() {
    let raw = raw();
    let sets = env("KETHARMAD_FUZZ_PARAM_SETS", 100);
    let per = env("KETHARMAD_FUZZ_PARAM_GAMES", 10);
    let seed = base_seed() ^ 0xA4A3;
    let results: Vec<(u64, u64)> = (0..sets)
        .into_par_iter()
        .map(|k| {
            let mut rng = Rng::stream(seed, k);
            let params = sample_params(&raw, &mut rng);
            let db = build_db(&raw, &params).unwrap_or_else(|e| panic!("in-range parameters {params:?} were refused: {e}"));
            let mut f = seating(&mut rng);
            let (lo, hi) = (db.rules.format.seats_min.max(2), db.rules.format.seats_max.min(4));
            if !(lo..=hi).contains(&f.len()) {
                // the format's seat count (Coalition: four decks, E81)
                f = vec![0, 1, 2, 3];
                rng.shuffle(&mut f);
                f.truncate(lo + rng.below(hi - lo + 1));
            }
            let bots: Vec<BotSpec> = f.iter().map(|_| if rng.below(2) == 0 { BotSpec::random() } else { heuristic_bot(&mut rng) }).collect();
            let mut s = spec(f, bots, seed.wrapping_add(k * 1_000_003));
            s.games = per;
            let ctx = format!("params {params:?}");
            let mut unf = 0;
            for i in 0..per {
                unf += (checked_game(&db, &s, i, &ctx).end_reason >= 2) as u64;
            }
            (unf, per)
        })
        .collect();
    let (unf, games) = results.iter().fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    eprintln!("params: {sets} sets, {games} games, {unf} unfinished");
}

// The parameter sampler really reaches the edges it is meant to: both ends of the int ranges,
// costs, bools, choices and copies swaps, and every sampled set builds.
#[test]
fn parameter_sampler_covers_the_registry() {
    let raw = raw();
    // format.NAME.* values are not sampled here (tests/formats.rs)
    let reg: Vec<_> = registry(&raw).into_iter().filter(|p| !p.name.starts_with("format.")).collect();
    let mut rng = Rng::new(3);
    let mut seen_min = std::collections::HashSet::new();
    let mut seen_max = std::collections::HashSet::new();
    let (mut costs, mut bools, mut swaps, mut coalition) = (0, 0, 0, 0);
    for _ in 0..4000 {
        let o = sample_params(&raw, &mut rng);
        build_db(&raw, &o).unwrap_or_else(|e| panic!("{o:?}: {e}"));
        for (name, v) in &o {
            let p = reg.iter().find(|p| &p.name == name).unwrap();
            match v {
                ParamValue::Int(x) if *x == p.min => {
                    seen_min.insert(name.clone());
                }
                ParamValue::Int(x) if *x == p.max => {
                    seen_max.insert(name.clone());
                }
                ParamValue::Str(s) if s.starts_with('{') => costs += 1,
                ParamValue::Str(s) if s == "coalition" => coalition += 1,
                ParamValue::Bool(_) => bools += 1,
                _ => {}
            }
        }
        swaps += o.iter().filter(|x| x.0.ends_with(".copies")).count() / 2;
    }
    assert!(seen_min.len() > reg.len() / 2 && seen_max.len() > reg.len() / 3, "{} / {} of {}", seen_min.len(), seen_max.len(), reg.len());
    assert!(seen_min.contains("ev_veszelyhelyzet.max_attackers"));
    assert!(costs > 0 && bools > 0 && swaps > 100);
    // the Coalition format (rules.format) is among the sampled sets: random_parameters_in_range
    // then plays it with four decks
    assert!(coalition > 0, "rules.format = coalition never sampled");
}

// ----- Mixed decks and custom lists (docs/decks.md) --------------------------------------------

/// Games with Mixed decks (E90) and custom lists: random seatings of 2 to 4 seats whose decks
/// are Mixed pairs, faction decks and (with `rules.allow_mirror`) lists drawn from a Mixed
/// game's deal, random and heuristic-family bots. KETHARMAD_FUZZ_DECK_GAMES (300).
#[test]
fn decks_mixed_and_custom() {
    use ketharmad::cards::decks::parse_decks;
    let db = db();
    let mirror = build_db(&raw(), &[("rules.allow_mirror".to_string(), ParamValue::Bool(true))]).unwrap();
    let n = env("KETHARMAD_FUZZ_DECK_GAMES", 300);
    let make = |i: u64| -> (BatchSpec, String, bool) {
        let mut rng = Rng::new(base_seed() ^ 0xDEC5 ^ i.wrapping_mul(0x9E37_79B9));
        let mut f = vec![0u8, 1, 2, 3];
        rng.shuffle(&mut f);
        // two Mixed decks, or one Mixed and one or two faction decks, or (mirrors allowed)
        // Mixed decks and faction decks freely, with a custom list
        let (decks, mirrors): (Vec<String>, bool) = match rng.below(3) {
            0 => (vec![format!("{}+{}", FACTIONS[f[0] as usize], FACTIONS[f[1] as usize]), format!("{}+{}", FACTIONS[f[2] as usize], FACTIONS[f[3] as usize])], false),
            1 => {
                let mut d = vec![format!("{}+{}", FACTIONS[f[0] as usize], FACTIONS[f[1] as usize]), FACTIONS[f[2] as usize].to_string()];
                if rng.below(2) == 1 {
                    d.push(FACTIONS[f[3] as usize].to_string());
                }
                (d, false)
            }
            _ => {
                let seats = 2 + rng.below(3);
                let mut d: Vec<String> = (0..seats)
                    .map(|_| {
                        let a = rng.below(4);
                        let b = (a + 1 + rng.below(3)) % 4;
                        if rng.below(3) == 0 {
                            FACTIONS[a].to_string()
                        } else {
                            format!("{}+{}", FACTIONS[a], FACTIONS[b])
                        }
                    })
                    .collect();
                // a custom list: the NER deck less one copy of a two-copy card plus one more
                // copy of nothing else would be illegal; take the whole NER deck as a list
                let mut counts: Vec<(String, usize)> = Vec::new();
                for &c in &mirror.decks[0] {
                    let id = &mirror.def(c).id;
                    match counts.iter_mut().find(|(x, _)| x == id) {
                        Some(e) => e.1 += 1,
                        None => counts.push((id.clone(), 1)),
                    }
                }
                d[0] = format!("list_ner[{}]", counts.iter().map(|(x, k)| format!("{x}*{k}")).collect::<Vec<_>>().join(","));
                (d, true)
            }
        };
        let use_db = if mirrors { &mirror } else { &db };
        let (factions, deck_list) = parse_decks(use_db, &decks).unwrap_or_else(|e| panic!("{decks:?}: {e}"));
        let bots: Vec<BotSpec> = (0..factions.len()).map(|_| if rng.below(2) == 0 { BotSpec::random() } else { heuristic_bot(&mut rng) }).collect();
        let s = BatchSpec { factions, decks: deck_list, bots, games: 1, seed: base_seed() + 7000 + i, threads: Some(1), start_player: None };
        s.validate(use_db).unwrap_or_else(|e| panic!("{decks:?}: {e}"));
        let label = format!("decks {decks:?}, bots {:?}, seed {}", labels(&s), s.seed);
        (s, label, mirrors)
    };
    let out: Vec<(u64, u64)> = (0..n)
        .into_par_iter()
        .map(|i| {
            let (s, ctx, mirrors) = make(i);
            let r = checked_game(if mirrors { &mirror } else { &db }, &s, 0, &ctx);
            ((r.end_reason >= 2) as u64, r.turns as u64)
        })
        .collect();
    let unfinished: u64 = out.iter().map(|x| x.0).sum();
    assert!(unfinished * 20 <= n, "{unfinished} of {n} deck games unfinished");
    assert!(out.iter().map(|x| x.1).sum::<u64>() > n * 10, "games too short to mean anything");
}
