//! Coalition, 2 against 2 (rules.md R16.2–R16.3, E81–E89; docs/formats.md): selected with
//! the parameter `rules.format = "coalition"`. Scenario tests of each engine resolution, then
//! whole games: the invariant fuzzer over a few hundred Coalition games and reproducibility.

use ketharmad::batch::{play_one, play_one_in, BatchSpec, GameResult};
use ketharmad::bots::BotSpec;
use ketharmad::cards::{build_db, load_raw, CardDb, ParamValue};
use ketharmad::engine::agent::Scripted;
use ketharmad::engine::{scenario, Cid, EndReason, Game, GameConfig, Opt, Seats};

/// The default card set in the Coalition format, with extra parameter overrides.
fn coalition_db(extra: &[(&str, ParamValue)]) -> CardDb {
    let raw = load_raw(ketharmad::DEFAULT_CARD_DATA).unwrap();
    let mut o = vec![("rules.format".to_string(), ParamValue::Str("coalition".into()))];
    o.extend(extra.iter().map(|(k, v)| (k.to_string(), v.clone())));
    build_db(&raw, &o).unwrap()
}

/// A scenario game (seat 0's Action phase) in the Coalition format, each team pool at 30.
fn game<'db>(db: &'db CardDb, factions: &[&str]) -> Game<'db> {
    let mut g = scenario::game(db, factions);
    for p in 0..4 {
        g.state_mut().set_support(p, db.rules.format.support);
    }
    g
}

fn supports(g: &Game) -> Vec<i32> {
    (0..4).map(|p| g.support_of(p)).collect()
}

fn alive(g: &Game) -> Vec<bool> {
    g.state().players.iter().map(|p| p.alive).collect()
}

// R17: `coalition_support` is a named parameter, 30 by default; the format is a choice.
#[test]
fn r17_coalition_parameters() {
    let db = coalition_db(&[]);
    assert_eq!(db.rules.format.name, "coalition");
    assert_eq!(db.rules.format.support, 30);
    assert!(db.rules.format.partner_blocking);
    assert_eq!(scenario::db(&[]).rules.format.name, "ffa", "the free-for-all is the default");
    let raw = load_raw(ketharmad::DEFAULT_CARD_DATA).unwrap();
    let e = build_db(&raw, &[("rules.format".into(), ParamValue::Str("chess".into()))]).unwrap_err();
    assert!(e.contains("ffa") && e.contains("coalition") && e.contains("circle"), "{e}");
}

// E81: partners sit opposite (seats 0 + 2 against 1 + 3), so turns alternate teams; E88: 7
// cards each, every team pool at 30, no second-player bonus.
#[test]
fn e81_e88_seating_and_start() {
    let db = coalition_db(&[]);
    let cfg = GameConfig { factions: vec![0, 1, 2, 3], seed: 5, start_player: Some(1), ..Default::default() };
    let mut g = Game::new(&db, &cfg, (0..4).map(|_| Scripted::default()).collect::<Vec<_>>());
    g.setup(Some(1));
    assert_eq!(g.state().start_player, 1);
    assert_eq!(supports(&g), vec![30, 30, 30, 30]);
    // the pools live in seats 0 and 1: the partners' own fields are not used
    assert_eq!((g.state().players[0].support, g.state().players[1].support), (30, 30));
    assert_eq!((g.state().players[2].support, g.state().players[3].support), (0, 0));
    assert!(g.state().players.iter().all(|p| p.hand.len() == 7), "E88: 7 cards each (no mulligan taken)");
    // turn order 1, 2, 3, 0 alternates the teams {1, 3} and {0, 2}
    let order: Vec<usize> = (0..4).map(|k| (1 + k) % 4).collect();
    assert!(order.windows(2).all(|w| g.is_enemy(w[0], w[1])));
}

// E82: one Support pool per team: a loss of one partner is the team's, an "each player" gain
// applies once per player (the pool changes twice).
#[test]
fn e82_shared_support_and_scandal() {
    let db = coalition_db(&[]);
    let mut g = game(&db, &["ner", "osszefogas", "tisza", "radikalisok"]);
    g.lose_support(2, 4, 1);
    assert_eq!(supports(&g), vec![26, 30, 26, 30], "damage to seat 2 lowers the pool of seats 0 + 2");
    g.gain_support(0, 1);
    g.gain_support(2, 1);
    assert_eq!(supports(&g), vec![28, 30, 28, 30], "a gain per player: twice into one pool");
    g.gain_scandal(3, 2);
    g.gain_scandal(1, 1);
    assert_eq!((0..4).map(|p| g.scandal_pool_of(p)).collect::<Vec<_>>(), vec![0, 3, 0, 3]);
}

