//! Diplomacy (rules.md "Optional multiplayer formats" V1, TF 169.1; docs/formats.md
//! "Diplomacy"): the free-for-all with non-aggression pacts as data (`format.pacts`: "no
//! Campaign or Exposé against each other" while more than `pact_until_players` seats remain,
//! for `pact_rounds` rounds), never enforced by the engine, honoured by the built-in bots, and
//! an optional sanction (`pact_sanction`) the engine applies to the breaker.
//! Set-up positions, then whole games: bots never break a pact while a scripted breaker does and
//! pays; the invariant fuzzer (`KETHARMAD_FORMAT_FUZZ_GAMES`) and reproducibility.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

use ketharmad::batch::{play_one, play_one_in, BatchSpec, GameResult};
use ketharmad::bots::{breaks_pact, seat_policies, BotSpec, Policy};
use ketharmad::cards::{build_db, load_raw, CardDb, ParamValue};
use ketharmad::engine::{scenario, Agent, DecisionKind, Game, GameConfig, Opt, SeatView};

fn db_of(format: &str, extra: &[(&str, ParamValue)]) -> CardDb {
    let raw = load_raw(ketharmad::DEFAULT_CARD_DATA).unwrap();
    let mut o = vec![("rules.format".to_string(), ParamValue::Str(format.into()))];
    o.extend(extra.iter().map(|(k, v)| (k.to_string(), v.clone())));
    build_db(&raw, &o).unwrap()
}

fn sanction(n: i64) -> CardDb {
    db_of("diplomacy", &[("format.diplomacy.pact_sanction", ParamValue::Int(n))])
}

fn broken(g: &Game) -> Vec<u32> {
    g.state().players.iter().map(|p| p.pacts_broken).collect()
}

// V1: the shipped diplomacy format: a pact between seats 0 and 1 until two players remain, no
// round limit, no sanction; the pact binds only its parties.
#[test]
fn v1_the_pact_holds_between_its_parties() {
    let db = db_of("diplomacy", &[]);
    let f = &db.rules.format;
    assert_eq!((f.pacts.clone(), f.pact_until_players, f.pact_rounds, f.pact_sanction), (vec![(0, 1)], 2, 0, 0));
    let g = scenario::game(&db, &["ner", "osszefogas", "tisza", "radikalisok"]);
    assert!(g.pact_holds(0, 1) && g.pact_holds(1, 0));
    assert!(!g.pact_holds(0, 2) && !g.pact_holds(2, 3) && !g.pact_holds(1, 3) && !g.pact_holds(0, 0));
    // the free-for-all has no pacts
    let ffa = scenario::db(&[]);
    assert!(!scenario::game(&ffa, &["ner", "osszefogas", "tisza", "radikalisok"]).pact_holds(0, 1));
}

// V1: the engine never forbids breaking: the basic Exposé of the partner is offered and legal;
// taking it breaks the pact: counted, the sanction (3) taken from the breaker, the pact void
// (a second Exposé is no second break).
#[test]
fn v1_an_expose_breaks_the_pact_and_pays_the_sanction() {
    let db = sanction(3);
    let mut g = scenario::game(&db, &["ner", "osszefogas", "tisza", "radikalisok"]);
    g.add_bases(0, 1, 6);
    g.main_options(0);
    assert!(g.opts().contains(&Opt::Expose(1)), "the engine offers the Exposé of the pact partner");
    g.apply_main(0, Opt::Expose(1));
    assert_eq!(broken(&g), vec![1, 0, 0, 0]);
    assert_eq!(g.support_of(0), 20 - 3, "the sanction");
    assert!(!g.pact_holds(0, 1), "a broken pact holds no more, for either party");
    g.expose(0, 1, 1, false);
    assert_eq!(broken(&g), vec![1, 0, 0, 0]);
    assert_eq!(g.support_of(0), 17);
    // an Exposé of a seat outside the pact breaks nothing
    let mut h = scenario::game(&db, &["ner", "osszefogas", "tisza", "radikalisok"]);
    h.expose(0, 2, 1, false);
    h.expose(1, 3, 1, false);
    assert_eq!(broken(&h), vec![0; 4]);
    assert!(h.pact_holds(0, 1));
}

