//! The rules code runs `Untraced` (no log line, no invariant check compiled in) only when
//! nothing asks for them (`engine::mode`): the fuzzer's checks and the log still run wherever
//! they are switched on, including a driven copy that takes the recorders back after its
//! replay.

use ketharmad::cards::{build_db, load_raw, CardDb};
use ketharmad::engine::step::Stepper;
use ketharmad::engine::{scenario, GameConfig};
use ketharmad::rng::Rng;

fn db() -> CardDb {
    build_db(&load_raw(ketharmad::DEFAULT_CARD_DATA).unwrap(), &[]).unwrap()
}

/// A resource left in a pool as a turn starts breaks an invariant: found when the checks are
/// on (the game runs `Traced`), not looked for when they are off (`Untraced`).
#[test]
fn invariant_checks_run_when_switched_on() {
    let db = scenario::db(&[]);
    for check in [true, false] {
        let mut g = scenario::game(&db, &["ner", "tisza"]);
        g.trace_mut().check_invariants = check;
        g.state_mut().players[1].pool = [1, 0, 0];
        g.state_mut().active = 1;
        g.run_loop();
        let e = g.trace().invariant_error.clone();
        if check {
            assert!(e.is_some_and(|e| e.contains("resources did not vanish")), "check {check}");
        } else {
            assert_eq!(e, None);
        }
    }
}

/// A stepper with a log logs every decision, and so does its replayed copy once it has
/// caught up: the two logs stay equal line for line.
#[test]
fn a_replayed_stepper_logs_like_the_original() {
    let db = db();
    let cfg = GameConfig { factions: vec![0, 2], seed: 7, start_player: None, ..Default::default() };
    let mut s = Stepper::with_recorders(&db, &cfg, true, false);
    let mut rng = Rng::new(3);
    for _ in 0..40 {
        let Some((_, _, opts)) = s.pending() else { break };
        let n = opts.len();
        s.apply(rng.below(n)).unwrap();
    }
    let mut copy = s.replayed();
    let lines = s.game().trace().log.as_ref().unwrap().len();
    assert!(lines > 20);
    let mut r1 = Rng::new(5);
    let mut r2 = Rng::new(5);
    while let Some((_, _, opts)) = s.pending() {
        let n = opts.len();
        s.apply(r1.below(n)).unwrap();
        let n2 = copy.pending().unwrap().2.len();
        copy.apply(r2.below(n2)).unwrap();
    }
    let a = s.game().trace().log.as_ref().unwrap();
    let b = copy.game().trace().log.as_ref().unwrap();
    assert!(a.len() > lines);
    assert_eq!(a, b);
}
