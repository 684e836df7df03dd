//! War of the gods (rules.md "Optional multiplayer formats" V4, TF 169.4; docs/formats.md):
//! `rules.format = "gods"`, 5 to 9 seats with a fixed enemy graph (seat i plays the i-th god of
//! the table), read symmetrically (default) or directed. Campaigns, Exposés, "opponent" card
//! text and Voter takeover credit follow the enemy set; a seat whose enemies are all out acts
//! against every seat (`no_enemy_left = "any"`). Nine seats need the lifted card limit.

use ketharmad::batch::{play_one, run_batch, BatchSpec, GameResult};
use ketharmad::bots::BotSpec;
use ketharmad::cards::{build_db, load_raw, CardDb, ParamValue, TargetKind};
use ketharmad::engine::{scenario, Game, Opt};

fn gods_db(extra: &[(&str, ParamValue)]) -> CardDb {
    let raw = load_raw(ketharmad::DEFAULT_CARD_DATA).unwrap();
    let mut o = vec![("rules.format".to_string(), ParamValue::Str("gods".into())), ("rules.allow_mirror".to_string(), ParamValue::Bool(true))];
    o.extend(extra.iter().map(|(k, v)| (k.to_string(), v.clone())));
    build_db(&raw, &o).unwrap()
}

fn directed() -> (&'static str, ParamValue) {
    ("format.gods.graph_reading", ParamValue::Str("directed".into()))
}

const NINE: [&str; 9] = ["ner", "osszefogas", "tisza", "radikalisok", "ner", "osszefogas", "tisza", "radikalisok", "ner"];

fn game<'db>(db: &'db CardDb, n: usize) -> Game<'db> {
    scenario::game(db, &NINE[..n])
}

fn supports(g: &Game) -> Vec<i32> {
    (0..g.state().n).map(|p| g.support_of(p)).collect()
}

// V4: the enemy table with gods as seats 0-8 (Fairlight, Sheran, Tharr, Raia, Elenios, Rhatt,
// Leah, Dornodon, Chara-din). Symmetric closure: four enemies each; directed: the listed three.
#[test]
fn v4_enemy_graph_readings() {
    let db = gods_db(&[]);
    let g = game(&db, 9);
    assert_eq!(g.opponents(0).collect::<Vec<_>>(), vec![2, 3, 4, 6], "Fairlight: Tharr, Raia, Leah + Elenios lists her");
    assert!((0..9).all(|p| g.opponents(p).count() == 4));
    let d = gods_db(&[directed()]);
    let g = game(&d, 9);
    assert_eq!(g.opponents(0).collect::<Vec<_>>(), vec![2, 3, 6]);
    assert_eq!(g.opponents(6).collect::<Vec<_>>(), vec![1, 4, 5], "Leah lists Rhatt, Sheran, Elenios");
    assert!(g.is_enemy(4, 0) && !g.is_enemy(0, 4), "Elenios lists Fairlight, not the other way round");
}

// V4: Campaign targets follow the enemy set, in both readings.
#[test]
fn v4_campaign_targets_follow_the_graph() {
    for (db, want) in [(gods_db(&[]), vec![2u8, 3, 4, 6]), (gods_db(&[directed()]), vec![2, 3, 6])] {
        let mut g = game(&db, 9);
        let s = g.put_in_play(0, "ner_orban_viktor");
        let t = g.put_in_play(0, "ner_gulyas_gergely");
        let mut h = game(&db, 9);
        let s2 = h.put_in_play(0, "ner_orban_viktor");
        let t2 = h.put_in_play(0, "ner_gulyas_gergely");
        h.script(0, &[Opt::Attack(s2, 1)]);
        let refused = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| h.campaign())).unwrap_err();
        let msg = ketharmad::harness::panic_message(&*refused);
        let opts: Vec<String> = [s2, t2].iter().flat_map(|&c| want.iter().map(move |q| format!("Attack({c}, {q})"))).collect();
        assert!(msg.contains(&format!("not among the options [{}]", opts.join(", "))), "{msg}");
        g.script(0, &[Opt::Attack(s, 6), Opt::Attack(t, 6)]);
        g.campaign();
        assert_eq!(g.script_left(0), 0);
        let sup = supports(&g);
        assert!(sup[6] < 20 && sup.iter().enumerate().all(|(q, &v)| q == 6 || v == 20), "{sup:?}");
    }
}