// V1: a Campaign attacking the partner breaks the pact once (then it is void), however many
// attackers attack it; a card's Exposé (Hangfelvétel) of the partner breaks it too.
#[test]
fn v1_a_campaign_or_a_cards_expose_breaks_the_pact() {
    let db = sanction(2);
    let mut g = scenario::game(&db, &["radikalisok", "ner", "osszefogas", "tisza"]);
    let a = g.put_in_play(0, "rad_sneider_tamas");
    let b = g.put_in_play(0, "rad_radikalis_aktivista");
    g.script(0, &[Opt::Attack(a, 1), Opt::Attack(b, 1)]);
    g.campaign();
    assert_eq!(g.script_left(0), 0);
    assert_eq!(broken(&g), vec![1, 0, 0, 0]);
    assert_eq!(g.support_of(0), 18);
    assert_eq!(g.support_of(1), 20 - 4, "the attack itself is legal and hits");
    let mut h = scenario::game(&db, &["osszefogas", "ner", "tisza", "radikalisok"]);
    h.add_bases(0, 1, 2);
    let c = h.put_in_hand(0, "osz_hangfelvetel");
    h.script(0, &[Opt::Player(1)]);
    h.play_card(0, c);
    assert_eq!(broken(&h), vec![0; 4], "the pact breaks when the Exposé happens, not when it is announced");
    h.resolve_top();
    assert_eq!(broken(&h), vec![1, 0, 0, 0]);
    assert_eq!(h.support_of(0), 18);
}

// V1: "until N players remain": the pact holds while more than `pact_until_players` seats are in
// the game; "for R rounds": while the round is at most `pact_rounds`. An attack after expiry
// breaks nothing.
#[test]
fn v1_a_pact_expires() {
    let db = db_of("diplomacy", &[]);
    let mut g = scenario::game(&db, &["ner", "osszefogas", "tisza", "radikalisok"]);
    g.lose_support(3, 20, -1);
    g.state_check();
    assert!(g.pact_holds(0, 1), "3 players remain: more than 2");
    g.lose_support(2, 20, -1);
    g.state_check();
    assert!(!g.pact_holds(0, 1), "2 players remain: the pact is over");
    g.expose(0, 1, 1, false);
    assert_eq!(broken(&g), vec![0; 4]);
    let three = db_of("diplomacy", &[("format.diplomacy.pact_until_players", ParamValue::Int(3))]);
    let mut g = scenario::game(&three, &["ner", "osszefogas", "tisza", "radikalisok"]);
    assert!(g.pact_holds(0, 1));
    g.lose_support(3, 20, -1);
    g.state_check();
    assert!(!g.pact_holds(0, 1), "until 3 players remain");
    let rounds = db_of("diplomacy", &[("format.diplomacy.pact_rounds", ParamValue::Int(2))]);
    let mut g = scenario::game(&rounds, &["ner", "osszefogas", "tisza", "radikalisok"]);
    g.state_mut().round = 2;
    assert!(g.pact_holds(0, 1), "round 2 of 2");
    g.state_mut().round = 3;
    assert!(!g.pact_holds(0, 1), "after 2 rounds");
    // a pact of a party that left the game holds no more
    let mut g = scenario::game(&db, &["ner", "osszefogas", "tisza", "radikalisok"]);
    g.lose_support(1, 20, -1);
    g.state_check();
    assert!(!g.pact_holds(0, 1));
}

/// A built-in bot with a counter of the decisions at which it was offered an option that
/// breaks a pact (to show the bots' filter is not idle).
struct Counting {
    inner: Policy,
    offered: Arc<AtomicU32>,
}

