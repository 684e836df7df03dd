//! Learned bots for Schotten Totten 2 (issue 26): its position features (deterministic, what
//! the seat sees and nothing more, the same public facts from both sides), its option
//! features at key decisions (greedy's pick among them), labelled decisions recorded from it,
//! and the generic `learned` agent (a model copying greedy's pick plays greedy's games; foreign
//! models are refused by name).

use ketharmad::games::osztrakon::Osztrakon;
use ketharmad::games::schotten_totten2::bots::GreedyBot;
use ketharmad::games::schotten_totten2::{SchottenTotten2, State};
use ketharmad::harness::agents::{agent_names, make_agent, AgentSpec};
use ketharmad::harness::batch::{run, GenericBatch, GenericColumns};
use ketharmad::harness::{resolve, Agent, GameState, Rules, Stop};
use ketharmad::learn::mlp::to_bytes;
use ketharmad::learn::st2_actions as actions;
use ketharmad::learn::st2_features::{GLOBAL, LAYOUT, LEN, NAMES, PER_SECTION, SECTION};
use ketharmad::learn::{choices, positions};
use ketharmad::rng::Rng;
use std::path::PathBuf;

fn values() -> Vec<f64> {
    resolve(&SchottenTotten2.registry(), &[]).unwrap()
}

fn idx(name: &str) -> usize {
    NAMES.iter().position(|n| *n == name).unwrap_or_else(|| panic!("no feature {name}"))
}

fn opt(name: &str) -> usize {
    actions::NAMES.iter().position(|n| *n == name).unwrap_or_else(|| panic!("no option feature {name}"))
}

/// Every decision of `games` games of greedy (Attacker) against a random Defender who pours
/// oil, and of a random Attacker who retreats against greedy.
fn decisions(games: u64) -> Vec<State> {
    let r = SchottenTotten2;
    let v = values();
    let mut out = Vec::new();
    for g in 0..games {
        let names = if g % 2 == 0 { ["greedy", "random:prep=0.5"] } else { ["random:prep=0.2", "greedy"] };
        let mut agents: Vec<Box<dyn Agent<State>>> = (0..2).map(|s| make_agent(&r, &AgentSpec::parse(names[s]).unwrap(), &v, 2, s).unwrap()).collect();
        let mut s = r.new_game(&v, 2, 11, g).unwrap();
        let mut rng = Rng::new(g + 1);
        let mut legal = Vec::new();
        while let Some(seat) = s.to_move() {
            out.push(s.clone());
            s.legal_actions(&mut legal);
            let a = agents[seat].act(&s, &legal, &mut rng);
            s.apply(a).unwrap();
        }
    }
    out
}

fn feats(s: &State, seat: usize) -> Vec<f32> {
    let mut x = vec![f32::NAN; LEN];
    assert!(s.features(seat, &mut x));
    x
}

#[test]
fn the_layout_is_named_and_compact() {
    let r = SchottenTotten2;
    assert_eq!(r.features(), (LAYOUT, &NAMES[..]));
    assert_eq!(r.option_features(), (actions::LAYOUT, &actions::NAMES[..]));
    assert!((40..=100).contains(&LEN), "{LEN} features");
    assert_eq!(GLOBAL + 7 * PER_SECTION, LEN);
    assert_eq!(actions::policy_names().len(), LEN + actions::LEN);
    let mut all: Vec<&str> = actions::policy_names();
    all.sort_unstable();
    all.dedup();
    assert_eq!(all.len(), LEN + actions::LEN, "feature names are unique");
    assert!(agent_names(&r).contains(&"learned"));
    assert!(!agent_names(&Osztrakon).contains(&"learned"));
}

