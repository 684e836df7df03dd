//! Pairs play (rules.md "Optional multiplayer formats" V2, TF 169.2; docs/formats.md "Pairs"):
//! Coalition (R16.2–R16.3) with 40 shared Support, the loss checked at the end of a turn
//! (TF 169.2.7), priority by team (TF 169.2.11–12), one attacked opponent per Campaign
//! (TF 169.2.13) and the right to decline the start (TF 169.2.10), each a format parameter.
//! Set-up positions prove each mechanism; then whole games: the invariant fuzzer
//! (`KETHARMAD_FORMAT_FUZZ_GAMES` games, 300 by default) and reproducibility.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use ketharmad::batch::{play_one, play_one_in, BatchSpec, GameResult};
use ketharmad::bots::BotSpec;
use ketharmad::cards::formats::{Elimination, Priority};
use ketharmad::cards::{build_db, load_raw, CardDb, ParamValue};
use ketharmad::engine::agent::{passive, Scripted};
use ketharmad::engine::{scenario, Agent, Cid, DecisionKind, EndReason, Game, GameConfig, Opt, SeatView, Seats};

/// The default card set in format `format`, with extra parameter overrides.
fn db_of(format: &str, extra: &[(&str, ParamValue)]) -> CardDb {
    let raw = load_raw(ketharmad::DEFAULT_CARD_DATA).unwrap();
    let mut o = vec![("rules.format".to_string(), ParamValue::Str(format.into()))];
    o.extend(extra.iter().map(|(k, v)| (k.to_string(), v.clone())));
    build_db(&raw, &o).unwrap()
}

/// A scenario game (seat 0's Action phase, round 1) with each team pool at the format's Support.
fn game<'db>(db: &'db CardDb, factions: &[&str]) -> Game<'db> {
    let mut g = scenario::game(db, factions);
    for p in 0..4 {
        g.state_mut().set_support(p, db.rules.format.support);
    }
    g
}

fn alive(g: &Game) -> Vec<bool> {
    g.state().players.iter().map(|p| p.alive).collect()
}

const F: [&str; 4] = ["ner", "osszefogas", "tisza", "radikalisok"];

// V2: Pairs is Coalition plus five keys of data: the same FormatSpec once those are set.
#[test]
fn v2_pairs_is_coalition_in_data() {
    let pairs = db_of("pairs", &[]).rules.format.clone();
    assert_eq!(pairs.support, 40, "TF 169.2.7: 40 shared life");
    assert_eq!(pairs.elimination, Elimination::EndOfTurn);
    assert_eq!(pairs.priority, Priority::Team);
    assert!(pairs.one_opponent_per_campaign && pairs.decline_to_start);
    let mut c = db_of("coalition", &[]).rules.format.clone();
    c.support = 40;
    c.elimination = Elimination::EndOfTurn;
    c.priority = Priority::Team;
    c.one_opponent_per_campaign = true;
    c.decline_to_start = true;
    c.name = pairs.name.clone();
    c.description = pairs.description.clone();
    assert_eq!(c, pairs);
    // and the other way round: Coalition's mechanisms by parameters of the pairs format
    let back = db_of(
        "pairs",
        &[
            ("format.pairs.support", ParamValue::Int(30)),
            ("format.pairs.elimination", ParamValue::Str("immediate".into())),
            ("format.pairs.priority", ParamValue::Str("player".into())),
            ("format.pairs.one_opponent_per_campaign", ParamValue::Bool(false)),
            ("format.pairs.decline_to_start", ParamValue::Bool(false)),
        ],
    );
    let mut b = back.rules.format.clone();
    let co = db_of("coalition", &[]).rules.format.clone();
    b.name = co.name.clone();
    b.description = co.description.clone();
    assert_eq!(b, co);
}

