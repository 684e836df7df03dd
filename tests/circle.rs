//! The circle: struggle for ultimate power (rules.md "Optional multiplayer formats" V3, TF
//! 169.3; docs/formats.md): `rules.format = "circle"`. Every attacker attacks the left
//! neighbour, the opponents are the two neighbours (recomputed among the survivors), victory
//! points decide the winner. Scenario tests of each rule, then whole games: every option
//! offered in many positions, the invariant fuzzer, reproducibility.

use std::sync::atomic::{AtomicU64, Ordering};

use ketharmad::batch::{play_one, run_batch, BatchSpec, GameResult};
use ketharmad::bots::{BotSpec, Policy};
use ketharmad::cards::{build_db, load_raw, CardDb, ParamValue, TargetKind};
use ketharmad::engine::{scenario, Agent, DecisionKind, EndReason, Game, GameConfig, Opt, SeatView, Seats};
use ketharmad::rng::Rng;

/// The default card set in the circle format, with extra parameter overrides.
fn circle_db(extra: &[(&str, ParamValue)]) -> CardDb {
    let raw = load_raw(ketharmad::DEFAULT_CARD_DATA).unwrap();
    let mut o = vec![("rules.format".to_string(), ParamValue::Str("circle".into()))];
    o.extend(extra.iter().map(|(k, v)| (k.to_string(), v.clone())));
    build_db(&raw, &o).unwrap()
}

fn alive(g: &Game) -> Vec<bool> {
    g.state().players.iter().map(|p| p.alive).collect()
}

fn points(g: &Game) -> Vec<i16> {
    g.state().points[..g.state().n].to_vec()
}

/// The next seat still in after `p` (the left neighbour, R3.10) and the one before it.
fn left_of(alive: &[bool], p: usize) -> usize {
    let n = alive.len();
    (1..n).map(|k| (p + k) % n).find(|&q| alive[q]).unwrap()
}
fn right_of(alive: &[bool], p: usize) -> usize {
    let n = alive.len();
    (1..n).map(|k| (p + n - k) % n).find(|&q| alive[q]).unwrap()
}

// The circle's data: 3-4 seats, neighbours, attack left, victory points 1 and 1.5, no Voter
// takeover, no second-player bonus.
#[test]
fn v3_circle_parameters() {
    let db = circle_db(&[]);
    let f = &db.rules.format;
    assert_eq!((f.seats_min, f.seats_max), (3, 4));
    assert_eq!((f.points_elimination, f.points_last_standing), (10, 15), "tenths: 1 and 1.5 points");
    assert_eq!(db.rules.voter_takeover_gain, 0, "V3: Voter takeover off, the points replace it");
    let spec = |n: usize| BatchSpec { factions: (0..n as u8).collect(), bots: vec![BotSpec::random(); n], games: 1, ..Default::default() };
    let e = spec(2).validate(&db).unwrap_err();
    assert!(e.contains("circle") && e.contains("3 to 4 decks, got 2"), "{e}");
    spec(3).validate(&db).unwrap();
    spec(4).validate(&db).unwrap();
}

// V3: with four seats the opposite seat is not an opponent: it cannot be attacked, exposed or
// targeted by "opponent" card text; "each opponent" reaches only the two neighbours.
#[test]
fn v3_opposite_seat_is_not_an_opponent() {
    let db = circle_db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "ner", "osszefogas", "tisza"]);
    assert_eq!(g.opponents(0).collect::<Vec<_>>(), vec![1, 3]);
    assert_eq!(g.opponents(2).collect::<Vec<_>>(), vec![3, 1]);
    assert!(!g.is_enemy(0, 2) && !g.is_enemy(1, 3));
    // attack: only the left neighbour (seat 1) is offered, for each attacker
    let s = g.put_in_play(0, "rad_sneider_tamas");
    let mut h = scenario::game(&db, &["radikalisok", "ner", "osszefogas", "tisza"]);
    let s2 = h.put_in_play(0, "rad_sneider_tamas");
    let t2 = h.put_in_play(0, "rad_novak_elod");
    h.script(0, &[Opt::Attack(s2, 3)]);
    let refused = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| h.campaign())).unwrap_err();
    let msg = ketharmad::harness::panic_message(&*refused);
    assert!(msg.contains(&format!("not among the options [Attack({s2}, 1), Attack({t2}, 1)]")), "{msg}");
    // the single option (one attacker, one target) is taken without asking (R8.8)
    g.campaign();
    assert_eq!((0..4).map(|p| g.support_of(p)).collect::<Vec<_>>(), vec![20, 18, 20, 20]);
    // Exposé: the two neighbours
    g.state_mut().set_scandal(2, 3);
    g.state_mut().set_scandal(1, 1);
    g.state_mut().set_scandal(3, 1);
    g.add_bases(0, 1, 3);
    g.main_options(0);
    let exposes: Vec<Opt> = g.opts().iter().copied().filter(|o| matches!(o, Opt::Expose(_))).collect();
    assert_eq!(exposes, vec![Opt::Expose(1), Opt::Expose(3)]);
    // "target opponent" (Novák Előd: target opponent loses 1 Support): the neighbours only
    let mut v = Vec::new();
    g.for_each_target(0, TargetKind::Opponent, s, |o| v.push(o));
    assert_eq!(v, vec![Opt::Player(1), Opt::Player(3)]);
    g.script(0, &[Opt::Player(3)]);
    g.enter_free(0, "rad_novak_elod");
    assert_eq!(g.script_left(0), 0);
    assert_eq!((0..4).map(|p| g.support_of(p)).collect::<Vec<_>>(), vec![20, 18, 20, 19]);
}