/// The features are a pure function of the position, use nothing the seat cannot see (a
/// re-deal of the opponent's hand and the deck changes none of them), and the public blocks
/// read the same facts from both sides.
#[test]
fn features_are_deterministic_public_only_and_agree_between_the_seats() {
    let states = decisions(12);
    assert!(states.len() > 300, "{} decisions", states.len());
    let g = |n: &str| idx(n);
    let same = ["phase_prep", "turn", "deck_left", "last_turn", "cauldrons_left", "damaged"];
    let swapped = [("decided_mine", "decided_opp"), ("opp_hand", "hand_count")];
    let (mut decided, mut hand_best, mut cancels) = (0, 0, 0);
    let mut rng = Rng::new(3);
    for (k, s) in states.iter().enumerate() {
        let (a, b) = (feats(s, 0), feats(s, 1));
        assert!(a.iter().chain(&b).all(|x| x.is_finite() && x.abs() <= 2.0), "decision {k}: {a:?} {b:?}");
        assert_eq!(a, feats(s, 0), "decision {k}: not deterministic");
        for (seat, x) in [(0, &a), (1, &b)] {
            let d = s.determinized(seat, &mut rng);
            assert_eq!(&feats(&d, seat), x, "decision {k}: seat {seat}'s features read a hidden card");
        }
        assert_eq!(a[g("attacker")] + b[g("attacker")], 1.0);
        assert_eq!(a[g("to_move")] + b[g("to_move")], 1.0);
        for n in same {
            assert_eq!(a[g(n)], b[g(n)], "decision {k}: {n}");
        }
        for (m, o) in swapped {
            assert_eq!(a[g(m)], b[g(o)], "decision {k}: {m}");
            assert_eq!(b[g(m)], a[g(o)], "decision {k}: {m}");
        }
        for sec in 0..7 {
            let at = |f: &str| GLOBAL + sec * PER_SECTION + SECTION.iter().position(|x| *x == f).unwrap();
            for f in ["damaged", "cap", "cond_sum", "cond_restricted"] {
                assert_eq!(a[at(f)], b[at(f)], "decision {k} section {sec}: {f}");
            }
            for (m, o) in [("my_cards", "opp_cards"), ("my_best", "opp_best")] {
                assert_eq!(a[at(m)], b[at(o)], "decision {k} section {sec}: {m}");
                assert_eq!(b[at(m)], a[at(o)], "decision {k} section {sec}: {m}");
            }
            assert_eq!(a[at("decided")], -b[at("decided")], "decision {k} section {sec}");
            decided += (a[at("decided")] != 0.0) as usize;
            hand_best += (a[at("my_hand_best")] > 0.0) as usize;
        }
        cancels += (a[g("hand_cancel")] > 0.0) as usize;
    }
    assert!(decided > 50 && hand_best > 300 && cancels > 50, "{decided} {hand_best} {cancels}");
}

/// One row per legal action of a key decision, one kind each, greedy's pick marked once and
/// ranked first; no rows at the other decisions.
#[test]
fn option_features_describe_every_action_of_a_key_decision_and_mark_greedys_pick() {
    let states = decisions(8);
    let (mut key, mut oils, mut cancels) = (0, 0, 0);
    let mut legal = Vec::new();
    let mut rows = Vec::new();
    let mut rng = Rng::new(1);
    for (k, s) in states.iter().enumerate() {
        s.legal_actions(&mut legal);
        let has = s.option_features(&mut rows);
        assert_eq!(has, s.key_decision(), "decision {k}");
        if !has {
            assert!(rows.is_empty());
            continue;
        }
        key += 1;
        assert_eq!(rows.len(), legal.len() * actions::LEN, "decision {k}");
        assert!(rows.iter().all(|x| x.is_finite()));
        let mut again = Vec::new();
        assert!(s.option_features(&mut again));
        assert_eq!(rows, again);
        for row in rows.chunks_exact(actions::LEN) {
            assert_eq!(row[..4].iter().sum::<f32>(), 1.0, "decision {k}");
            oils += (row[opt("opt_oil")] == 1.0) as usize;
            cancels += (row[opt("card_cancels")] == 1.0) as usize;
        }
        let picks: Vec<usize> = (0..legal.len()).filter(|&i| rows[i * actions::LEN + opt("greedy_pick")] == 1.0).collect();
        assert_eq!(picks.len(), 1, "decision {k}");
        let greedy = GreedyBot.act(s, &legal, &mut rng);
        assert_eq!(legal[picks[0]], greedy, "decision {k}: the pick is greedy's");
        assert_eq!(rows[picks[0] * actions::LEN + opt("greedy_rank")], 0.0);
        if legal.len() >= 2 {
            assert!((0..legal.len()).filter(|&i| i != picks[0]).all(|i| rows[i * actions::LEN + opt("greedy_rank")] > 0.0));
        }
    }
    assert!(key > 200 && oils > 10 && cancels > 0, "{key} key decisions, {oils} cauldron rows, {cancels} cancels");
}