// TF 169.2.7: a pool at 0 mid-turn does not eliminate; Support recovered before Close saves
// the team (the state check at the end of the turn finds it above 0).
#[test]
fn tf169_2_7_pool_at_zero_recovers_before_the_end_of_the_turn() {
    let db = db_of("pairs", &[]);
    let mut g = game(&db, &F);
    g.lose_support(3, 40, 0);
    g.state_check();
    assert_eq!(g.support_of(1), 0);
    assert_eq!(alive(&g), vec![true; 4], "no elimination mid-turn");
    assert!(g.state().outcome.is_none());
    g.gain_support(1, 3);
    assert_eq!((g.support_of(1), g.support_of(3)), (3, 3));
    g.end_of_turn_check();
    assert_eq!(alive(&g), vec![true; 4], "recovered before the end of the turn: the team survives");
    assert!(g.state().outcome.is_none());
    // without the recovery the end-of-turn check eliminates the team and the game ends (E87)
    let mut h = game(&db, &F);
    h.lose_support(3, 45, 0);
    h.state_check();
    assert_eq!(alive(&h), vec![true; 4]);
    h.end_of_turn_check();
    assert_eq!(alive(&h), vec![true, false, true, false]);
    let out = h.state().outcome.unwrap();
    assert_eq!((out.winners, out.reason), (Seats(0b0101), EndReason::LastPlayerStanding));
    // Coalition (E2): the same loss eliminates at once
    let co = db_of("coalition", &[]);
    let mut c = game(&co, &F);
    c.lose_support(3, 30, 0);
    c.state_check();
    assert_eq!(alive(&c), vec![true, false, true, false]);
}

// TF 169.2.7 with E34: the active player's own team at 0 mid-turn is not eliminated, so the
// turn goes on (E34 never applies); Close's end-of-turn check then eliminates it if it is
// still at 0, and the other team wins at once, in that same turn.
#[test]
fn tf169_2_7_active_team_at_zero_plays_on_until_close() {
    let db = db_of("pairs", &[]);
    let mut g = game(&db, &F);
    g.lose_support(2, 40, 1);
    g.state_check();
    assert_eq!(g.support_of(0), 0);
    assert!(!g.halted(), "the turn continues");
    g.main_options(0);
    assert!(g.opts().contains(&Opt::EndPhase));
    let turn = g.state().turn;
    let out = g.continue_with(Opt::EndPhase);
    assert_eq!((out.winners, out.reason), (Seats(0b1010), EndReason::LastPlayerStanding));
    assert_eq!(g.state().turn, turn, "eliminated at the end of this turn: no further turn");
    assert_eq!(alive(&g), vec![false, true, false, true]);
}

// TF 169.2.7 with R14.5.1: both pools at 0 at the end of a turn: the active player's team wins.
#[test]
fn tf169_2_7_both_teams_at_zero_at_the_end_of_a_turn() {
    let db = db_of("pairs", &[]);
    for (active, want) in [(0usize, Seats(0b0101)), (3, Seats(0b1010))] {
        let mut g = game(&db, &F);
        g.state_mut().active = active;
        g.lose_support(0, 40, -1);
        g.lose_support(1, 41, -1);
        g.state_check();
        assert!(g.state().outcome.is_none());
        g.end_of_turn_check();
        let out = g.state().outcome.unwrap();
        assert_eq!((out.winners, out.reason), (want, EndReason::SimultaneousElimination), "active {active}");
    }
}

/// An agent that records every Respond decision of its seat and answers from a script, else
/// passes (the most passive option).
#[derive(Clone)]
struct Rec {
    log: Arc<Mutex<Vec<usize>>>,
    script: VecDeque<Opt>,
}