// V4: Exposé options and "opponent" card text (the Target "opponent" of Novák Előd and the
// like) follow the enemy set. Six seats (Fairlight … Rhatt): Tharr (2) lists Fairlight,
// Sheran and Rhatt; Rhatt (5) lists only unseated gods, so in the directed reading it has no
// enemy seated and acts against every seat (`no_enemy_left = "any"`), in the symmetric one
// Tharr (who lists Rhatt) is its enemy.
#[test]
fn v4_expose_and_opponent_text_follow_the_graph() {
    for reading in ["symmetric", "directed"] {
        let db = gods_db(&[("format.gods.graph_reading", ParamValue::Str(reading.into()))]);
        let mut g = scenario::game(&db, &["ner", "osszefogas", "tisza", "radikalisok", "ner", "radikalisok"]);
        assert_eq!(g.opponents(2).collect::<Vec<_>>(), vec![5, 0, 1], "{reading}");
        let rhatt: Vec<usize> = g.opponents(5).collect();
        let want5 = if reading == "symmetric" { vec![2] } else { vec![0, 1, 2, 3, 4] };
        assert_eq!(rhatt, want5, "{reading}");
        for q in 0..6 {
            g.state_mut().set_scandal(q, 2);
        }
        g.add_bases(2, 1, 3);
        g.state_mut().active = 2;
        g.main_options(2);
        let exposes: Vec<Opt> = g.opts().iter().copied().filter(|o| matches!(o, Opt::Expose(_))).collect();
        assert_eq!(exposes, vec![Opt::Expose(5), Opt::Expose(0), Opt::Expose(1)], "{reading}: Exposé options of Tharr");
        let src = g.put_in_play(2, "tis_forsthoffer_agnes");
        let mut v = Vec::new();
        g.for_each_target(2, TargetKind::Opponent, src, |o| v.push(o));
        assert_eq!(v, vec![Opt::Player(5), Opt::Player(0), Opt::Player(1)], "{reading}");
        let mut v = Vec::new();
        g.for_each_target(5, TargetKind::Opponent, src, |o| v.push(o));
        assert_eq!(v, want5.iter().map(|&q| Opt::Player(q as u8)).collect::<Vec<_>>(), "{reading}");
    }
}

// V4: "each opponent" reaches each enemy only (Kordonbontás: each opponent loses 1 Support).
#[test]
fn v4_each_opponent_is_each_enemy() {
    let db = gods_db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "ner", "osszefogas", "tisza", "ner", "tisza", "ner"]);
    let c = g.put_in_hand(0, "rad_kordonbontas");
    g.add_bases(0, 2, 3);
    g.play_card(0, c);
    g.resolve_top();
    // Fairlight (0): enemies Tharr 2, Raia 3, Elenios 4, Leah 6
    assert_eq!(supports(&g), vec![20, 20, 19, 19, 19, 20, 19]);
}

// V4: Voter takeover credit follows the enemy set: knocking out a seat that is not your enemy
// gains nothing; an enemy: the usual 5 (R15.4).
#[test]
fn v4_voter_takeover_credit_follows_the_graph() {
    let db = gods_db(&[]);
    let mut g = game(&db, 9);
    g.state_mut().active = 0;
    g.lose_support(1, 20, 0); // Sheran is not Fairlight's enemy
    g.state_check();
    assert!(!g.state().players[1].alive);
    assert_eq!(g.support_of(0), 20, "no Voter takeover for a non-enemy");
    g.lose_support(2, 20, 0); // Tharr is
    g.state_check();
    assert_eq!(g.support_of(0), 25);
}

// V4 (`no_enemy_left = "any"`): a seat whose enemies are all out may act against every seat
// still in, recomputed at each elimination; "none": against no one, and it starts no Campaign.
#[test]
fn v4_no_enemy_left() {
    let db = gods_db(&[]);
    // five seats: Elenios (4) has one enemy seated, Fairlight (0)
    let mut g = game(&db, 5);
    assert_eq!(g.opponents(4).collect::<Vec<_>>(), vec![0]);
    g.lose_support(0, 20, -1);
    g.state_check();
    assert_eq!(g.opponents(4).collect::<Vec<_>>(), vec![1, 2, 3], "every seat still in");
    assert_eq!(g.opponents(2).collect::<Vec<_>>(), vec![1], "Tharr still has Sheran");
    let none = gods_db(&[("format.gods.no_enemy_left", ParamValue::Str("none".into()))]);
    let mut g = game(&none, 5);
    g.lose_support(0, 20, -1);
    g.state_check();
    assert_eq!(g.opponents(4).count(), 0);
    g.put_in_play(4, "ner_orban_viktor");
    g.state_mut().active = 4;
    assert!(!g.can_start_campaign(4), "nobody to attack");
}

fn spec(decks: &[&str], bots: Vec<BotSpec>, seed: u64, games: u64, db: &CardDb) -> BatchSpec {
    let (factions, decks) = ketharmad::cards::decks::parse_decks(db, &decks.iter().map(|s| s.to_string()).collect::<Vec<_>>()).unwrap();
    BatchSpec { factions, decks, bots, games, seed, threads: Some(1), start_player: None }
}