// V3 "each opponent": Kordonbontás (each opponent loses 1 Support) reaches the neighbours, not
// the seat opposite.
#[test]
fn v3_each_opponent_is_each_neighbour() {
    let db = circle_db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "ner", "osszefogas", "tisza"]);
    let c = g.put_in_hand(0, "rad_kordonbontas");
    g.add_bases(0, 2, 3);
    g.play_card(0, c);
    g.resolve_top();
    assert_eq!((0..4).map(|p| g.support_of(p)).collect::<Vec<_>>(), vec![20, 19, 20, 19]);
    // the same card in the free-for-all hits all three
    let ffa = scenario::db(&[]);
    let mut g = scenario::game(&ffa, &["radikalisok", "ner", "osszefogas", "tisza"]);
    let c = g.put_in_hand(0, "rad_kordonbontas");
    g.add_bases(0, 2, 3);
    g.play_card(0, c);
    g.resolve_top();
    assert_eq!((0..4).map(|p| g.support_of(p)).collect::<Vec<_>>(), vec![20, 19, 19, 19]);
}

// V3 (not in the source, needed by an engine): after an elimination the neighbours are
// recomputed among the survivors, so the circle closes; the attack goes to the new left
// neighbour. Scoring: the eliminated seat's right neighbour gets 1 point.
#[test]
fn v3_neighbours_recomputed_after_an_elimination() {
    let db = circle_db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "ner", "osszefogas", "tisza"]);
    g.lose_support(1, 20, 0);
    g.state_check();
    assert_eq!(alive(&g), vec![true, false, true, true]);
    assert!(g.state().outcome.is_none());
    assert_eq!(points(&g), vec![10, 0, 0, 0], "seat 0, whose left neighbour seat 1 was, scores 1 point");
    // the circle closes: 0 - 2 - 3
    assert_eq!(g.opponents(0).collect::<Vec<_>>(), vec![2, 3]);
    assert_eq!(g.opponents(2).collect::<Vec<_>>(), vec![3, 0]);
    assert!(g.is_enemy(0, 2) && g.is_enemy(2, 0), "the former opposite seats are neighbours now");
    let s = g.put_in_play(0, "rad_sneider_tamas");
    let t = g.put_in_play(0, "rad_novak_elod");
    g.script(0, &[Opt::Attack(s, 2), Opt::Attack(t, 2)]);
    g.campaign();
    assert_eq!(g.script_left(0), 0, "the new left neighbour, seat 2, is attacked");
    assert_eq!((0..4).map(|p| g.support_of(p)).collect::<Vec<_>>(), vec![20, 0, 15, 20], "both attackers hit seat 2, nobody else");
    g.add_bases(0, 1, 3);
    g.state_mut().set_scandal(2, 1);
    g.state_mut().set_scandal(3, 1);
    g.main_options(0);
    let exposes: Vec<Opt> = g.opts().iter().copied().filter(|o| matches!(o, Opt::Expose(_))).collect();
    assert_eq!(exposes, vec![Opt::Expose(2), Opt::Expose(3)]);
}