impl Agent for Rec {
    fn choose(&mut self, v: &SeatView<'_, '_>, kind: DecisionKind, opts: &[Opt]) -> usize {
        if kind == DecisionKind::Respond {
            self.log.lock().unwrap().push(v.seat);
            if let Some(want) = self.script.pop_front() {
                return opts.iter().position(|&o| o == want).expect("scripted answer offered");
            }
        }
        passive(opts)
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

/// Four Radikálisok seats (mirror), each with Tojásdobálás in hand and a Street Base to pay
/// for it, two Figures in play to target; every seat a recording agent. Returns the game, the
/// shared log and each seat's Tojásdobálás.
fn priority_game(db: &CardDb) -> (Game<'_>, Arc<Mutex<Vec<usize>>>, Vec<Cid>) {
    let mut g = game(db, &["radikalisok"; 4]);
    let log = Arc::new(Mutex::new(Vec::new()));
    // two Figures to target, so that one is left after an egg knocks one out
    g.put_in_play(0, "rad_sneider_tamas");
    g.put_in_play(1, "rad_sneider_tamas");
    let mut eggs = Vec::new();
    for p in 0..4 {
        eggs.push(g.put_in_hand(p, "rad_tojasdobalas"));
        g.add_bases(p, 2, 1);
        g.set_agent(p, Box::new(Rec { log: log.clone(), script: VecDeque::new() }));
    }
    (g, log, eggs)
}

fn mirror(format: &str) -> CardDb {
    db_of(format, &[("rules.allow_mirror", ParamValue::Bool(true))])
}

// TF 169.2.11–12: priority passes between teams. The active player (seat 0) leads every
// window, even the after-action window that R8.3 (c) gives the next player; when it passes,
// priority goes to the other team (1, 3), not to its partner; each team names a member
// (asked in turn order); the window closes when both teams have passed in succession.
#[test]
fn tf169_2_11_priority_alternates_teams() {
    let db = mirror("pairs");
    let (mut g, log, _) = priority_game(&db);
    g.window(1);
    assert_eq!(*log.lock().unwrap(), vec![0, 1, 3, 0, 2], "lead 0, team 1+3, team 0+2");
    // Coalition (R8.2, E37): the lead given, then round the table player by player
    let co = mirror("coalition");
    let (mut c, clog, _) = priority_game(&co);
    c.window(1);
    assert_eq!(*clog.lock().unwrap(), vec![1, 2, 3, 0]);
}

// TF 169.2.11: after a play priority goes to the other team (not the player's partner); when
// both teams have passed the top of the chain resolves and the active player leads again.
#[test]
fn tf169_2_11_after_a_play_the_other_team_has_priority() {
    let db = mirror("pairs");
    let (mut g, log, eggs) = priority_game(&db);
    g.set_agent(1, Box::new(Rec { log: log.clone(), script: VecDeque::from([Opt::Play(eggs[1])]) }));
    g.window(0);
    // 0 leads and passes; 1 plays; team 0+2 passes (0, 2); team 1+3 passes (3; 1 has nothing
    // left); the egg resolves; 0 leads again, then 3, then 0 and 2: closed
    assert_eq!(*log.lock().unwrap(), vec![0, 1, 0, 2, 3, 0, 3, 0, 2]);
    assert!(g.state().chain.is_empty());
    let figures = (0..4).flat_map(|p| g.state().players[p].play.iter()).filter(|&&c| g.state().inst[c as usize].is(ketharmad::engine::Inst::F_FIGURE)).count();
    assert_eq!(figures, 1, "the egg resolved: one Sneider knocked out");
    // the active player's partner acts in its team's turn: seat 2 plays after team 1+3 passed
    let (mut g, log, eggs) = priority_game(&db);
    g.set_agent(2, Box::new(Rec { log: log.clone(), script: VecDeque::from([Opt::Play(eggs[2])]) }));
    g.window(0);
    assert_eq!(*log.lock().unwrap(), vec![0, 1, 3, 0, 2, 1, 3, 0, 0, 1, 3, 0], "2 plays; then 1, 3 pass; 0 passes (2 has nothing); resolve; 0 leads, 1, 3, 0");
}

/// Seat 0 (Radikálisok) with two Figures able to attack: Sneider Tamás and a Radikális aktivista.
fn campaign_game(db: &CardDb) -> (Game<'_>, Cid, Cid) {
    let mut g = game(db, &["radikalisok", "ner", "osszefogas", "tisza"]);
    let a = g.put_in_play(0, "rad_sneider_tamas");
    let b = g.put_in_play(0, "rad_radikalis_aktivista");
    (g, a, b)
}

// TF 169.2.13: all attackers of one Campaign attack the opponent the first one named; in
// Coalition (R15.2) each attacker names its own.
#[test]
fn tf169_2_13_a_campaigns_attackers_attack_one_opponent() {
    let db = db_of("pairs", &[]);
    let (mut g, a, b) = campaign_game(&db);
    g.script(0, &[Opt::Attack(a, 1), Opt::Attack(b, 3)]);
    let refused = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| g.campaign())).unwrap_err();
    let msg = ketharmad::harness::panic_message(&*refused);
    assert!(msg.contains(&format!("not among the options [Attack({b}, 1), Done]")), "{msg}");
    let (mut g, a, b) = campaign_game(&db);
    g.script(0, &[Opt::Attack(a, 1), Opt::Attack(b, 1)]);
    g.campaign();
    assert_eq!(g.script_left(0), 0);
    assert_eq!(g.support_of(1), 40 - 4, "Sneider's 2 and the activist's 1 + 1 (Sneider's bonus) both hit seat 1");
    assert_eq!(g.support_of(0), 40);
    let co = db_of("coalition", &[]);
    let (mut c, a, b) = campaign_game(&co);
    c.script(0, &[Opt::Attack(a, 1), Opt::Attack(b, 3)]);
    c.campaign();
    assert_eq!(c.script_left(0), 0, "Coalition: one target per attacker");
}