impl Agent for Counting {
    fn choose(&mut self, v: &SeatView<'_, '_>, kind: DecisionKind, opts: &[Opt]) -> usize {
        if opts.iter().any(|&o| breaks_pact(v, kind, o)) {
            self.offered.fetch_add(1, Ordering::Relaxed);
        }
        Agent::choose(&mut self.inner, v, kind, opts)
    }
    fn clone_agent(&self) -> Box<dyn Agent> {
        Box::new(Counting { inner: self.inner.clone(), offered: self.offered.clone() })
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn std::any::Any {
        self
    }
}

/// A scripted breaker: a heuristic bot that attacks and exposes seat 1 whenever it can.
struct Breaker(Policy);

impl Agent for Breaker {
    fn choose(&mut self, v: &SeatView<'_, '_>, kind: DecisionKind, opts: &[Opt]) -> usize {
        let hostile = |o: &Opt| match *o {
            Opt::Expose(q) | Opt::Attack(_, q) | Opt::Player(q) => q == 1,
            Opt::Campaign => true,
            _ => false,
        };
        if matches!(kind, DecisionKind::Main | DecisionKind::Attackers | DecisionKind::Target) {
            if let Some(i) = opts.iter().position(|o| hostile(o) && !matches!(o, Opt::Campaign)).or_else(|| opts.iter().position(hostile)) {
                return i;
            }
        }
        self.0.choose(v, kind, opts)
    }
    fn clone_agent(&self) -> Box<dyn Agent> {
        Box::new(Breaker(self.0.clone()))
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn std::any::Any {
        self
    }
}

const KINDS: [&str; 4] = ["random", "heuristic", "aggro", "control"];

// V1: the built-in bots honour pacts: in 240 games (3 and 4 seats, random and heuristic-family
// bots) no bot breaks one, although breaking options were offered thousands of times.
#[test]
fn v1_bots_honour_pacts() {
    let db = db_of("diplomacy", &[]);
    let offered = Arc::new(AtomicU32::new(0));
    let mut breaks = 0;
    for i in 0..240u64 {
        let n = 3 + (i % 2) as usize;
        let mut f = vec![0u8, 1, 2, 3];
        f.rotate_left((i / 2 % 4) as usize);
        f.truncate(n);
        let bots: Vec<BotSpec> = (0..n).map(|s| BotSpec::parse(KINDS[(i as usize / 8 + s) % 4], vec![]).unwrap()).collect();
        let cfg = GameConfig { factions: f, seed: 500 + i, start_player: None, ..Default::default() };
        let agents: Vec<Box<dyn Agent>> =
            seat_policies(500 + i, n, &bots).into_iter().map(|p| Box::new(Counting { inner: p, offered: offered.clone() }) as Box<dyn Agent>).collect();
        let mut g = Game::new(&db, &cfg, agents);
        g.trace_mut().check_invariants = true;
        g.run(None);
        assert_eq!(g.trace().invariant_error, None, "game {i}");
        breaks += broken(&g).iter().sum::<u32>();
    }
    let offered = offered.load(Ordering::Relaxed);
    eprintln!("diplomacy: 240 bot games, {offered} decisions offered a breaking option, {breaks} breaks");
    assert_eq!(breaks, 0);
    assert!(offered > 1000, "the filter had work to do: {offered}");
}

// V1: the search bot honours pacts too (a few games, small budget).
#[test]
fn v1_search_bot_honours_pacts() {
    let db = db_of("diplomacy", &[]);
    let search = BotSpec::parse("search", vec![("iterations".into(), 8.0), ("rollout_rounds".into(), 4.0)]).unwrap();
    for i in 0..3u64 {
        let bots = vec![search.clone(), search.clone(), BotSpec::parse("heuristic", vec![]).unwrap()];
        let spec = BatchSpec { factions: vec![0, 1, 2], bots, games: 1, seed: 40 + i, threads: Some(1), start_player: None, ..Default::default() };
        let r = play_one(&db, &spec, 0, false, true).0;
        assert_eq!(r.invariant_error, None);
        assert!((0..3).all(|s| r.players[s].pacts_broken == 0), "game {i}");
    }
}

// V1: a scripted breaker (seat 0) breaks the pact in most games, at most once a game (the pact
// is then void), and pays the sanction; its partner (a bot) never breaks.
#[test]
fn v1_a_scripted_breaker_pays_the_sanction() {
    let db = sanction(5);
    let mut games_broken = 0;
    for i in 0..60u64 {
        let cfg = GameConfig { factions: vec![3, 0, 1, 2], seed: 900 + i, start_player: None, ..Default::default() };
        let bots = vec![BotSpec::parse("heuristic", vec![]).unwrap(); 4];
        let mut pols = seat_policies(900 + i, 4, &bots);
        let rest: Vec<Box<dyn Agent>> = pols.drain(1..).map(|p| Box::new(p) as Box<dyn Agent>).collect();
        let mut agents: Vec<Box<dyn Agent>> = vec![Box::new(Breaker(pols.remove(0)))];
        agents.extend(rest);
        let mut g = Game::new(&db, &cfg, agents);
        g.trace_mut().log = Some(Vec::new());
        g.trace_mut().check_invariants = true;
        g.run(None);
        assert_eq!(g.trace().invariant_error, None, "game {i}");
        let b = broken(&g);
        assert!(b[0] <= 1 && b[1..].iter().all(|&x| x == 0), "game {i}: {b:?}");
        if b[0] == 1 {
            games_broken += 1;
            let log = g.trace().log.as_ref().unwrap();
            let k = log.iter().position(|l| l.contains("P0 breaks its pact with P1")).expect("logged");
            assert!(log[k + 1].contains("P0 loses 5 Support"), "game {i}: {}", log[k + 1]);
        }
    }
    assert!(games_broken > 40, "the breaker broke the pact in {games_broken} of 60 games");
}

/// Check one finished diplomacy game: invariants, a winner or unfinished, no bot breaks.
fn check_game(r: &GameResult, n: usize, ctx: &str) -> bool {
    if let Some(e) = &r.invariant_error {
        panic!("{ctx}: invariant broken: {e}");
    }
    assert!((0..n).all(|s| r.players[s].pacts_broken == 0), "{ctx}: a bot broke a pact");
    if r.end_reason >= 2 {
        return false;
    }
    let w = r.winner as usize;
    assert!(w < n && r.players[w].won, "{ctx}");
    assert_eq!((0..n).filter(|&s| r.players[s].won).count(), 1, "{ctx}: one winner");
    true
}

// The invariant fuzzer over diplomacy games (3 and 4 seats, every bot family).
#[test]
fn diplomacy_fuzz() {
    let db = db_of("diplomacy", &[("format.diplomacy.pact_sanction", ParamValue::Int(2))]);
    let games: u64 = std::env::var("KETHARMAD_FORMAT_FUZZ_GAMES").ok().and_then(|s| s.parse().ok()).unwrap_or(300);
    let mut finished = 0;
    let mut wins = [0u32; 4];
    for i in 0..games {
        let n = 3 + (i % 2) as usize;
        let mut f = vec![0u8, 1, 2, 3];
        f.rotate_left((i / 2 % 4) as usize);
        f.truncate(n);
        let bots: Vec<BotSpec> = (0..n).map(|s| BotSpec::parse(KINDS[(i as usize / 3 + s) % 4], vec![]).unwrap()).collect();
        let spec = BatchSpec { factions: f.clone(), bots, games: 1, seed: 3000 + i, threads: Some(1), start_player: None, ..Default::default() };
        spec.validate(&db).unwrap();
        let r = play_one(&db, &spec, 0, false, true).0;
        if check_game(&r, n, &format!("game {i} factions {f:?}")) {
            finished += 1;
            wins[r.winner as usize] += 1;
        }
    }
    eprintln!("diplomacy fuzz: {games} games, {finished} finished, wins by seat {wins:?}");
    assert!(finished * 20 > games * 19, "few unfinished games: {finished} of {games}");
}

// Same seed in, same games out; the pact changes the games (not the free-for-all by another name).
#[test]
fn diplomacy_is_reproducible_and_differs_from_ffa() {
    let db = db_of("diplomacy", &[]);
    let ffa = scenario::db(&[]);
    let spec = BatchSpec {
        factions: vec![1, 3, 0, 2],
        bots: vec![BotSpec::parse("heuristic", vec![]).unwrap(); 4],
        games: 40,
        seed: 31,
        threads: Some(1),
        start_player: None,
        ..Default::default()
    };
    let key = |r: &GameResult| (r.winner, r.turns, r.actions, r.end_reason, (0..4).map(|s| (r.players[s].support, r.players[s].won)).collect::<Vec<_>>());
    let (mut a, mut b) = (None, None);
    let mut same = 0;
    for i in 0..spec.games {
        let ra = play_one_in(&mut a, &db, &spec, i, false, false, false).0;
        let rb = play_one_in(&mut b, &db, &spec, i, false, false, false).0;
        assert_eq!(key(&ra), key(&rb), "game {i}");
        same += (key(&ra) == key(&play_one(&ffa, &spec, i, false, false).0)) as u32;
    }
    assert!(same < 20, "{same} of 40 games equal to the free-for-all");
}
