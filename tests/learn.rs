//! Learned bots (issue 26): the model file format and its errors, the dense network's
//! arithmetic, Kétharmad's position features, and self-play positions (same games as the
//! batch, independent of the thread count, labelled with each seat's result).

use ketharmad::cards::{load_raw, RawDb};
use ketharmad::games::ketharmad::KetharmadRules;
use ketharmad::games::schotten_totten2::SchottenTotten2;
use ketharmad::harness::agents::{make_agent, AgentSpec};
use ketharmad::harness::batch::{run, GenericBatch};
use ketharmad::harness::{resolve, Rules, Stop};
use ketharmad::learn::ketharmad_features::{LAYOUT, LEN, NAMES};
use ketharmad::learn::mlp::{layout_hash, to_bytes, Mlp};
use ketharmad::learn::positions::record;
use std::sync::Arc;

fn raw() -> Arc<RawDb> {
    Arc::new(load_raw(ketharmad::DEFAULT_CARD_DATA).unwrap())
}

fn rules() -> KetharmadRules {
    KetharmadRules::new(raw(), Vec::new(), &["ner".into(), "tisza".into()], None).unwrap()
}

/// A 2-3-1 network with known weights: relu(W1 x + b1), then w2 · h + b2.
fn tiny() -> Vec<u8> {
    let w = [1.0f32, 0.0, 0.0, 1.0, 1.0, -1.0, 0.5, 0.5, 0.0, 2.0, -1.0, 3.0, 0.25];
    to_bytes("ketharmad", "value", "tiny", &["a", "b"], 7, &[2, 3, 1], &w)
}

#[test]
fn the_network_computes_relu_layers_and_a_logit() {
    let m = Mlp::parse(&tiny(), "tiny.khnn").unwrap();
    assert_eq!(m.dims, vec![2, 3, 1]);
    assert_eq!(m.card_hash, 7);
    // h = relu([x0 + .5, x1 + .5, x0 - x1]) ; out = 2 h0 - h1 + 3 h2 + .25
    let x = [1.0f32, 2.0];
    let h = [1.5f32, 2.5, 0.0];
    assert!((m.forward(&x) - (2.0 * h[0] - h[1] + 3.0 * h[2] + 0.25)).abs() < 1e-6);
    let x = [3.0f32, 1.0];
    let h = [3.5f32, 1.5, 2.0];
    assert!((m.forward(&x) - (2.0 * h[0] - h[1] + 3.0 * h[2] + 0.25)).abs() < 1e-6);
    // the value maps the logit to -1..1: 2 sigma(z) - 1
    let z = m.forward(&x) as f64;
    assert!((m.value(&x) - (2.0 / (1.0 + (-z).exp()) - 1.0)).abs() < 1e-12);
}