// V3 scoring with simultaneous eliminations: each eliminated seat's right neighbour among the
// seats in before the check scores, also when that neighbour goes out in the same check; the
// last seat standing gets 1.5 on top; the most points win.
#[test]
fn v3_points_for_simultaneous_eliminations() {
    let db = circle_db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "ner", "osszefogas", "tisza"]);
    g.lose_support(2, 20, -1);
    g.state_check();
    assert_eq!(points(&g), vec![0, 10, 0, 0], "seat 1 scores for seat 2");
    // seats 1 and 3 at once: seat 0 scores for seat 1, seat 1 (out too) for seat 3
    g.lose_support(1, 20, -1);
    g.lose_support(3, 20, -1);
    g.state_check();
    assert_eq!(alive(&g), vec![true, false, false, false]);
    assert_eq!(points(&g), vec![25, 20, 0, 0], "seat 0: 1 + 1.5 for the last standing");
    let out = g.state().outcome.expect("one seat left: the game is over");
    assert_eq!((out.winners, out.reason), (Seats::one(0), EndReason::LastPlayerStanding));
    assert_eq!(out.points.unwrap()[..4], [25, 20, 0, 0]);
}

// V3 tie-break (the spec's candidate): the surviving seat wins a tie, else the tied seats
// share the win; `tie_break = "shared"` always shares.
#[test]
fn v3_tie_break() {
    // no bonus for the last standing, so that an eliminated seat can tie the survivor
    let run = |tie: &str| {
        let db = circle_db(&[("format.circle.points_last_standing", ParamValue::Int(0)), ("format.circle.tie_break", ParamValue::Str(tie.into()))]);
        let mut g = scenario::game(&db, &["ner", "osszefogas", "tisza"]);
        g.lose_support(1, 20, -1);
        g.state_check(); // seat 0 scores for seat 1
        g.lose_support(0, 20, -1);
        g.state_check(); // seat 2 (0's right neighbour among 0, 2) scores for seat 0
        assert_eq!(points(&g), vec![10, 0, 10]);
        g.state().outcome.unwrap().winners
    };
    assert_eq!(run("survivor"), Seats::one(2), "the survivor wins the tie");
    assert_eq!(run("shared"), Seats::one(0).with(2), "a shared win");
    // a tie without the survivor is shared under "survivor" too: seat 0 scores 2 points, the
    // survivor 1; seats 0 and 1 tied on top (points_elimination 1 for the last one)
    let db = circle_db(&[("format.circle.points_last_standing", ParamValue::Int(0))]);
    let mut g = scenario::game(&db, &["ner", "osszefogas", "tisza", "radikalisok"]);
    g.state_mut().points[1] = 20;
    g.lose_support(1, 20, -1);
    g.state_check(); // 0 scores: 10
    g.lose_support(2, 20, -1);
    g.state_check(); // 0 scores again: 20
    g.lose_support(0, 20, -1);
    g.state_check(); // 3 scores: 10, survives
    assert_eq!(points(&g), vec![20, 20, 0, 10]);
    assert_eq!(g.state().outcome.unwrap().winners, Seats::one(0).with(1), "survivor not tied: shared win");
}

// R14.5 in the circle: everyone out at once: every seat scores for its left neighbour and the
// active player counts as the last standing (it would win in the free-for-all).
#[test]
fn v3_everyone_out_at_once() {
    let db = circle_db(&[]);
    let mut g = scenario::game(&db, &["ner", "osszefogas", "tisza"]);
    g.state_mut().active = 1;
    for p in 0..3 {
        g.lose_support(p, 20, -1);
    }
    g.state_check();
    assert_eq!(points(&g), vec![10, 25, 10]);
    let out = g.state().outcome.unwrap();
    assert_eq!((out.winners, out.reason), (Seats::one(1), EndReason::SimultaneousElimination));
}

static ATTACKS_SEEN: AtomicU64 = AtomicU64::new(0);
static EXPOSES_SEEN: AtomicU64 = AtomicU64::new(0);
static BLOCKS_SEEN: AtomicU64 = AtomicU64::new(0);

/// A bot that checks every option it is offered against V3 before it answers: an attack only
/// on the left neighbour among the seats still in, an Exposé only of a neighbour, blocks only
/// by the active player's left neighbour, "opponent" targets only neighbours.
#[derive(Clone)]
struct Checker(Policy);