// E83: the opponents are the two players of the other team; the partner cannot be attacked,
// exposed or targeted as an opponent.
#[test]
fn e83_opponents_exclude_the_partner() {
    let db = coalition_db(&[]);
    let mut g = game(&db, &["radikalisok", "ner", "osszefogas", "tisza"]);
    assert_eq!(g.opponents(0).collect::<Vec<_>>(), vec![1, 3]);
    assert_eq!(g.opponents(1).collect::<Vec<_>>(), vec![2, 0]);
    assert_eq!(g.allies(2).collect::<Vec<_>>(), vec![0]);
    let s = g.put_in_play(0, "rad_sneider_tamas");
    // attacking the partner is not an option (the scripted answer is refused)
    let mut h = game(&db, &["radikalisok", "ner", "osszefogas", "tisza"]);
    let s2 = h.put_in_play(0, "rad_sneider_tamas");
    h.script(0, &[Opt::Attack(s2, 2)]);
    let refused = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| h.campaign())).unwrap_err();
    let msg = ketharmad::harness::panic_message(&*refused);
    assert!(msg.contains(&format!("not among the options [Attack({s2}, 1), Attack({s2}, 3)]")), "{msg}");
    g.script(0, &[Opt::Attack(s, 3)]); // the only able attacker: no Done asked after it
    g.campaign();
    assert_eq!(g.script_left(0), 0);
    assert_eq!(supports(&g), vec![30, 28, 30, 28], "the attack on seat 3 cost team {{1, 3}} 2");
}

// E84: Exposé of either opponent: the Scandal comes from their team pool and the team loses
// the Support; the partner is never an Exposé option.
#[test]
fn e84_expose_into_the_team_pool() {
    let db = coalition_db(&[]);
    let mut g = game(&db, &["ner", "osszefogas", "tisza", "radikalisok"]);
    g.state_mut().set_scandal(1, 3);
    g.add_bases(0, 1, 3);
    g.main_options(0);
    let exposes: Vec<Opt> = g.opts().iter().copied().filter(|o| matches!(o, Opt::Expose(_))).collect();
    assert_eq!(exposes, vec![Opt::Expose(1), Opt::Expose(3)]);
    g.script(0, &[Opt::Amount(2)]);
    g.expose(0, 3, 2, true);
    assert_eq!(g.script_left(0), 0);
    assert_eq!((0..4).map(|p| g.scandal_pool_of(p)).collect::<Vec<_>>(), vec![0, 1, 0, 1], "2 Scandal from the pool of 1 + 3");
    assert_eq!(supports(&g), vec![30, 28, 30, 28], "team 1 + 3 loses 2 Support");
}

// E85: the threshold is checked in each player's Draw step against the team pool: a team at 6
// Scandal loses 1 Support in each member's Draw step.
#[test]
fn e85_threshold_per_member_against_the_pool() {
    let db = coalition_db(&[]);
    let mut g = game(&db, &["ner", "osszefogas", "tisza", "radikalisok"]);
    g.state_mut().set_scandal(3, 6);
    g.scandal_threshold_check(1);
    g.scandal_threshold_check(3);
    g.scandal_threshold_check(0);
    g.scandal_threshold_check(2);
    assert_eq!(supports(&g), vec![30, 28, 30, 28]);
}

/// Seat 0 (Radikálisok) attacks seat 1 with Sneider Tamás (2/2); seat 1 has no Figure, its
/// partner seat 3 (Tisza) has Forsthoffer Ágnes (1/3) ready.
fn partner_block_game(db: &CardDb) -> (Game<'_>, Cid, Cid) {
    let mut g = game(db, &["radikalisok", "ner", "osszefogas", "tisza"]);
    let s = g.put_in_play(0, "rad_sneider_tamas");
    let f = g.put_in_play(3, "tis_forsthoffer_agnes");
    g.script(0, &[Opt::Attack(s, 1)]);
    (g, s, f)
}