fn setup_with<'db>(db: &'db CardDb, start: u8, scripts: &[&[Opt]]) -> Game<'db> {
    let cfg = GameConfig { factions: vec![0, 1, 2, 3], seed: 5, start_player: Some(start), ..Default::default() };
    let mut g = Game::new(db, &cfg, (0..4).map(|_| Scripted::default()).collect::<Vec<_>>());
    for (p, s) in scripts.iter().enumerate() {
        g.script(p, s);
    }
    g.setup(Some(start));
    g
}

// TF 169.2.10: the start player may decline; then the next player in turn order (an opponent)
// starts and is not asked (cannot decline). Each seat answers Keep to its mulligan first.
#[test]
fn tf169_2_10_decline_to_start() {
    let db = db_of("pairs", &[]);
    let keep_pass: &[Opt] = &[Opt::Keep, Opt::Pass];
    let g = setup_with(&db, 1, &[&[Opt::Keep], keep_pass, keep_pass, &[Opt::Keep]]);
    assert_eq!(g.script_left(1), 0, "seat 1 was asked and declined");
    assert_eq!(g.script_left(2), 1, "seat 2 was never asked: it cannot decline");
    assert_eq!((g.state().start_player, g.state().first_start_player, g.state().active), (2, 2, 2));
    assert!(g.is_enemy(1, 2), "the start passed to an opponent");
    assert!((0..4).all(|p| g.support_of(p) == 40));
    // accepting keeps the start
    let g = setup_with(&db, 3, &[&[Opt::Keep], &[Opt::Keep], &[Opt::Keep], &[Opt::Keep, Opt::Keep]]);
    assert_eq!((g.state().start_player, g.script_left(3)), (3, 0));
    // declining from the last seat wraps round to seat 0
    let g = setup_with(&db, 3, &[&[Opt::Keep], &[Opt::Keep], &[Opt::Keep], keep_pass]);
    assert_eq!(g.state().start_player, 0);
    // Coalition asks nothing
    let co = db_of("coalition", &[]);
    let g = setup_with(&co, 1, &[&[Opt::Keep], keep_pass, &[Opt::Keep], &[Opt::Keep]]);
    assert_eq!((g.state().start_player, g.script_left(1)), (1, 1));
}

// TF 169.2.10 in whole games: with a fixed start seat 0, random bots sometimes decline (seat 1
// starts then) and the heuristic never does.
#[test]
fn tf169_2_10_bots_and_the_start_player_column() {
    let db = db_of("pairs", &[]);
    let mut starts = [[0u32; 4]; 2];
    for (k, bot) in ["random", "heuristic"].iter().enumerate() {
        let spec = BatchSpec {
            factions: vec![0, 1, 2, 3],
            bots: vec![BotSpec::parse(bot, vec![]).unwrap(); 4],
            games: 40,
            seed: 9,
            threads: Some(1),
            start_player: Some(0),
            ..Default::default()
        };
        spec.validate(&db).unwrap();
        for i in 0..spec.games {
            let r = play_one(&db, &spec, i, false, false).0;
            starts[k][r.start_player as usize] += 1;
        }
    }
    assert!(starts[0][0] > 5 && starts[0][1] > 5 && starts[0][2] + starts[0][3] == 0, "random: {:?}", starts[0]);
    assert_eq!(starts[1], [40, 0, 0, 0]);
}

/// Check one finished Pairs game against E81–E88 and TF 169.2.7; returns the winning team.
fn check_game(r: &GameResult, ctx: &str) -> Option<usize> {
    if let Some(e) = &r.invariant_error {
        panic!("{ctx}: invariant broken: {e}");
    }
    let p = &r.players;
    assert_eq!((p[0].support, p[0].scandal), (p[2].support, p[2].scandal), "{ctx}: pool of 0 + 2");
    assert_eq!((p[1].support, p[1].scandal), (p[3].support, p[3].scandal), "{ctx}: pool of 1 + 3");
    assert_eq!(p[0].eliminated, p[2].eliminated, "{ctx}");
    assert_eq!(p[1].eliminated, p[3].eliminated, "{ctx}");
    assert!(p[..4].iter().all(|s| s.pacts_broken == 0), "{ctx}: no pacts in pairs");
    if r.end_reason >= 2 {
        assert!(!p[..4].iter().any(|s| s.won), "{ctx}");
        return None;
    }
    let team = r.winner as usize;
    assert!(team < 2, "{ctx}: the winner column is the lower seat of the team, got {}", r.winner);
    assert!(p[team].won && p[team + 2].won && !p[1 - team].won && !p[3 - team].won, "{ctx}");
    assert!(p[1 - team].eliminated && p[1 - team].support <= 0, "{ctx}: the losing team is out at 0 Support");
    if r.end_reason == 0 {
        assert!(!p[team].eliminated && p[team].support > 0, "{ctx}: the winning team is standing");
    }
    Some(team)
}