impl Agent for Checker {
    fn choose(&mut self, view: &SeatView<'_, '_>, kind: DecisionKind, opts: &[Opt]) -> usize {
        let me = view.seat;
        let alive: Vec<bool> = (0..view.n_players()).map(|q| view.alive(q)).collect();
        let (l, r) = (left_of(&alive, me), right_of(&alive, me));
        for o in opts {
            match *o {
                Opt::Attack(_, q) => {
                    assert_eq!(q as usize, l, "seat {me} offered an attack on {q}; alive {alive:?}");
                    ATTACKS_SEEN.fetch_add(1, Ordering::Relaxed);
                }
                Opt::Expose(q) => {
                    assert!(q as usize == l || q as usize == r, "seat {me} offered an Exposé of {q}; alive {alive:?}");
                    EXPOSES_SEEN.fetch_add(1, Ordering::Relaxed);
                }
                Opt::Block(..) => {
                    assert_eq!(me, left_of(&alive, view.active()), "only the attacked left neighbour blocks");
                    BLOCKS_SEEN.fetch_add(1, Ordering::Relaxed);
                }
                _ => {}
            }
        }
        for q in view.opponents(me) {
            assert!(q == l || q == r, "seat {me}: opponent {q} is not a neighbour; alive {alive:?}");
        }
        self.0.choose(view, kind, opts)
    }
    fn clone_agent(&self) -> Box<dyn Agent> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn std::any::Any {
        self
    }
}

// V3 in whole games: every attack, Exposé and block option offered to heuristic-family bots
// in many positions, before and after eliminations, obeys the circle.
#[test]
fn v3_every_option_in_many_positions() {
    let db = circle_db(&[]);
    let kinds = ["heuristic", "aggro", "control"];
    let games: u64 = std::env::var("KETHARMAD_CIRCLE_FUZZ_GAMES").ok().and_then(|s| s.parse().ok()).unwrap_or(120);
    let mut finished = 0;
    for i in 0..games {
        let n = 3 + (i % 2) as usize;
        let factions: Vec<u8> = (0..n).map(|s| ((s + i as usize) % 4) as u8).collect();
        let cfg = GameConfig { factions, seed: 900 + i, start_player: None, ..Default::default() };
        let agents: Vec<Checker> = (0..n).map(|s| Checker(Policy::new(&BotSpec::parse(kinds[(i as usize + s) % 3], vec![]).unwrap(), Rng::new(i * 16 + s as u64)))).collect();
        let mut g = Game::new(&db, &cfg, agents);
        g.trace_mut().check_invariants = true;
        let out = g.run(None);
        assert!(g.trace().invariant_error.is_none(), "game {i}: {:?}", g.trace().invariant_error);
        finished += (out.reason as u8 <= 1) as u32;
    }
    assert!(finished as u64 * 10 >= games * 9, "{finished} of {games} finished");
    let (a, e, b) = (ATTACKS_SEEN.load(Ordering::Relaxed), EXPOSES_SEEN.load(Ordering::Relaxed), BLOCKS_SEEN.load(Ordering::Relaxed));
    eprintln!("circle options checked: {a} attacks, {e} Exposés, {b} blocks");
    assert!(a > 1000 && e > 100 && b > 100, "options checked: {a} attacks, {e} Exposés, {b} blocks");
}

fn spec(factions: Vec<u8>, bots: Vec<BotSpec>, seed: u64, games: u64) -> BatchSpec {
    BatchSpec { factions, bots, games, seed, threads: Some(1), start_player: None, ..Default::default() }
}