// E86, R9.3.1: an attacker attacking either member of a team may be blocked by the partner's
// ready Figures; the partner (the Figure's controller) decides, and the block resolves as any
// block: the Figures trade damage and the team pool takes none.
#[test]
fn e86_partner_blocking_offered_and_resolving() {
    let db = coalition_db(&[]);
    let (mut g, s, f) = partner_block_game(&db);
    g.script(3, &[Opt::Block(f, s)]);
    g.campaign();
    assert_eq!(g.script_left(0), 0);
    assert_eq!(g.script_left(3), 0, "seat 3 was offered the block of its partner's attacker and took it");
    assert_eq!(g.state().inst[f as usize].damage, 2, "the blocker took Sneider's 2");
    assert_eq!(g.state().inst[s as usize].damage, 1, "Sneider took the blocker's 1");
    assert_eq!(supports(&g), vec![30, 30, 30, 30], "blocked: the team pool takes nothing");

    // the strict variant (`coalition_partner_blocking = false`, TF 169.2.4): no block offered
    let strict = coalition_db(&[("format.coalition.partner_blocking", ParamValue::Bool(false))]);
    let (mut g, s, f) = partner_block_game(&strict);
    g.campaign();
    assert_eq!(g.state().inst[f as usize].damage, 0);
    assert_eq!(g.state().inst[s as usize].damage, 0);
    assert_eq!(supports(&g), vec![30, 28, 30, 28], "unblocked: Sneider's 2 hit the pool of 1 + 3");
}

// E86: the partner is asked only as a defender of its team: in the free-for-all seat 3 is
// never asked about an attacker aimed at seat 1 (passive seats leave it unblocked).
#[test]
fn e86_free_for_all_blocks_only_own_attackers() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "ner", "osszefogas", "tisza"]);
    let s = g.put_in_play(0, "rad_sneider_tamas");
    let f = g.put_in_play(3, "tis_forsthoffer_agnes");
    g.script(0, &[Opt::Attack(s, 1)]);
    g.campaign();
    assert_eq!(g.state().inst[f as usize].damage, 0);
    assert_eq!((0..4).map(|p| g.support_of(p)).collect::<Vec<_>>(), vec![20, 18, 20, 20]);
}

// E87: a team whose pool reaches 0 leaves at once, both members; the other team wins, both
// partners winners (the `winner` column: the lower seat), no Voter takeover.
#[test]
fn e87_team_elimination_ends_the_game() {
    let db = coalition_db(&[]);
    let mut g = game(&db, &["ner", "osszefogas", "tisza", "radikalisok"]);
    g.lose_support(3, 30, 0);
    g.state_check();
    assert_eq!(alive(&g), vec![true, false, true, false]);
    let out = g.state().outcome.expect("the game is over");
    assert_eq!(out.winners, Seats(0b0101));
    assert_eq!(out.reason, EndReason::LastPlayerStanding);
    assert_eq!(out.winner(), Some(0));
    assert!(out.won(0) && out.won(2) && !out.won(1) && !out.won(3));
    assert_eq!(supports(&g)[0], 30, "E88: no Voter takeover");
}

// E87, R14.5.1: both teams at 0 in one state check: the active player's team wins.
#[test]
fn e87_both_teams_fall_active_team_wins() {
    let db = coalition_db(&[]);
    for (active, want) in [(2usize, Seats(0b0101)), (3, Seats(0b1010))] {
        let mut g = game(&db, &["ner", "osszefogas", "tisza", "radikalisok"]);
        g.state_mut().active = active;
        g.lose_support(0, 30, -1);
        g.lose_support(1, 30, -1);
        g.state_check();
        assert_eq!(alive(&g), vec![false; 4]);
        let out = g.state().outcome.unwrap();
        assert_eq!((out.winners, out.reason), (want, EndReason::SimultaneousElimination), "active seat {active}");
    }
}

// E82, E87: the team pool is knocked out as one: the partner's Karácsony Gergely rescues it.
#[test]
fn e82_partner_rescue_saves_the_team_pool() {
    let db = coalition_db(&[]);
    let mut g = game(&db, &["ner", "radikalisok", "osszefogas", "tisza"]);
    let k = g.put_in_play(2, "osz_karacsony_gergely");
    g.lose_support(0, 30, 1);
    g.state_check();
    assert_eq!(alive(&g), vec![true; 4]);
    assert!(g.state().outcome.is_none());
    assert!(g.support_of(0) > 0 && g.support_of(0) == g.support_of(2));
    assert!(!g.state().players[2].play.contains(&k), "Karácsony was sacrificed");
}

// E89: "your" cards stay your own: the partner's Bases do not pay for your Exposé.
#[test]
fn e89_your_cards_stay_your_own() {
    let db = coalition_db(&[]);
    let mut g = game(&db, &["ner", "osszefogas", "tisza", "radikalisok"]);
    g.add_bases(2, 1, 3);
    g.main_options(0);
    assert!(!g.opts().iter().any(|o| matches!(o, Opt::Expose(_))), "seat 0 cannot use seat 2's Media");
    g.main_options(2);
    assert!(g.opts().iter().any(|o| matches!(o, Opt::Expose(_))));
}

fn coalition_spec(factions: Vec<u8>, bots: Vec<BotSpec>, seed: u64, games: u64) -> BatchSpec {
    BatchSpec { factions, bots, games, seed, threads: Some(1), start_player: None, ..Default::default() }
}