#[test]
fn recorded_decisions_hold_every_option_and_greedys_choice() {
    let r = SchottenTotten2;
    let v = values();
    let agents = vec!["random".to_string(), "greedy".to_string()];
    let b = |threads| GenericBatch { values: &v, seats: 2, agents: &agents, first: 2, games: 16, seed: 6, threads: Some(threads) };
    let teachers = vec!["greedy".to_string(), "greedy".to_string()];
    let one = choices::record(&r, &b(1), Some(&teachers), 1.0, &Stop::new()).unwrap();
    let two = choices::record(&r, &b(2), Some(&teachers), 1.0, &Stop::new()).unwrap();
    assert_eq!(one, two);
    let d = one.choice.len();
    assert!(d > 16 * 10, "{d} decisions");
    assert_eq!((one.width, one.opt_width), (LEN, actions::LEN));
    assert_eq!(one.offsets.len(), d + 1);
    assert_eq!(one.x.len(), d * LEN);
    assert_eq!(one.opt_x.len() as u64, one.offsets[d] * actions::LEN as u64);
    assert_eq!((one.seat.len(), one.game.len(), one.y.len()), (d, d, d));
    let pick = opt("greedy_pick");
    for k in 0..d {
        let (lo, hi) = (one.offsets[k] as usize, one.offsets[k + 1] as usize);
        assert!(hi - lo >= 2 && (one.choice[k] as usize) < hi - lo);
        assert_eq!(one.opt_x[(lo + one.choice[k] as usize) * actions::LEN + pick], 1.0, "decision {k}: greedy's choice is its pick");
        // the mover's own features: it is the seat to move
        assert_eq!(one.x[k * LEN + idx("to_move")], 1.0);
        assert_eq!(one.x[k * LEN + idx("attacker")], (one.seat[k] == 0) as u8 as f32);
    }
    // value positions record both seats
    let p = positions::record(&r, &b(2), 0.5, &Stop::new()).unwrap();
    assert_eq!(p.width, LEN);
    assert!(p.y.len() > 16 * 4 && p.x.len() == p.y.len() * LEN);
}

struct Models {
    dir: PathBuf,
}