/// Check one finished circle game against V3; returns the winners.
fn check_game(r: &GameResult, n: usize, ctx: &str) -> Option<Seats> {
    if let Some(e) = &r.invariant_error {
        panic!("{ctx}: invariant broken: {e}");
    }
    let p = &r.players[..n];
    let pts: Vec<f32> = p.iter().map(|s| s.points).collect();
    assert!(pts.iter().all(|x| x.is_finite() && *x >= 0.0), "{ctx}: points {pts:?}");
    if r.end_reason >= 2 {
        assert_eq!(r.winner, -1, "{ctx}: unfinished, no winner");
        assert!(!p.iter().any(|s| s.won), "{ctx}");
        return None;
    }
    let out = p.iter().filter(|s| s.eliminated).count();
    let standing = n - out;
    assert!(standing <= 1, "{ctx}: the game ends with one seat at most");
    // one point per eliminated seat, 1.5 for the last standing (the active seat if none)
    let total: f32 = pts.iter().sum();
    assert!((total - (out as f32 + 1.5)).abs() < 1e-4, "{ctx}: points {pts:?} for {out} eliminations");
    let best = pts.iter().cloned().fold(f32::MIN, f32::max);
    let winners = Seats(p.iter().enumerate().filter(|(_, s)| s.won).fold(0, |m, (q, _)| m | 1 << q));
    assert!(!winners.is_empty(), "{ctx}");
    for q in winners.iter() {
        assert_eq!(pts[q], best, "{ctx}: winner {q} has the most points {pts:?}");
    }
    let tied = pts.iter().filter(|&&x| x == best).count();
    if winners.len() == 1 && tied > 1 {
        // only the survivor can win a tie alone
        assert!(!p[winners.first().unwrap()].eliminated || standing == 0, "{ctx}: a tie won alone by a survivor");
    }
    assert_eq!(r.winner as usize, winners.first().unwrap(), "{ctx}: the winner column is the lowest winner");
    Some(winners)
}

// The invariant fuzzer over circle games (3 and 4 seats): random and heuristic-family bots,
// every seating in turn, invariants after every action; V3 scoring checked on each result.
// `KETHARMAD_CIRCLE_FUZZ_GAMES` games per seat count (default 300).
#[test]
fn circle_fuzz() {
    let db = circle_db(&[]);
    let games: u64 = std::env::var("KETHARMAD_CIRCLE_FUZZ_GAMES").ok().and_then(|s| s.parse().ok()).unwrap_or(300);
    let kinds = ["random", "heuristic", "aggro", "control"];
    for n in [3usize, 4] {
        let mut wins = vec![0u32; n];
        let mut unfinished = 0;
        let mut survivor_lost = 0;
        for i in 0..games {
            let f: Vec<u8> = (0..n).map(|s| ((s + i as usize) % 4) as u8).collect();
            let bots: Vec<BotSpec> = (0..n).map(|s| BotSpec::parse(kinds[((i / 3) as usize + s) % 4], vec![]).unwrap()).collect();
            let sp = spec(f.clone(), bots, 7000 + i, 1);
            sp.validate(&db).unwrap();
            let (r, _) = play_one(&db, &sp, 0, false, true);
            match check_game(&r, n, &format!("{n} seats, game {i} factions {f:?}")) {
                Some(w) => {
                    for q in w.iter() {
                        wins[q] += 1;
                    }
                    survivor_lost += w.iter().all(|q| r.players[q].eliminated) as u32;
                }
                None => unfinished += 1,
            }
        }
        eprintln!("circle fuzz, {n} seats: {games} games, wins by seat {wins:?}, unfinished {unfinished}, won by an eliminated seat {survivor_lost}");
        assert!(wins.iter().all(|&w| w > 0), "every seat wins some games: {wins:?}");
        assert!(unfinished * 20 < games as u32, "few unfinished games: {unfinished}");
    }
}

// Same seed in, same games out: one thread or two give the same columns (the points too).
#[test]
fn circle_is_reproducible_across_threads() {
    let db = circle_db(&[]);
    let mut sp = spec(vec![2, 0, 3, 1], vec![BotSpec::parse("heuristic", vec![]).unwrap(); 4], 77, 60);
    let one = run_batch(&db, &sp).unwrap();
    sp.threads = Some(2);
    let two = run_batch(&db, &sp).unwrap();
    assert_eq!(one.games.into_raw(), two.games.into_raw());
    let (a, b) = (one.players.into_raw(), two.players.into_raw());
    assert_eq!(a, b);
    // the points column is there and scored
    let pts = a.iter().find(|(k, _)| k == "points").unwrap();
    match &pts.1 {
        ketharmad::batch::RawColumn::F32(v) => assert!(v.iter().any(|&x| x >= 2.5), "a last standing seat has 1 + 1.5"),
        c => panic!("points is {c:?}"),
    }
}

// The free-for-all has no victory points: its points column is NaN.
#[test]
fn ffa_points_are_nan() {
    let db = scenario::db(&[]);
    let (r, _) = play_one(&db, &spec(vec![0, 1, 2], vec![BotSpec::random(); 3], 5, 1), 0, false, false);
    assert!(r.players[..3].iter().all(|p| p.points.is_nan()));
}