// The Coalition needs exactly four decks.
#[test]
fn e81_coalition_needs_four_decks() {
    let db = coalition_db(&[]);
    let e = coalition_spec(vec![0, 1], vec![BotSpec::random(); 2], 1, 1).validate(&db).unwrap_err();
    assert!(e.contains("coalition") && e.contains("4 decks"), "{e}");
    assert!(coalition_spec(vec![0, 1, 2, 3], vec![BotSpec::random(); 4], 1, 1).validate(&db).is_ok());
}

/// Check one finished Coalition game against E81–E88; returns the winning team (0 or 1).
fn check_game(r: &GameResult, ctx: &str) -> Option<usize> {
    if let Some(e) = &r.invariant_error {
        panic!("{ctx}: invariant broken: {e}");
    }
    let p = &r.players;
    // E82: one pool per team in the result columns
    assert_eq!((p[0].support, p[0].scandal), (p[2].support, p[2].scandal), "{ctx}: pool of 0 + 2");
    assert_eq!((p[1].support, p[1].scandal), (p[3].support, p[3].scandal), "{ctx}: pool of 1 + 3");
    // E87: partners leave together and win or lose together
    assert_eq!(p[0].eliminated, p[2].eliminated, "{ctx}");
    assert_eq!(p[1].eliminated, p[3].eliminated, "{ctx}");
    assert_eq!((p[0].won, p[1].won), (p[2].won, p[3].won), "{ctx}");
    if r.end_reason >= 2 {
        assert_eq!(r.winner, -1, "{ctx}: unfinished, no winner");
        assert!(!p[..4].iter().any(|s| s.won), "{ctx}");
        return None;
    }
    let team = r.winner as usize;
    assert!(team < 2, "{ctx}: the winner column is the lower seat of the team, got {}", r.winner);
    assert!(p[team].won && p[team + 2].won && !p[1 - team].won && !p[3 - team].won, "{ctx}");
    assert!(p[1 - team].eliminated && p[1 - team].support <= 0, "{ctx}: the losing team is out at 0 Support");
    if r.end_reason == 0 {
        assert!(!p[team].eliminated && p[team].support > 0, "{ctx}: the winning team is standing");
    } else {
        assert!(p[team].eliminated, "{ctx}: simultaneous elimination: everyone out");
    }
    Some(team)
}

// The invariant fuzzer (as tests/fuzz.rs) over Coalition games: random and heuristic-family
// bots, every seating of the four factions in turn, invariants checked after every action.
#[test]
fn coalition_fuzz() {
    let db = coalition_db(&[]);
    let games: u64 = std::env::var("KETHARMAD_COALITION_FUZZ_GAMES").ok().and_then(|s| s.parse().ok()).unwrap_or(300);
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
        let spec = coalition_spec(f.clone(), bots, 4000 + i, 1);
        spec.validate(&db).unwrap();
        let (r, _) = play_one(&db, &spec, 0, false, true);
        match check_game(&r, &format!("game {i} factions {f:?}")) {
            Some(t) => wins[t] += 1,
            None => unfinished += 1,
        }
    }
    eprintln!("coalition fuzz: {games} games, team wins {wins:?}, unfinished {unfinished}");
    assert!(wins[0] > 0 && wins[1] > 0, "both teams win some games: {wins:?}");
    assert!(unfinished * 20 < games as u32, "few unfinished games: {unfinished}");
}

// Same seed in, same games out; and the format changes the games (it is not the 4-player
// free-for-all under another name).
#[test]
fn coalition_is_reproducible_and_differs_from_ffa() {
    let db = coalition_db(&[]);
    let ffa = scenario::db(&[]);
    let spec = coalition_spec(vec![2, 0, 3, 1], vec![BotSpec::parse("heuristic", vec![]).unwrap(); 4], 77, 40);
    let key = |r: &GameResult| (r.winner, r.turns, r.actions, r.end_reason, (0..4).map(|s| (r.players[s].support, r.players[s].won)).collect::<Vec<_>>());
    let (mut a, mut b) = (None, None);
    let mut same_as_ffa = 0;
    for i in 0..spec.games {
        let ra = play_one_in(&mut a, &db, &spec, i, false, false, false).0;
        let rb = play_one_in(&mut b, &db, &spec, i, false, false, false).0;
        assert_eq!(key(&ra), key(&rb), "game {i}");
        let rf = play_one(&ffa, &spec, i, false, false).0;
        same_as_ffa += (key(&ra) == key(&rf)) as u32;
    }
    assert_eq!(same_as_ffa, 0);
}