impl Models {
    fn new(tag: &str) -> Models {
        let dir = std::env::temp_dir().join(format!("kh_st2_{tag}_{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Models { dir }
    }
    fn write(&self, name: &str, bytes: Vec<u8>) -> String {
        let p = self.dir.join(name);
        std::fs::write(&p, bytes).unwrap();
        p.display().to_string()
    }
    /// A one-unit policy whose logit is `sign` × the greedy-pick flag.
    fn greedy(&self, name: &str, sign: f32) -> String {
        let names = actions::policy_names();
        let n = names.len();
        let mut w = vec![0f32; n + 1];
        w[LEN + opt("greedy_pick")] = sign;
        self.write(name, to_bytes("schotten_totten_2", "policy", &actions::policy_layout(), &names, 0, &[n, 1], &w))
    }
}

impl Drop for Models {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// What a batch's games were: winners, turns, end reasons, the game and seat columns.
type Games = (Vec<i64>, Vec<u32>, Vec<&'static str>, Vec<(&'static str, Vec<f64>)>, Vec<(&'static str, Vec<f64>)>);

fn games_of(c: &GenericColumns) -> Games {
    (c.winner.clone(), c.turns.clone(), c.end_reason.clone(), c.game_extra.clone(), c.seat_extra.clone())
}

#[test]
fn the_learned_agent_with_a_copy_of_greedy_plays_greedys_games() {
    let m = Models::new("copy");
    let copy = format!("learned:model={}", m.greedy("copy.khnn", 1.0));
    let anti = format!("learned:model={}", m.greedy("anti.khnn", -1.0));
    let r = SchottenTotten2;
    let v = values();
    let play = |a: &str, b: &str| run(&r, &v, 2, &[a.to_string(), b.to_string()], 40, 21, Some(2)).unwrap();
    let greedy = play("greedy", "greedy");
    assert_eq!(games_of(&play(&copy, "greedy")), games_of(&greedy));
    assert_eq!(games_of(&play("greedy", &copy)), games_of(&greedy));
    assert_eq!(games_of(&play(&copy, &copy)), games_of(&greedy));
    // the anti-policy (greedy's pick last) plays other games, and the Attacker wins less
    let worse = play(&anti, "greedy");
    assert_ne!(games_of(&worse), games_of(&greedy));
    assert!(worse.wins(0) < greedy.wins(0), "anti {} vs greedy {}", worse.wins(0), greedy.wins(0));

    // its ranking is a permutation of the legal actions, its pick first: a search prior
    let mut agent = make_agent(&r, &AgentSpec::parse(&copy).unwrap(), &v, 2, 1).unwrap();
    let mut s = r.new_game(&v, 2, 4, 0).unwrap();
    let (mut legal, mut ranked, mut rng, mut seen) = (Vec::new(), Vec::new(), Rng::new(2), 0);
    while let Some(seat) = s.to_move() {
        s.legal_actions(&mut legal);
        if seat == 1 && legal.len() >= 2 && agent.rank(&s, &legal, &mut rng, &mut ranked) {
            assert_eq!(ranked[0], agent.act(&s, &legal, &mut rng));
            let (mut a, mut b) = (ranked.clone(), legal.clone());
            a.sort_unstable();
            b.sort_unstable();
            assert_eq!(a, b);
            seen += 1;
        }
        let a = legal[rng.below(legal.len())];
        s.apply(a).unwrap();
    }
    assert!(seen > 5, "{seen} ranked decisions");
    // as the search's prior (its options after ';')
    let prior = format!("search:iterations=8,prior={}", copy.replacen(':', ";", 1));
    let a = run(&r, &v, 2, &[prior.clone(), "greedy".to_string()], 2, 3, Some(1)).unwrap();
    let b = run(&r, &v, 2, &[prior, "greedy".to_string()], 2, 3, Some(2)).unwrap();
    assert_eq!(a, b);
    assert!(a.unfinished.iter().all(|u| !u));
}

/// Schotten Totten 2 without features (the trait's defaults).
struct Plain;

impl Rules for Plain {
    type State = State;
    fn name(&self) -> &'static str {
        "plain_st2"
    }
    fn registry(&self) -> Vec<ketharmad::harness::GameParam> {
        SchottenTotten2.registry()
    }
    fn seat_range(&self) -> (usize, usize) {
        SchottenTotten2.seat_range()
    }
    fn sides(&self) -> Vec<&'static str> {
        SchottenTotten2.sides()
    }
    fn action_space(&self, seats: usize) -> usize {
        SchottenTotten2.action_space(seats)
    }
    fn observation_len(&self, seats: usize) -> usize {
        SchottenTotten2.observation_len(seats)
    }
    fn new_game(&self, values: &[f64], seats: usize, batch_seed: u64, game: u64) -> Result<State, String> {
        SchottenTotten2.new_game(values, seats, batch_seed, game)
    }
}

#[test]
fn foreign_models_and_games_without_features_are_refused_by_name() {
    let m = Models::new("refuse");
    let r = SchottenTotten2;
    let v = values();
    let err = |spec: &str| make_agent(&r, &AgentSpec::parse(spec).unwrap(), &v, 2, 0).err().unwrap_or_else(|| panic!("{spec} was accepted"));
    let names = actions::policy_names();
    let n = names.len();
    // a model of another game
    let k = m.write("ketharmad.khnn", to_bytes("ketharmad", "policy", "ketharmad-v1+ketharmad-options-v1", &names, 0, &[n, 1], &vec![0.0; n + 1]));
    let e = err(&format!("learned:model={k}"));
    assert!(e.contains("model of game 'ketharmad'") && e.contains("schotten_totten_2"), "{e}");
    // a value model of this game
    let value = m.write("value.khnn", to_bytes("schotten_totten_2", "value", LAYOUT, &NAMES, 0, &[LEN, 1], &vec![0.0; LEN + 1]));
    let e = err(&format!("learned:model={value}"));
    assert!(e.contains("'value' model, not a 'policy' model"), "{e}");
    // a policy of another layout (the position features alone)
    let short = m.write("short.khnn", to_bytes("schotten_totten_2", "policy", LAYOUT, &NAMES, 0, &[LEN, 1], &vec![0.0; LEN + 1]));
    let e = err(&format!("learned:model={short}"));
    assert!(e.contains("feature layout") && e.contains("retrain") && e.contains(actions::LAYOUT), "{e}");
    // no model, a bad option, a missing file
    // without a model file: the shipped Schotten Totten 2 policy
    assert!(make_agent(&r, &AgentSpec::parse("learned").unwrap(), &v, 2, 0).is_ok());
    assert!(err(&format!("learned:model={short},depth=2")).contains("unknown option 'depth'"));
    assert!(err("learned:model=3").contains("must be a model file's path"));
    assert!(err("learned:model=/nonexistent/p.khnn").contains("/nonexistent/p.khnn"));
    // the value model is the search's (its layout is this game's position features)
    assert!(make_agent(&r, &AgentSpec::parse(&format!("search:iterations=4,value={value}")).unwrap(), &v, 2, 0).is_ok());
    // a game without features (this game with its features hidden), and Osztrakon, whose
    // own agents claim every other name
    let good = m.greedy("good.khnn", 1.0);
    let e = make_agent(&Plain, &AgentSpec::parse(&format!("learned:model={good}")).unwrap(), &v, 2, 0).err().unwrap();
    assert!(e.contains("plain_st2 has no position features"), "{e}");
    let ov = resolve(&Osztrakon.registry(), &[]).unwrap();
    let e = make_agent(&Osztrakon, &AgentSpec::parse(&format!("learned:model={good}")).unwrap(), &ov, 4, 0).err().unwrap();
    assert!(e.contains("'learned'"), "{e}");
}