// Seat counts: 5 to 9 decks in war of the gods (mirrored or Mixed decks), 2-4 elsewhere; the
// box's four decks need `rules.allow_mirror`.
#[test]
fn v4_deck_counts() {
    let db = gods_db(&[]);
    let bots = |n: usize| vec![BotSpec::random(); n];
    let e = spec(&NINE[..4], bots(4), 1, 1, &db).validate(&db).unwrap_err();
    assert!(e.contains("gods format needs 5 to 9 decks, got 4"), "{e}");
    spec(&NINE[..5], bots(5), 1, 1, &db).validate(&db).unwrap();
    spec(&NINE, bots(9), 1, 1, &db).validate(&db).unwrap();
    let no_mirror = build_db(&load_raw(ketharmad::DEFAULT_CARD_DATA).unwrap(), &[("rules.format".into(), ParamValue::Str("gods".into()))]).unwrap();
    let e = spec(&NINE[..5], bots(5), 1, 1, &no_mirror).validate(&no_mirror).unwrap_err();
    assert!(e.contains("allow_mirror"), "{e}");
    let ffa = build_db(&load_raw(ketharmad::DEFAULT_CARD_DATA).unwrap(), &[("rules.allow_mirror".into(), ParamValue::Bool(true))]).unwrap();
    let e = spec(&NINE[..5], bots(5), 1, 1, &ffa).validate(&ffa).unwrap_err();
    assert!(e.contains("ffa format needs 2 to 4 decks, got 5"), "{e}");
}

/// Check one finished gods game: last standing wins (R1.3).
fn check_game(r: &GameResult, n: usize, ctx: &str) -> Option<usize> {
    if let Some(e) = &r.invariant_error {
        panic!("{ctx}: invariant broken: {e}");
    }
    let p = &r.players[..n];
    assert!(p.iter().all(|s| s.points.is_nan()), "{ctx}: no victory points in war of the gods");
    if r.end_reason >= 2 {
        assert_eq!(r.winner, -1, "{ctx}");
        return None;
    }
    let w = r.winner as usize;
    assert!(p[w].won && p.iter().filter(|s| s.won).count() == 1, "{ctx}");
    if r.end_reason == 0 {
        assert_eq!(p.iter().filter(|s| !s.eliminated).count(), 1, "{ctx}: one seat left");
        assert!(!p[w].eliminated, "{ctx}");
    }
    Some(w)
}

// V4 in whole games: 5 to 9 seats, mirrored and Mixed decks, both readings, random and
// heuristic-family bots; invariants after every action. `KETHARMAD_GODS_FUZZ_GAMES` games per
// setting (default 40).
#[test]
fn gods_fuzz() {
    let games: u64 = std::env::var("KETHARMAD_GODS_FUZZ_GAMES").ok().and_then(|s| s.parse().ok()).unwrap_or(40);
    let kinds = ["random", "heuristic", "aggro", "control"];
    let mixed: [&str; 9] = ["ner", "osszefogas", "tisza", "radikalisok", "ner+tisza", "osszefogas+radikalisok", "ner+osszefogas", "tisza+radikalisok", "ner+radikalisok"];
    for (reading, decks) in [("symmetric", &NINE), ("directed", &mixed), ("symmetric", &mixed)] {
        let db = gods_db(&[("format.gods.graph_reading", ParamValue::Str(reading.into()))]);
        for n in [5usize, 7, 9] {
            let mut wins = vec![0u32; n];
            let mut unfinished = 0;
            for i in 0..games {
                let bots: Vec<BotSpec> = (0..n).map(|s| BotSpec::parse(kinds[(i as usize + s) % 4], vec![]).unwrap()).collect();
                let sp = spec(&decks[..n], bots, 300 + i, 1, &db);
                sp.validate(&db).unwrap();
                let (r, _) = play_one(&db, &sp, 0, false, true);
                match check_game(&r, n, &format!("{reading} {n} seats {:?} game {i}", &decks[..n])) {
                    Some(w) => wins[w] += 1,
                    None => unfinished += 1,
                }
            }
            eprintln!("gods fuzz {reading} {n} seats ({}): wins {wins:?}, unfinished {unfinished}", decks[n - 1]);
            assert!(unfinished * 10 <= games as u32, "{reading} {n}: {unfinished} unfinished of {games}");
            assert!(wins.iter().filter(|&&w| w > 0).count() >= n / 2, "{reading} {n}: {wins:?}");
        }
    }
}

// Nine seats play to the end and the same seed gives the same games on one or two threads.
#[test]
fn nine_seats_reproducible_across_threads() {
    let db = gods_db(&[]);
    let mut sp = spec(
        &["ner", "tisza", "ner+tisza", "osszefogas", "radikalisok", "tisza", "osszefogas+radikalisok", "ner", "radikalisok"],
        vec![BotSpec::parse("heuristic", vec![]).unwrap(); 9],
        11,
        30,
        &db,
    );
    let one = run_batch(&db, &sp).unwrap();
    sp.threads = Some(2);
    let two = run_batch(&db, &sp).unwrap();
    assert_eq!(one.games.winner, two.games.winner);
    assert_eq!(one.games.actions, two.games.actions);
    assert_eq!(one.players.support, two.players.support);
    assert!(one.games.winner.iter().filter(|&&w| w >= 0).count() >= 27, "{:?}", one.games.winner);
    assert_eq!(one.players.support.len(), 30 * 9);
}