#[test]
fn the_prefix_shortcut_computes_the_same_network() {
    // a 4-layer network with pseudo-random weights: the policy's path (the prefix's share of
    // the first layer once, then the rest) gives exactly `forward` of the whole input
    let dims = [12usize, 16, 8, 1];
    let n: usize = dims.windows(2).map(|w| w[0] * w[1] + w[1]).sum();
    let mut r = ketharmad::rng::Rng::new(42);
    let mut rnd = || ((r.next_u64() >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0;
    let w: Vec<f32> = (0..n).map(|_| rnd()).collect();
    let names: Vec<String> = (0..12).map(|i| format!("f{i}")).collect();
    let names: Vec<&str> = names.iter().map(|s| s.as_str()).collect();
    let m = Mlp::parse(&to_bytes("ketharmad", "policy", "t", &names, 0, &dims, &w), "t").unwrap();
    let mut pre = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..20 {
        let x: Vec<f32> = (0..12).map(|_| rnd()).collect();
        m.first_layer_prefix(&x[..7], &mut pre);
        let a = m.forward(&x);
        let b = m.forward_with_prefix(&pre, 7, &x[7..]);
        assert!((a - b).abs() <= 1e-5 * (1.0 + a.abs()), "{a} vs {b}");
        seen.insert((a * 1000.0) as i64);
    }
    assert!(seen.len() > 10, "the network is not constant");
}

/// The row-major forward pass as the file stores it (each output a dot product: its bias,
/// then every input in order), the reference of `Mlp::forward`'s column-wise loop.
fn reference_forward(dims: &[usize], w: &[f32], x: &[f32]) -> f32 {
    let mut a = x.to_vec();
    let mut off = 0;
    for (l, d) in dims.windows(2).enumerate() {
        let (ni, no) = (d[0], d[1]);
        let out: Vec<f32> = (0..no)
            .map(|o| {
                let mut s = w[off + ni * no + o];
                for i in 0..ni {
                    s += w[off + o * ni + i] * a[i];
                }
                if l + 2 < dims.len() {
                    s.max(0.0)
                } else {
                    s
                }
            })
            .collect();
        off += ni * no + no;
        a = out;
    }
    a[0]
}

#[test]
fn the_column_wise_forward_pass_gives_the_same_bits_as_the_row_major_one() {
    // the shipped policy's shape (64 inputs, 64, 32, 1), narrow ones and one wider than the
    // narrow scratch (100 inputs, 80): every output's sum is taken in the same order, so the
    // scores (and so the games) are bit for bit those of a dot product per row, whole input
    // or prefix shortcut
    let mut r = ketharmad::rng::Rng::new(7);
    let mut rnd = || ((r.next_u64() >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0;
    for dims in [vec![64usize, 64, 32, 1], vec![5, 3, 1], vec![9, 1], vec![100, 80, 1], vec![70, 16, 1]] {
        let n: usize = dims.windows(2).map(|w| w[0] * w[1] + w[1]).sum();
        let w: Vec<f32> = (0..n).map(|_| rnd()).collect();
        let names: Vec<String> = (0..dims[0]).map(|i| format!("f{i}")).collect();
        let names: Vec<&str> = names.iter().map(|s| s.as_str()).collect();
        let m = Mlp::parse(&to_bytes("ketharmad", "policy", "t", &names, 0, &dims, &w), "t").unwrap();
        let at = dims[0] / 2;
        let mut pre = Vec::new();
        for _ in 0..50 {
            let x: Vec<f32> = (0..dims[0]).map(|_| if rnd() > 0.3 { 0.0 } else { rnd() }).collect();
            let want = reference_forward(&dims, &w, &x);
            assert_eq!(m.forward(&x).to_bits(), want.to_bits(), "{dims:?}");
            m.first_layer_prefix(&x[..at], &mut pre);
            assert_eq!(m.forward_with_prefix(&pre, at, &x[at..]).to_bits(), m.forward(&x).to_bits(), "{dims:?}");
        }
    }
}

#[test]
fn bad_model_files_are_errors_naming_the_problem() {
    let good = tiny();
    let e = Mlp::parse(b"hello world, not a model", "x.khnn").unwrap_err();
    assert!(e.contains("x.khnn") && e.contains("not a ketharmad model"), "{e}");
    let e = Mlp::parse(&good[..20], "x.khnn").unwrap_err();
    assert!(e.contains("truncated in its header"), "{e}");
    let e = Mlp::parse(&good[..good.len() - 4], "x.khnn").unwrap_err();
    assert!(e.contains("truncated or corrupt"), "{e}");
    let bad = to_bytes("ketharmad", "value", "tiny", &["a", "b"], 0, &[2, 3, 2], &[0.0; 17]);
    assert!(Mlp::parse(&bad, "x").unwrap_err().contains("ending in 1"));
    let e = Mlp::load("/nonexistent/model.khnn").unwrap_err();
    assert!(e.contains("/nonexistent/model.khnn"), "{e}");
    let m = Mlp::parse(&good, "tiny.khnn").unwrap();
    let e = m.check("schotten_totten_2", "value", &["a", "b"]).unwrap_err();
    assert!(e.contains("model of game 'ketharmad'"), "{e}");
    let e = m.check("ketharmad", "policy", &["a", "b"]).unwrap_err();
    assert!(e.contains("'value' model"), "{e}");
    let e = m.check("ketharmad", "value", &NAMES).unwrap_err();
    assert!(e.contains("feature layout") && e.contains("retrain"), "{e}");
    assert!(m.check("ketharmad", "value", &["a", "b"]).is_ok());
    assert_ne!(layout_hash(&["a", "b"]), layout_hash(&["b", "a"]));
}

fn batch<'a>(values: &'a [f64], agents: &'a [String], games: u64, threads: usize) -> GenericBatch<'a> {
    GenericBatch { values, seats: 2, agents, first: 0, games, seed: 5, threads: Some(threads) }
}

#[test]
fn positions_are_the_batch_games_labelled_with_each_seats_result_on_any_thread_count() {
    let r = rules();
    let values = resolve(&r.registry(), &[]).unwrap();
    let agents = vec!["tuned".to_string(), "heuristic".to_string()];
    let one = record(&r, &batch(&values, &agents, 60, 1), 0.5, &Stop::new()).unwrap();
    let two = record(&r, &batch(&values, &agents, 60, 2), 0.5, &Stop::new()).unwrap();
    assert_eq!(one, two);
    assert_eq!(one.width, LEN);
    assert_eq!(one.x.len(), one.y.len() * LEN);
    assert!(one.y.len() > 60 * 4, "{} rows", one.y.len());
    // the same games as the batch: each row's result is its seat's result there
    let cols = run(&r, &values, 2, &agents, 60, 5, Some(2)).unwrap();
    for (i, (&g, &s)) in one.game.iter().zip(&one.seat).enumerate() {
        let w = cols.winner[g as usize];
        let want = if w < 0 {
            0.5
        } else if w as u8 == s {
            1.0
        } else {
            0.0
        };
        assert_eq!(one.y[i], want, "row {i}: game {g} seat {s} winner {w}");
    }
    // every sampled decision records both seats, and in 2 seats each one's `me` block is the
    // other's `foe` block (the same public facts read from both sides)
    let me = NAMES.iter().position(|n| *n == "me_alive").unwrap();
    let foe = NAMES.iter().position(|n| *n == "foe_alive").unwrap();
    let support = NAMES.iter().position(|n| *n == "me_support").unwrap();
    let mut moved = false;
    for r2 in (0..one.y.len()).step_by(2) {
        assert_eq!((one.seat[r2], one.seat[r2 + 1]), (0, 1));
        assert_eq!(one.game[r2], one.game[r2 + 1]);
        let a = &one.x[r2 * LEN..(r2 + 1) * LEN];
        let b = &one.x[(r2 + 1) * LEN..(r2 + 2) * LEN];
        for k in 0..13 {
            assert_eq!(a[me + k], b[foe + k], "row {r2}: {}", NAMES[me + k]);
            assert_eq!(b[me + k], a[foe + k], "row {r2}: {}", NAMES[me + k]);
        }
        // exactly one of the two is the seat to move
        assert_eq!(a[1] + b[1], 1.0);
        moved |= a[support] != 1.0 && a[support] != b[support];
    }
    assert!(moved, "Support never changed in 60 games");
    // sampling every key decision records more rows
    let rate = record(&r, &batch(&values, &agents, 60, 2), 1.0, &Stop::new()).unwrap();
    assert!(rate.y.len() > one.y.len());
}

#[test]
fn recording_names_bad_input_before_any_game() {
    let r = rules();
    let values = resolve(&r.registry(), &[]).unwrap();
    let agents = vec!["tuned".to_string(), "tuned".to_string()];
    let e = record(&r, &batch(&values, &agents, 10, 1), 0.0, &Stop::new()).unwrap_err().to_string();
    assert!(e.contains("sampling rate"), "{e}");
    // Osztrakon has no features (Schotten Totten 2 has: tests/learn_st2.rs)
    let oz = ketharmad::games::osztrakon::Osztrakon;
    let vo = resolve(&oz.registry(), &[]).unwrap();
    let ao = vec!["random".to_string(), "random".to_string()];
    let e = record(&oz, &batch(&vo, &ao, 10, 1), 0.5, &Stop::new()).unwrap_err().to_string();
    assert!(e.contains("osztrakon has no position features"), "{e}");
}

#[test]
fn the_search_takes_a_value_model_and_refuses_a_foreign_one() {
    let dir = std::env::temp_dir().join(format!("kh_learn_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // a model of this layout whose value is (Support difference) * 4: one hidden unit each way
    let mut w = vec![0f32; LEN * 2 + 2 + 2 + 1];
    let me = NAMES.iter().position(|n| *n == "me_support").unwrap();
    let foe = NAMES.iter().position(|n| *n == "foe_support").unwrap();
    w[me] = 1.0;
    w[foe] = -1.0;
    w[LEN + me] = -1.0;
    w[LEN + foe] = 1.0;
    w[2 * LEN + 2] = 4.0;
    w[2 * LEN + 3] = -4.0;
    let good = dir.join("support.khnn");
    std::fs::write(&good, to_bytes("ketharmad", "value", LAYOUT, &NAMES, 0, &[LEN, 2, 1], &w)).unwrap();
    let r = rules();
    let values = resolve(&r.registry(), &[]).unwrap();
    let spec = AgentSpec::parse(&format!("ismcts:iterations=20,value={}", good.display())).unwrap();
    assert!(make_agent(&r, &spec, &values, 2, 0).is_ok());
    // it plays whole games, the same ones on any thread count
    let agents = vec![format!("ismcts:iterations=20,value={}", good.display()), "tuned".to_string()];
    let a = run(&r, &values, 2, &agents, 4, 9, Some(1)).unwrap();
    let b = run(&r, &values, 2, &agents, 4, 9, Some(2)).unwrap();
    assert_eq!(a, b);
    let plain = vec!["ismcts:iterations=20".to_string(), "tuned".to_string()];
    let c = run(&r, &values, 2, &plain, 4, 9, Some(2)).unwrap();
    assert_ne!((a.turns.clone(), a.winner.clone()), (c.turns, c.winner), "the value model changed no game");
    // foreign models are refused by name
    let other = dir.join("other.khnn");
    std::fs::write(&other, tiny()).unwrap();
    let spec = AgentSpec::parse(&format!("ismcts:value={}", other.display())).unwrap();
    let e = make_agent(&r, &spec, &values, 2, 0).err().unwrap();
    assert!(e.contains("feature layout"), "{e}");
    let st2 = SchottenTotten2;
    let v2 = resolve(&st2.registry(), &[]).unwrap();
    let spec = AgentSpec::parse(&format!("search:value={}", good.display())).unwrap();
    let e = make_agent(&st2, &spec, &v2, 2, 0).err().unwrap();
    assert!(e.contains("model of game 'ketharmad'"), "{e}");
    let oz = ketharmad::games::osztrakon::Osztrakon;
    let vo = resolve(&oz.registry(), &[]).unwrap();
    let e = make_agent(&oz, &spec, &vo, 5, 0).err().unwrap();
    assert!(e.contains("osztrakon has no position features"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn labelled_decisions_hold_every_option_and_the_teachers_choice() {
    use ketharmad::learn::choices;
    use ketharmad::learn::ketharmad_actions as actions;
    let r = rules();
    let values = resolve(&r.registry(), &[]).unwrap();
    let agents = vec!["heuristic".to_string(), "random".to_string()];
    let b = |threads| GenericBatch { values: &values, seats: 2, agents: &agents, first: 3, games: 30, seed: 8, threads: Some(threads) };
    // labelled by `tuned` while `heuristic` and `random` play
    let teachers = vec!["tuned".to_string(), "tuned".to_string()];
    let one = choices::record(&r, &b(1), Some(&teachers), 1.0, &Stop::new()).unwrap();
    let two = choices::record(&r, &b(2), Some(&teachers), 1.0, &Stop::new()).unwrap();
    assert_eq!(one, two);
    let d = one.choice.len();
    assert!(d > 30 * 10, "{d} decisions");
    assert_eq!(one.offsets.len(), d + 1);
    assert_eq!(one.x.len(), d * LEN);
    assert_eq!(one.opt_x.len() as u64, one.offsets[d] * actions::LEN as u64);
    let pick = actions::NAMES.iter().position(|n| *n == "heuristic_pick").unwrap();
    let kinds = 0..8;
    for k in 0..d {
        let (lo, hi) = (one.offsets[k] as usize, one.offsets[k + 1] as usize);
        assert!(hi - lo >= 2, "decision {k} has {} options", hi - lo);
        assert!((one.choice[k] as usize) < hi - lo);
        // every option row is exactly one kind of main-priority option
        for row in lo..hi {
            let r = &one.opt_x[row * actions::LEN..(row + 1) * actions::LEN];
            assert_eq!(r[kinds.clone()].iter().sum::<f32>(), 1.0, "decision {k} row {row}");
        }
        // `tuned` chooses the option its own scores rank first (the feature says which)
        let chosen = lo + one.choice[k] as usize;
        assert_eq!(one.opt_x[chosen * actions::LEN + pick], 1.0, "decision {k}");
    }
    // the games are the playing agents' (heuristic and random), not the teachers'
    let cols = run(&r, &values, 2, &agents, 33, 8, Some(2)).unwrap();
    for (k, (&g, &s)) in one.game.iter().zip(&one.seat).enumerate() {
        let w = cols.winner[g as usize];
        assert_eq!(
            one.y[k],
            if w < 0 {
                0.5
            } else if w as u8 == s {
                1.0
            } else {
                0.0
            }
        );
    }
    let e = choices::record(&r, &b(1), Some(&teachers[..1]), 1.0, &Stop::new()).unwrap_err().to_string();
    assert!(e.contains("teacher specs"), "{e}");
}

#[test]
fn the_learned_bot_plays_its_models_best_option() {
    use ketharmad::batch::{run_batch, BatchSpec};
    use ketharmad::bots::BotSpec;
    use ketharmad::learn::ketharmad_actions as actions;
    let dir = std::env::temp_dir().join(format!("kh_policy_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let names = actions::policy_names();
    let n = names.len();
    // one linear unit: the logit is the heuristic's pick flag (a copy of `tuned` at main
    // priority) or, negated, the same bot's worst choices
    let pick = names.iter().position(|x| *x == "heuristic_pick").unwrap();
    let model = |sign: f32, name: &str| {
        let mut w = vec![0f32; n + 1];
        w[pick] = sign;
        let p = dir.join(name);
        std::fs::write(&p, to_bytes("ketharmad", "policy", "ketharmad-v1+ketharmad-options-v1", &names, 0, &[n, 1], &w)).unwrap();
        p.display().to_string()
    };
    let (copy, anti) = (model(1.0, "copy.khnn"), model(-1.0, "anti.khnn"));
    let r = rules();
    let spec = |kind: &str, path: Option<&str>| {
        let s = BotSpec::parse(kind, vec![]).unwrap();
        match path {
            Some(p) => s.with_model("model", p).unwrap(),
            None => s,
        }
    };
    let games = |a: BotSpec, b: BotSpec| {
        let s = BatchSpec { factions: vec![0, 2], bots: vec![a, b], games: 200, seed: 4, threads: Some(2), start_player: None, ..Default::default() };
        run_batch(r.db(), &s).unwrap()
    };
    // the copy plays exactly `tuned`'s games
    let a = games(spec("learned", Some(&copy)), spec("heuristic", None));
    let b = games(spec("tuned", None), spec("heuristic", None));
    assert_eq!(a.games.winner, b.games.winner);
    assert_eq!(a.games.turns, b.games.turns);
    // the anti-policy loses far more often against the same opponent
    let c = games(spec("learned", Some(&anti)), spec("heuristic", None));
    let wins = |x: &ketharmad::batch::Columns| x.games.winner.iter().filter(|&&w| w == 0).count();
    assert!(wins(&b) >= 20 && wins(&c) * 3 < wins(&b), "anti {} vs copy {}", wins(&c), wins(&b));
    // on the harness, the learned bot ranks every option, its own pick first (the search's prior)
    let values = resolve(&r.registry(), &[]).unwrap();
    let mut agent = make_agent(&r, &AgentSpec::parse(&format!("learned:model={copy}")).unwrap(), &values, 2, 0).unwrap();
    let mut st = r.new_game(&values, 2, 6, 0).unwrap();
    let (mut legal, mut ranked, mut rng, mut seen) = (Vec::new(), Vec::new(), ketharmad::rng::Rng::new(1), 0);
    use ketharmad::harness::GameState;
    while let Some(seat) = st.to_move() {
        st.legal_actions(&mut legal);
        if seat == 0 && legal.len() >= 2 && agent.rank(&st, &legal, &mut rng, &mut ranked) {
            let pick = agent.act(&st, &legal, &mut rng);
            assert_eq!(ranked[0], pick);
            let (mut a, mut b) = (ranked.clone(), legal.clone());
            a.sort_unstable();
            b.sort_unstable();
            assert_eq!(a, b, "the ranking is a permutation of the legal actions");
            seen += 1;
        }
        let a = legal[rng.below(legal.len())];
        st.apply(a).unwrap();
    }
    assert!(seen > 5, "{seen} ranked decisions");
    // a learned bot needs its model, of the right kind
    // without a model file: the shipped policy
    let mut shipped = spec("learned", None);
    shipped.check_model().unwrap();
    assert!(shipped.model.as_ref().unwrap().path.starts_with("shipped:"));
    assert_eq!(shipped.model.as_ref().unwrap().kind, "policy");
    let value = dir.join("value.khnn");
    std::fs::write(&value, to_bytes("ketharmad", "value", LAYOUT, &NAMES, 0, &[LEN, 1], &[0.0; LEN + 1])).unwrap();
    let e = BotSpec::parse("learned", vec![]).unwrap().with_model("model", &value.display().to_string()).unwrap_err();
    assert!(e.contains("'value' model, not a 'policy' model"), "{e}");
    let e = BotSpec::parse("heuristic", vec![]).unwrap().with_model("model", &copy).unwrap_err();
    assert!(e.contains("an option of 'learned'"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}