fn fuzz_games() -> u64 {
    std::env::var("KETHARMAD_FORMAT_FUZZ_GAMES").ok().and_then(|s| s.parse().ok()).unwrap_or(300)
}

// The invariant fuzzer over Pairs games (invariants after every action; no seat starts a turn
// at 0 Support): random and heuristic-family bots, every seating of the four factions.
#[test]
fn pairs_fuzz() {
    let db = db_of("pairs", &[]);
    let games = fuzz_games();
    let kinds = ["random", "heuristic", "aggro", "control"];
    let mut wins = [0u32; 2];
    let mut unfinished = 0;
    for i in 0..games {
        let mut f = vec![0u8, 1, 2, 3];
        f.rotate_left((i % 4) as usize);
        if i % 8 >= 4 {
            f.swap(0, 1);
        }
        let bots: Vec<BotSpec> = (0..4).map(|s| BotSpec::parse(kinds[((i / 3) as usize + s) % 4], vec![]).unwrap()).collect();
        let spec = BatchSpec { factions: f.clone(), bots, games: 1, seed: 7000 + i, threads: Some(1), start_player: None, ..Default::default() };
        spec.validate(&db).unwrap();
        let (r, _) = play_one(&db, &spec, 0, false, true);
        match check_game(&r, &format!("game {i} factions {f:?}")) {
            Some(t) => wins[t] += 1,
            None => unfinished += 1,
        }
    }
    eprintln!("pairs fuzz: {games} games, team wins {wins:?}, unfinished {unfinished}");
    assert!(wins[0] > 0 && wins[1] > 0, "both teams win some games: {wins:?}");
    assert!(unfinished * 20 < games as u32, "few unfinished games: {unfinished}");
}

// Same seed in, same games out; Pairs is not Coalition under another name.
#[test]
fn pairs_is_reproducible_and_differs_from_coalition() {
    let db = db_of("pairs", &[]);
    let co = db_of("coalition", &[]);
    let spec = BatchSpec {
        factions: vec![2, 0, 3, 1],
        bots: vec![BotSpec::parse("heuristic", vec![]).unwrap(); 4],
        games: 40,
        seed: 77,
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
        same += (key(&ra) == key(&play_one(&co, &spec, i, false, false).0)) as u32;
    }
    assert_eq!(same, 0);
}

// The step API plays the same Pairs and diplomacy games as the batch (the decline to start
// in setup, team priority, the bots' pact filter, driven from outside).
#[test]
fn stepped_pairs_and_diplomacy_games_equal_batch_games() {
    use ketharmad::engine::step::Stepper;
    use ketharmad::engine::IntoAgents;
    for (fmt, factions) in [("pairs", vec![0u8, 1, 2, 3]), ("diplomacy", vec![3, 1, 0]), ("diplomacy", vec![2, 3, 0, 1])] {
        let db = db_of(fmt, &[]);
        let bots: Vec<BotSpec> = ["random", "heuristic", "aggro", "control"][..factions.len()].iter().map(|k| BotSpec::parse(k, vec![]).unwrap()).collect();
        for seed in 0..8u64 {
            let cfg = GameConfig { factions: factions.clone(), seed, start_player: None, ..Default::default() };
            let mut g = Game::new(&db, &cfg, ketharmad::bots::seat_policies(seed, factions.len(), &bots));
            let o = g.run(None);
            let mut s = Stepper::new(&db, &cfg);
            let mut pols = ketharmad::bots::seat_policies(seed, factions.len(), &bots).into_agents();
            s.advance(&mut pols, 0);
            let key = |g: &Game| {
                (
                    g.state().turn,
                    g.state().total_actions,
                    g.state().first_start_player,
                    g.state().players.iter().map(|p| (p.support, p.scandal, p.hand.clone(), p.play.clone(), p.pacts_broken)).collect::<Vec<_>>(),
                )
            };
            assert_eq!((s.outcome().unwrap(), key(s.game())), (o, key(&g)), "{fmt} {factions:?} seed {seed}");
        }
    }
}
