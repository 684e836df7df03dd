//! Osztrakon (issue 14): test vectors T1–T13 of shared/spec/osztrakon.md, rule tests (scoring
//! R6, disciples R8, special days R9, end of game and ties R11), parameter errors (E4), an
//! invariant fuzzer for every player count 5–12 (KETHARMAD_OSZ_FUZZ_GAMES games per count,
//! default 300), determinism (E3) and determinize keeping the seat's observation.

use ketharmad::games::osztrakon::actions::*;
use ketharmad::games::osztrakon::model::{betrayal_adv, succ_and_adv, Scoring};
use ketharmad::games::osztrakon::params::{Params, RULE_BETRAYAL, RULE_CORRUPTION, RULE_DIVINATION, RULE_NONE};
use ketharmad::games::osztrakon::stacks::{IN_PILE, NONE};
use ketharmad::games::osztrakon::{agent, new_game_with, seat_rng, Osztrakon, Phase, State};
use ketharmad::harness::{play_out, resolve, Agent, GameState, Rules, Value};
use ketharmad::rng::Rng;

const ALL: u16 = 0xFFF;

fn prm() -> Params {
    Params::defaults()
}

fn layout(p: Params, n: usize, stacks: &[(u8, &[u8])], sun: u8, day: u8, rule: u8, laurel: u16) -> State {
    State::from_layout(p, n, stacks, sun, day, rule, laurel, Rng::new(99)).unwrap()
}

/// Black-vote mask of the given seats.
fn mask(seats: &[u8]) -> u16 {
    seats.iter().fold(0, |m, &s| m | (1 << s))
}

/// The asker asks candidate 0 (everybody passes on the disciple window) and votes `black`
/// with the others' votes forced to `others_black`.
fn ask(s: &mut State, black: bool, others_black: u16) {
    s.apply(A_CAND0).unwrap();
    while s.phase == Phase::Disciple {
        s.apply(A_PASS).unwrap();
    }
    s.forced_votes = Some(others_black);
    s.apply(if black { A_BLACK } else { A_WHITE }).unwrap();
}

// ---------------------------------------------------------------- test vectors

#[test]
fn t1_worked_example_success_advance_3() {
    // R6.5: n = 8, asker black, others 4 black 3 white -> S = 4 >= 3.5, D = 3
    let mut s = layout(prm(), 8, &[(5, &[0]), (2, &[1, 2, 3, 4, 5, 6, 7])], 5, 2, RULE_NONE, 0);
    ask(&mut s, true, mask(&[1, 2, 3, 4]));
    assert_eq!(s.path.pos[0], 8);
    assert_eq!(s.path.top[8], 0);
    assert_eq!(s.stats.adv[0], 3);
    assert_eq!(s.stats.succ[0], 1);
    // R3.4: the Sun's stack is empty, the Sun goes back to 2, whose top asks next
    assert_eq!(s.path.sun, 2);
    assert_eq!(s.asker, 1);
}

#[test]
fn t2_unanimity_fails() {
    // R6.3: all 7 others black -> failure, under the Sun
    let mut s = layout(prm(), 8, &[(5, &[0, 1]), (2, &[2, 3, 4, 5, 6, 7])], 5, 2, RULE_NONE, 0);
    ask(&mut s, true, mask(&[1, 2, 3, 4, 5, 6, 7]));
    assert_eq!(s.path.pos[0], IN_PILE);
    assert_eq!(s.path.pile_top, 0);
    assert_eq!(s.stats.succ[0], 0);
    assert_eq!(s.asker, 1, "the next in the Sun's stack asks");
}

#[test]
fn t3_minority_fails() {
    // R6.2: 3 of 7 others black -> failure
    let mut s = layout(prm(), 8, &[(5, &[0, 1]), (2, &[2, 3, 4, 5, 6, 7])], 5, 2, RULE_NONE, 0);
    ask(&mut s, true, mask(&[2, 3, 4]));
    assert_eq!(s.path.pos[0], IN_PILE);
    assert_eq!(s.stats.succ[0], 0);
}

#[test]
fn t4_exact_half_is_success_by_default() {
    // R6.4: n = 5, 2 of 4 others black -> success advance 2; failure with half_is_success = false
    let mut s = layout(prm(), 5, &[(6, &[0, 1]), (3, &[2, 3, 4])], 6, 2, RULE_NONE, 0);
    ask(&mut s, true, mask(&[1, 2]));
    assert_eq!(s.path.pos[0], 8);
    let mut p = prm();
    p.half_is_success = false;
    let mut s = layout(p, 5, &[(6, &[0, 1]), (3, &[2, 3, 4])], 6, 2, RULE_NONE, 0);
    ask(&mut s, true, mask(&[1, 2]));
    assert_eq!(s.path.pos[0], IN_PILE);
}

#[test]
fn t5_betrayal_switch() {
    // R9.4: n = 8, Betrayal, others 5 black 2 white, asker voted white -> switches to black, D = 2
    let mut s = layout(prm(), 8, &[(9, &[0]), (4, &[1, 2, 3, 4, 5, 6, 7])], 9, 2, RULE_BETRAYAL, 0);
    ask(&mut s, false, mask(&[1, 2, 3, 4, 5]));
    assert_eq!(s.phase, Phase::BetrayChange);
    assert!(s.revealed, "Betrayal comes after the reveal (R5.8)");
    let mut legal = Vec::new();
    s.legal_actions(&mut legal);
    let mut g = agent("greedy").unwrap();
    let a = g.act(&s, &legal, &mut Rng::new(1));
    assert_eq!(a, A_SWITCH, "the greedy asker votes with the majority");
    s.apply(a).unwrap();
    assert_eq!(s.path.pos[0], 11);
    assert_eq!(s.stats.rule_adv[RULE_BETRAYAL as usize], 2);
}

#[test]
fn t6_corruption_forces_named_votes() {
    // R9.2: n = 8, k = 2, asker black, others 2 black 5 white; the two named (white) become black
    let p = prm();
    assert_eq!(p.table(8).unwrap().2, 2);
    let mut s = layout(p, 8, &[(9, &[0]), (4, &[1, 2, 3, 4, 5, 6, 7])], 9, 2, RULE_CORRUPTION, 0);
    ask(&mut s, true, mask(&[1, 2]));
    assert_eq!(s.phase, Phase::CorruptName);
    // the asker's vote is shown to everybody (R9.2)
    assert!(s.vote_visible(5, 0));
    s.apply(A_NAME0 + 6).unwrap();
    assert_eq!(s.phase, Phase::CorruptName);
    s.apply(A_NAME0 + 7).unwrap();
    assert_eq!(s.path.pos[0], 12, "S = 4, D = 3");
    assert_eq!(s.stats.rule_adv[RULE_CORRUPTION as usize], 3);
    // naming the asker or a seat twice is illegal
    let mut s = layout(p, 8, &[(9, &[0]), (4, &[1, 2, 3, 4, 5, 6, 7])], 9, 2, RULE_CORRUPTION, 0);
    ask(&mut s, true, mask(&[1, 2]));
    assert!(s.apply(A_NAME0).is_err());
    s.apply(A_NAME0 + 3).unwrap();
    assert!(s.apply(A_NAME0 + 3).is_err());
}

#[test]
fn t7_disciple_capped_at_the_sun_asks_next() {
    // R8.4, R4.3: n = 10, asker at 9 advances 4 to 13; disciple at 7 stops at 9 and asks next
    let mut s = layout(prm(), 10, &[(9, &[0]), (7, &[1]), (3, &[2, 3, 4, 5, 6, 7, 8, 9])], 9, 2, RULE_NONE, ALL);
    s.apply(A_CAND0).unwrap();
    assert_eq!(s.phase, Phase::Disciple);
    // farthest first: seat 2 (top at 3), then seat 1 (at 7)
    assert_eq!(s.decider(), Some(2));
    s.apply(A_PASS).unwrap();
    assert_eq!(s.decider(), Some(1));
    s.apply(A_DECLARE).unwrap();
    assert_eq!(s.disciple, 1);
    assert_eq!(s.laurel & (1 << 1), 0, "R8.3: the card is turned");
    s.forced_votes = Some(mask(&[1, 2, 3, 4, 5]));
    s.apply(A_BLACK).unwrap();
    assert_eq!(s.path.pos[0], 13);
    assert_eq!(s.path.pos[1], 9);
    assert_eq!(s.path.top[9], 1);
    assert_eq!(s.path.sun, 9);
    assert_eq!(s.asker, 1, "the disciple on the Sun's stack asks next");
    assert_eq!(s.stats.disc_gain[1], 2);
}

#[test]
fn t8_no_disciple_on_day_one() {
    // R8.5: every game, every player count: nobody declares on day 1, the window never opens
    for n in 5..=12 {
        for g in 0..40u64 {
            let mut s = new_game_with(prm(), n, g * 31 + n as u64).unwrap();
            let mut ag = agent("greedy+always").unwrap();
            let mut rng = Rng::new(g);
            let mut legal = Vec::new();
            while s.to_move().is_some() {
                if s.day == 1 {
                    assert_ne!(s.phase, Phase::Disciple);
                }
                s.legal_actions(&mut legal);
                let a = ag.act(&s, &legal, &mut rng);
                s.apply(a).unwrap();
            }
            assert!((0..n).all(|j| s.stats.disc_day[j] != 1));
        }
    }
}

#[test]
fn t9_sun_pile_returns_in_order() {
    // R3.3-R3.4: F1 fails, F2 fails, the last succeeds -> pile [F1 top, F2] back at 6, Sun back
    let mut s = layout(prm(), 8, &[(6, &[0, 1, 2]), (3, &[3, 4, 5, 6, 7])], 6, 2, RULE_NONE, 0);
    ask(&mut s, true, 0); // S = 0: failure
    assert_eq!(s.asker, 1);
    ask(&mut s, true, 0);
    assert_eq!(s.asker, 2);
    assert_eq!((s.path.pile_top, s.path.pile_bottom), (0, 1));
    ask(&mut s, true, mask(&[3, 4, 5, 6]));
    assert_eq!(s.path.pos[2], 9);
    assert_eq!(s.path.top[6], 0);
    assert_eq!(s.path.under[0], 1);
    assert_eq!(s.path.under[1], NONE);
    assert_eq!((s.path.pos[0], s.path.pos[1]), (6, 6));
    assert_eq!(s.path.pile_top, NONE);
    assert_eq!(s.path.sun, 3);
    assert_eq!(s.asker, 3);
}

#[test]
fn t10_each_asks_once_per_day() {
    // R3.5: every philosopher asks exactly once per day; no overwhelming victory -> n × days turns
    for n in 5..=12 {
        for g in 0..60u64 {
            let (s, per_day) = play_tracked(prm(), n, 1000 + g, &["b1", "random", "race+always"]);
            for (d, asked) in per_day.iter().enumerate() {
                let last = d + 1 == per_day.len();
                if !(last && s.overwhelming) {
                    assert_eq!(*asked, ((1u32 << n) - 1) as u16, "n {n} game {g} day {}", d + 1);
                }
            }
            if !s.overwhelming {
                assert_eq!(s.turns as usize, n * s.setup.days as usize);
            }
        }
    }
}

#[test]
fn t11_distance_is_days_times_dmax() {
    // R2, R11.2: start + days × D_max(n) = 17 for every n; D_max = 2,2,3,3,4,4,5,5 (R6.6)
    let p = prm();
    for n in 5..=12 {
        let (start, days, _) = p.table(n).unwrap();
        let sc = Scoring { others: (n - 1) as u8, half_is_success: true, unanimity_fails: true };
        assert_eq!(sc.d_max(), [2, 2, 3, 3, 4, 4, 5, 5][n - 5]);
        assert_eq!(start as u32 + days as u32 * sc.d_max(), 17, "n {n}");
    }
}

#[test]
fn t12_temple_ends_the_game() {
    // R11.3: n = 5, asker at 15 with D = 2 reaches the temple (17) and wins at once
    let mut s = layout(prm(), 5, &[(15, &[0]), (10, &[1, 2, 3, 4])], 15, 3, RULE_NONE, 0);
    ask(&mut s, true, mask(&[1, 2]));
    assert!(s.over && s.overwhelming);
    assert_eq!(s.to_move(), None);
    let o = s.outcome();
    assert_eq!(o.winners, vec![0]);
    assert_eq!(o.end_reason, "temple");
    assert_eq!(o.turns, 1);
    let col = |name: &str| o.game_columns.iter().find(|c| c.0 == name).unwrap().1;
    assert_eq!(col("overwhelming"), 1.0);
    assert_eq!(col("overwhelming_day"), 3.0);
    // passing the temple also counts (R7.2): from 16 with D = 2
    let mut s = layout(prm(), 5, &[(16, &[0]), (10, &[1, 2, 3, 4])], 16, 3, RULE_NONE, 0);
    ask(&mut s, true, mask(&[1, 2]));
    assert!(s.overwhelming);
}

#[test]
fn t13_model_matches_m4() {
    // M4.1: simulated success rate and mean advance at fixed p match the binomial sums
    for (n, p) in [(5usize, 0.62), (8, 0.6), (12, 0.65), (9, 0.5)] {
        let template = layout(prm(), n, &[(6, &[0]), (3, &(1..n as u8).collect::<Vec<_>>())], 6, 2, RULE_NONE, 0);
        let (mut succ, mut adv) = (0u32, 0u64);
        let games = 40_000;
        for g in 0..games {
            let mut s = template.clone();
            s.rng = Rng::new(g as u64 + 7);
            s.cand_p[0] = p;
            s.apply(A_CAND0).unwrap();
            s.apply(A_BLACK).unwrap();
            succ += s.stats.succ[0] as u32;
            adv += s.stats.adv[0] as u64;
        }
        let (ps, ea) = succ_and_adv(&template.sc, p);
        let rs = succ as f64 / games as f64;
        let ra = adv as f64 / games as f64;
        assert!((rs - ps).abs() < 4.0 * (ps * (1.0 - ps) / games as f64).sqrt() + 1e-3, "n {n}: {rs} vs {ps}");
        assert!((ra - ea).abs() < 0.03 * ea.max(0.3), "n {n}: {ra} vs {ea}");
    }
}

#[test]
fn m43_reference_values() {
    // M4.3: best E_adv per turn over r is ≈ 1.04 / 0.99 / 1.64 / 1.59 / 2.28 / 2.23 / 2.94 / 2.89,
    // 0.42 for n = 5 with half_is_success = false; Betrayal at p = 0.5 from 1.25 (n 5) to 4.15 (n 12)
    let want = [1.04, 0.99, 1.64, 1.59, 2.28, 2.23, 2.94, 2.89];
    for n in 5..=12 {
        let sc = Scoring { others: (n - 1) as u8, half_is_success: true, unanimity_fails: true };
        let best = (0..=1000).map(|i| succ_and_adv(&sc, i as f64 / 1000.0).1).fold(0.0, f64::max);
        assert!((best - want[n - 5]).abs() < 0.006, "n {n}: {best}");
    }
    let sc = Scoring { others: 4, half_is_success: false, unanimity_fails: true };
    let best = (0..=1000).map(|i| succ_and_adv(&sc, i as f64 / 1000.0).1).fold(0.0, f64::max);
    assert!((best - 0.42).abs() < 0.006, "{best}");
    let b5 = betrayal_adv(&Scoring { others: 4, half_is_success: true, unanimity_fails: true }, 0.5);
    let b12 = betrayal_adv(&Scoring { others: 11, half_is_success: true, unanimity_fails: true }, 0.5);
    assert!((b5 - 1.25).abs() < 0.005 && (b12 - 4.15).abs() < 0.01, "{b5} {b12}");
}

// ---------------------------------------------------------------- rule tests

#[test]
fn scoring_rules_r6() {
    // R6.1-R6.4 for N = 7 (n = 8) and N = 4 (n = 5), and the switches
    let sc = Scoring { others: 7, half_is_success: true, unanimity_fails: true };
    let adv: Vec<Option<u32>> = (0..=7).map(|s| sc.advance(s)).collect();
    assert_eq!(adv, vec![None, None, None, None, Some(3), Some(2), Some(1), None]);
    let sc = Scoring { others: 4, half_is_success: true, unanimity_fails: true };
    assert_eq!((0..=4).map(|s| sc.advance(s)).collect::<Vec<_>>(), vec![None, None, Some(2), Some(1), None]);
    let sc = Scoring { others: 4, half_is_success: false, unanimity_fails: false };
    assert_eq!((0..=4).map(|s| sc.advance(s)).collect::<Vec<_>>(), vec![None, None, None, Some(1), Some(0)]);
    // unanimity_fails = false in play: a success with advance 0; he waits under the Sun (so he
    // does not ask twice) and returns to position 5 with the pile
    let mut p = prm();
    p.unanimity_fails = false;
    let mut s = layout(p, 8, &[(5, &[0, 1]), (2, &[2, 3, 4, 5, 6, 7])], 5, 2, RULE_NONE, 0);
    ask(&mut s, true, mask(&[1, 2, 3, 4, 5, 6, 7]));
    assert_eq!(s.path.pos[0], IN_PILE);
    assert_eq!(s.stats.succ[0], 1);
    assert_eq!(s.asker, 1);
    ask(&mut s, true, mask(&[2, 3, 4, 5]));
    assert_eq!(s.path.pos[0], 5);
}

#[test]
fn disciple_eligibility_r81() {
    // R8.1: top of a stack, laurel side up, behind the Sun. Seat 2 is under 1, seat 3 has turned
    // his card, seat 4 is ahead of the Sun, so only 5 (at 3) and 1 (at 7) may declare.
    let laurel = ALL & !(1 << 3);
    let mut s = layout(prm(), 8, &[(11, &[4]), (9, &[0]), (7, &[1, 2]), (5, &[3]), (3, &[5, 6, 7])], 9, 2, RULE_NONE, laurel);
    s.apply(A_CAND0).unwrap();
    assert_eq!(&s.elig[..s.elig_len as usize], &[5, 1]);
    // R8.2: the farthest to declare is the disciple; the window closes
    s.apply(A_DECLARE).unwrap();
    assert_eq!(s.disciple, 5);
    assert_eq!(s.phase, Phase::Vote);
    assert_ne!(s.laurel & (1 << 1), 0, "seat 1 keeps his laurel");
}

#[test]
fn disciple_failure_turns_card_without_moving() {
    // R8.3-R8.4: declared, the asker fails: the card stays turned, the disciple does not move
    let mut s = layout(prm(), 10, &[(9, &[0]), (7, &[1]), (3, &[2, 3, 4, 5, 6, 7, 8, 9])], 9, 2, RULE_NONE, ALL);
    s.apply(A_CAND0).unwrap();
    s.apply(A_PASS).unwrap();
    s.apply(A_DECLARE).unwrap();
    s.forced_votes = Some(0);
    s.apply(A_BLACK).unwrap();
    assert_eq!(s.path.pos[1], 7);
    assert_eq!(s.laurel & (1 << 1), 0);
    assert_eq!(s.stats.disc_gain[1], 0);
    assert_eq!(s.stats.disc_day[1], 2);
}

#[test]
fn disciple_uncapped_variant() {
    // rules.disciple_cap_at_sun = false: the disciple at 7 moves the full 4 to 11, past the Sun
    let mut p = prm();
    p.disciple_cap_at_sun = false;
    let mut s = layout(p, 10, &[(9, &[0]), (7, &[1]), (3, &[2, 3, 4, 5, 6, 7, 8, 9])], 9, 2, RULE_NONE, ALL);
    s.apply(A_CAND0).unwrap();
    s.apply(A_PASS).unwrap();
    s.apply(A_DECLARE).unwrap();
    s.forced_votes = Some(mask(&[1, 2, 3, 4, 5]));
    s.apply(A_BLACK).unwrap();
    assert_eq!((s.path.pos[0], s.path.pos[1]), (13, 11));
    assert_eq!(s.path.sun, 3);
    assert_eq!(s.asker, 2);
}

#[test]
fn divination_shows_named_votes_to_the_asker_only() {
    // R9.3: k = 2 named show their votes to the asker; he may switch before the reveal
    let mut s = layout(prm(), 8, &[(9, &[0]), (4, &[1, 2, 3, 4, 5, 6, 7])], 9, 2, RULE_DIVINATION, 0);
    ask(&mut s, false, mask(&[1, 2, 3, 4, 5]));
    assert_eq!(s.phase, Phase::DivName);
    s.apply(A_NAME0 + 1).unwrap();
    s.apply(A_NAME0 + 2).unwrap();
    assert_eq!(s.phase, Phase::DivChange);
    assert!(s.vote_visible(0, 1) && s.vote_visible(0, 2));
    assert!(!s.vote_visible(0, 3));
    assert!(!s.vote_visible(4, 1), "the named vote is shown to the asker only");
    let len = Osztrakon.observation_len(8);
    let mut o = vec![0.0f32; len];
    s.observe(0, &mut o);
    assert_eq!(o[9 + 7], 1.0, "asker sees seat 1 black");
    assert_eq!(o[3 * 9 + 7], 0.0, "asker does not see seat 3");
    s.apply(A_SWITCH).unwrap();
    assert_eq!(s.path.pos[0], 11, "black: S = 5, D = 2");
}

#[test]
fn special_day_rule_from_the_symbol_at_day_start() {
    // R9.1 / R10.3 with the placeholder layout {4 C, 7 D, 10 B, 13 C, 16 D}; day 1 is normal (R4.1)
    let mut p = prm();
    p.layout = 1;
    let mut seen = [0u32; 4];
    for g in 0..200u64 {
        let mut s = new_game_with(p, 7, g).unwrap();
        let mut ag = agent("b1").unwrap();
        let mut rng = Rng::new(g);
        let mut legal = Vec::new();
        let mut day = 1;
        assert_eq!(s.rule, RULE_NONE);
        while s.to_move().is_some() {
            if s.day != day {
                day = s.day;
                let want = ketharmad::games::osztrakon::special::symbol(1, s.path.sun, s.setup.start);
                assert_eq!(s.rule, want, "day {day} at {}", s.path.sun);
                seen[s.rule as usize] += 1;
            }
            s.legal_actions(&mut legal);
            let a = ag.act(&s, &legal, &mut rng);
            s.apply(a).unwrap();
        }
    }
    assert!(seen.iter().all(|&c| c > 0), "every rule occurs: {seen:?}");
}

#[test]
fn last_day_winner_is_top_of_front_stack_tie() {
    // R11.1: n = 5 on its last day (6); everybody fails; the pile [0, 1] returns to 12 in order
    let mut s = layout(prm(), 5, &[(12, &[0, 1]), (8, &[2, 3, 4])], 12, 6, RULE_NONE, 0);
    for _ in 0..5 {
        ask(&mut s, true, 0);
    }
    assert!(s.over && !s.overwhelming);
    assert_eq!(s.outcome().winners, vec![0]);
    assert!(s.tie(), "the winner shares position 12 with seat 1");
    let o = s.outcome();
    let rank = &o.seat_columns.iter().find(|c| c.0 == "final_rank").unwrap().1;
    assert_eq!(rank, &vec![0.0, 1.0, 2.0, 3.0, 4.0]);
    // no tie when the winner stands alone
    let mut s = layout(prm(), 5, &[(12, &[0]), (8, &[1, 2, 3, 4])], 12, 6, RULE_NONE, 0);
    ask(&mut s, true, 0);
    for _ in 0..4 {
        ask(&mut s, true, 0);
    }
    assert!(s.over && !s.tie());
    assert_eq!(s.outcome().winners, vec![0]);
    assert_eq!(s.turns, 5);
}

#[test]
fn overwhelming_variant_finishes_the_day() {
    // rules.overwhelming_ends_game = false: the day goes on, the temple philosopher wins at its end
    let mut p = prm();
    p.overwhelming_ends_game = false;
    let mut s = layout(p, 5, &[(15, &[0]), (10, &[1, 2, 3, 4])], 15, 3, RULE_NONE, 0);
    ask(&mut s, true, mask(&[1, 2]));
    assert!(!s.over);
    assert_eq!(s.path.pos[0], 17);
    let mut n = 0;
    while !s.over {
        ask(&mut s, true, 0);
        n += 1;
    }
    assert_eq!(n, 4, "the other four still ask that day");
    assert!(s.overwhelming);
    assert_eq!(s.outcome().winners, vec![0]);
}

#[test]
fn parameters_and_errors_e4() {
    let reg = Osztrakon.registry();
    let mut names: Vec<&str> = reg.iter().map(|p| p.name.as_ref()).collect();
    assert!(names.iter().all(|n| n.starts_with("rules.") || n.starts_with("model.") || n.starts_with("policy.")));
    names.sort();
    names.dedup();
    assert_eq!(names.len(), reg.len(), "names are unique");
    for want in [
        "rules.temple_position",
        "rules.half_is_success",
        "rules.unanimity_fails",
        "rules.special_layout",
        "rules.disciple_cap_at_sun",
        "model.q_alpha",
        "model.p_min",
        "model.kappa",
        "model.tau",
        "model.spoiler_rate",
        "model.read_noise",
        "model.m_fixed",
        "model.m_free",
        "model.free_topic_rate",
        "policy.disciple_theta",
        "rules.k.n10",
        "rules.days.n12",
        "rules.start.n9",
    ] {
        assert!(names.contains(&want), "{want}");
    }
    assert!(reg.iter().all(|p| p.default >= p.min && p.default <= p.max));
    let e = resolve(&reg, &[("rules.nope".into(), Value::Int(1))]).unwrap_err();
    assert!(e.contains("rules.nope"), "{e}");
    let e = resolve(&reg, &[("model.p_min".into(), Value::Float(0.5))]).unwrap_err();
    assert!(e.contains("model.p_min"), "{e}");
    let e = resolve(&reg, &[("rules.special_layout".into(), Value::Str("printed".into()))]).unwrap_err();
    assert!(e.contains("special_layout"), "{e}");
    let v = resolve(&reg, &[("rules.k_all".into(), Value::Int(4))]).unwrap();
    let e = Osztrakon.new_game(&v, 5, 1, 0).unwrap_err();
    assert!(e.contains("rules.k_all"), "{e}");
    assert!(Osztrakon.new_game(&v, 6, 1, 0).is_ok(), "k = 4 < 5 others");
    let v = resolve(&reg, &[]).unwrap();
    assert!(Osztrakon.new_game(&v, 4, 1, 0).unwrap_err().contains("5..12"));
    assert!(Osztrakon.new_game(&v, 13, 1, 0).is_err());
    let v = resolve(&reg, &[("rules.temple_position".into(), Value::Int(5))]).unwrap();
    assert!(Osztrakon.new_game(&v, 5, 1, 0).unwrap_err().contains("rules.start.n5"));
    assert!(Osztrakon.new_game(&v[..3], 5, 1, 0).is_err());
    // an illegal action is an error and leaves the state unchanged
    let mut s = Osztrakon.new_game(&resolve(&reg, &[]).unwrap(), 6, 1, 0).unwrap();
    let before = format!("{:?}", s.path);
    assert!(s.apply(A_DECLARE).is_err());
    assert!(s.apply(99).is_err());
    assert_eq!(format!("{:?}", s.path), before);
    // agent names
    for n in ketharmad::games::osztrakon::AGENT_NAMES {
        assert!(agent(n).is_ok(), "{n}");
    }
    assert!(agent("greedy+sometimes").unwrap_err().contains("greedy+sometimes"));
    assert!(agent("smart").is_err());
}

#[test]
fn r2_setup_table() {
    // R2.1-R2.3: start position and Sun, days, k, one shuffled stack, all laurel side up
    let want = [(5, 5, 6, 1), (6, 5, 6, 1), (7, 2, 5, 2), (8, 2, 5, 2), (9, 1, 4, 2), (10, 1, 4, 3), (11, 2, 3, 3), (12, 2, 3, 3)];
    for (n, start, days, k) in want {
        let s = new_game_with(prm(), n, 5).unwrap();
        assert_eq!((s.setup.start, s.setup.days, s.setup.k), (start, days, k), "n {n}");
        assert_eq!(s.path.sun, start);
        assert!((0..n).all(|j| s.path.pos[j] == start));
        assert_eq!(s.laurel.count_ones() as usize, n);
        let top = s.path.top[start as usize];
        assert_eq!(s.asker, top);
        assert_eq!(s.stats.start_order[top as usize], 0);
    }
}

// ---------------------------------------------------------------- fuzz, determinism, determinize

/// Play one game, checking invariants at every action; returns the state and, per day, the
/// mask of seats that asked.
fn play_tracked(p: Params, n: usize, seed: u64, names: &[&str]) -> (State, Vec<u16>) {
    let mut s = new_game_with(p, n, seed).unwrap();
    let mut agents: Vec<_> = (0..n).map(|j| agent(names[j % names.len()]).unwrap()).collect();
    let mut rngs: Vec<Rng> = (0..n).map(|j| seat_rng(seed, j)).collect();
    let mut legal = Vec::new();
    let mut per_day = vec![0u16];
    let mut last_pos = [0u8; 12];
    last_pos[..n].copy_from_slice(&s.path.pos[..n]);
    let mut laurels = s.laurel.count_ones();
    let mut guard = 0;
    while let Some(seat) = s.to_move() {
        guard += 1;
        assert!(guard < 10_000, "game does not end");
        check_invariants(&s, &mut last_pos);
        if s.day as usize > per_day.len() {
            per_day.push(0);
        }
        if s.phase == Phase::ChooseQuestion {
            let d = per_day.len() - 1;
            if p.disciple_cap_at_sun {
                assert_eq!(per_day[d] & (1 << s.asker), 0, "seat {} asks twice on day {}", s.asker, s.day);
            }
            per_day[d] |= 1 << s.asker;
        }
        s.legal_actions(&mut legal);
        assert!(!legal.is_empty());
        let a = agents[seat].act(&s, &legal, &mut rngs[seat]);
        assert!(legal.contains(&a));
        s.apply(a).unwrap();
        assert!(s.laurel.count_ones() <= laurels, "R8.3: cards never turn back");
        laurels = s.laurel.count_ones();
    }
    check_end(&s);
    (s, per_day)
}

fn check_invariants(s: &State, last_pos: &mut [u8; 12]) {
    let n = s.n as usize;
    let t = s.prm.temple;
    let mut count = [0u8; 12];
    for p in 1..t {
        let mut x = s.path.top[p as usize];
        let mut k = 0;
        while x != NONE {
            assert_eq!(s.path.pos[x as usize], p, "seat {x} listed at {p}");
            count[x as usize] += 1;
            x = s.path.under[x as usize];
            k += 1;
            assert!(k <= n);
        }
    }
    let mut x = s.path.pile_top;
    while x != NONE {
        assert_eq!(s.path.pos[x as usize], IN_PILE);
        count[x as usize] += 1;
        x = s.path.under[x as usize];
    }
    for j in 0..n {
        if s.path.pos[j] >= t {
            count[j] += 1;
        }
        assert_eq!(count[j], 1, "seat {j} is in exactly one place");
        let pos = s.path.pos[j];
        if pos != IN_PILE {
            // R3.5: philosophers only move forward (a failed asker returns to his position)
            assert!(pos >= last_pos[j], "seat {j} moved back {} -> {pos}", last_pos[j]);
            last_pos[j] = pos;
        }
    }
    assert_eq!(s.laurel & !s.seats_mask(), 0);
    // the asker is the top of the Sun's stack (R5.1)
    assert_eq!(s.path.top[s.path.sun as usize], s.asker);
    if s.phase == Phase::Disciple {
        let d = s.decider().unwrap() as u8;
        assert!(s.path.is_top(d) && s.laurel & (1 << d) != 0 && s.path.pos[d as usize] < s.path.sun, "R8.1");
        assert!(s.day > 1, "R8.5");
    }
    assert!(s.day >= 1 && s.day <= s.setup.days);
}

fn check_end(s: &State) {
    let n = s.n as usize;
    assert!(s.over);
    let o = s.outcome();
    assert_eq!(o.winners.len(), 1);
    let w = o.winners[0] as usize;
    if s.overwhelming {
        assert!(s.path.pos[w] >= s.prm.temple);
    } else {
        let f = s.path.front(s.prm.temple).unwrap();
        assert_eq!(s.path.top[f as usize] as usize, w, "R11.1");
        assert_eq!(s.stats.days_done, s.setup.days);
    }
    assert_eq!(o.returns.iter().filter(|&&r| r == 1.0).count(), 1);
    let ranks = &o.seat_columns.iter().find(|c| c.0 == "final_rank").unwrap().1;
    let mut r: Vec<usize> = ranks.iter().map(|&x| x as usize).collect();
    assert_eq!(r[w], 0);
    r.sort();
    assert_eq!(r, (0..n).collect::<Vec<_>>(), "ranks are a permutation");
    for c in &o.seat_columns {
        assert_eq!(c.1.len(), n, "{}", c.0);
    }
    // every finished day's ranks are a permutation
    for d in 0..s.stats.days_done as usize {
        let mut r: Vec<u8> = s.stats.rank_day[d][..n].to_vec();
        r.sort();
        assert_eq!(r, (0..n as u8).collect::<Vec<_>>());
    }
    let turns: u32 = s.stats.asks[..n].iter().map(|&x| x as u32).sum();
    assert_eq!(turns, s.turns);
    assert!(s.stats.succ[..n].iter().zip(&s.stats.asks[..n]).all(|(a, b)| a <= b));
}

fn fuzz_params(rng: &mut Rng) -> Params {
    let mut p = prm();
    p.layout = rng.below(5) as u8;
    p.half_is_success = rng.below(4) != 0;
    p.unanimity_fails = rng.below(4) != 0;
    p.disciple_cap_at_sun = rng.below(4) != 0;
    p.overwhelming_ends_game = rng.below(4) != 0;
    p.temple = if rng.below(4) == 0 { 16 } else { 17 };
    p.q_alpha = [1.0, 2.0, 5.0, 0.3][rng.below(4)];
    p.p_min = [0.0, 0.05, 0.1, 0.2][rng.below(4)];
    p.kappa = [0.0, 0.0, 20.0, 5.0][rng.below(4)];
    p.tau = [0.0, 0.0, 1.0][rng.below(3)];
    p.spoiler_rate = [0.0, 0.0, 0.25, 0.5][rng.below(4)];
    let noise = [0.0, 0.25, 0.5, 1.0];
    for j in 0..12 {
        p.read_noise[j] = noise[rng.below(4)];
    }
    p.m_fixed = 1 + rng.below(3) as u8;
    p.m_free = 3 + rng.below(4) as u8;
    p.free_topic_rate = [0.0, 1.0 / 6.0, 1.0 / 3.0][rng.below(3)];
    p.belief_bayes = rng.below(2) == 0;
    p.objective = rng.below(3) as u8;
    p.disciple = rng.below(3) as u8;
    p.disciple_theta = [0.0, 0.5, 1.0, 2.0][rng.below(4)];
    p.corruption_targets = rng.below(2) as u8;
    p.divination_targets = rng.below(2) as u8;
    if rng.below(3) == 0 {
        p.k_all = rng.below(4) as i8;
    }
    p
}

#[test]
fn invariant_fuzzer_every_player_count() {
    let games: u64 = std::env::var("KETHARMAD_OSZ_FUZZ_GAMES").ok().and_then(|v| v.parse().ok()).unwrap_or(300);
    let names = ["random", "b1", "greedy+always", "safe+never", "race", "greedy+threshold"];
    let mut overwhelming = 0;
    let mut disciples = 0;
    for n in 5..=12 {
        let mut prng = Rng::new(n as u64 * 7919);
        for g in 0..games {
            let p = fuzz_params(&mut prng);
            let mut order = names;
            prng.shuffle(&mut order);
            let (s, per_day) = play_tracked(p, n, g * 131 + n as u64, &order);
            if p.disciple_cap_at_sun && p.overwhelming_ends_game && !s.overwhelming {
                // R3.5 / T10 under the rules' defaults for movement
                assert_eq!(s.turns as usize, n * s.setup.days as usize);
                assert!(per_day.iter().all(|&m| m == ((1u32 << n) - 1) as u16));
            }
            overwhelming += s.overwhelming as u32;
            disciples += (0..n).filter(|&j| s.stats.disc_gain[j] > 0).count();
        }
    }
    assert!(overwhelming > 0, "the temple is reached in some fuzz game");
    assert!(disciples > 0, "disciples move in some fuzz game");
}

fn log_of(p: Params, n: usize, seed: u64, names: &[&str]) -> (Vec<ketharmad::games::osztrakon::state::TurnRow>, ketharmad::harness::Outcome) {
    let mut s = new_game_with(p, n, seed).unwrap();
    s.log = Some(Vec::new());
    let mut agents: Vec<Box<dyn Agent<State>>> = (0..n).map(|j| Box::new(agent(names[j % names.len()]).unwrap()) as Box<dyn Agent<State>>).collect();
    let mut rngs: Vec<Rng> = (0..n).map(|j| seat_rng(seed, j)).collect();
    let o = play_out(&mut s, &mut agents, &mut rngs, 100_000);
    (s.log.take().unwrap(), o)
}

#[test]
fn determinism_same_seed_same_game() {
    let mut p = prm();
    p.layout = 1;
    p.tau = 1.0;
    p.kappa = 5.0;
    p.spoiler_rate = 0.25;
    for n in [5, 8, 12] {
        let names = ["b1", "random", "race"];
        let (a, oa) = log_of(p, n, 42, &names);
        let (b, ob) = log_of(p, n, 42, &names);
        assert_eq!(a, b);
        assert_eq!(oa, ob);
        assert!(!a.is_empty());
        let (c, _) = log_of(p, n, 43, &names);
        assert_ne!(a, c, "another seed gives another game");
    }
    // through the Rules interface: same (params, seats, batch seed, game) -> same state
    let v = resolve(&Osztrakon.registry(), &[]).unwrap();
    let x = Osztrakon.new_game(&v, 9, 7, 3).unwrap();
    let y = Osztrakon.new_game(&v, 9, 7, 3).unwrap();
    assert_eq!(x.path, y.path);
    assert_eq!(x.cand_p, y.cand_p);
}

#[test]
fn determinize_keeps_the_seats_observation() {
    let mut p = prm();
    p.layout = 1;
    p.tau = 1.0;
    for n in [5, 7, 10, 12] {
        let len = Osztrakon.observation_len(n);
        let (mut o1, mut o2) = (vec![0.0f32; len], vec![0.0f32; len]);
        for g in 0..20u64 {
            let mut s = new_game_with(p, n, g).unwrap();
            let mut ag = agent("b1").unwrap();
            let mut rng = Rng::new(g + 100);
            let mut legal = Vec::new();
            let mut legal2 = Vec::new();
            let mut changed = 0;
            while let Some(seat) = s.to_move() {
                for obs_seat in [seat, (seat + 1) % n] {
                    let mut c = s.clone();
                    c.determinize(obs_seat, &mut rng);
                    s.observe(obs_seat, &mut o1);
                    c.observe(obs_seat, &mut o2);
                    assert_eq!(o1, o2, "n {n} game {g} phase {:?} seat {obs_seat}", s.phase);
                    assert_eq!(c.to_move(), s.to_move());
                    s.legal_actions(&mut legal);
                    c.legal_actions(&mut legal2);
                    assert_eq!(legal, legal2);
                    changed += (c.p != s.p || c.black != s.black) as u32;
                    // the re-dealt copy plays on to a legal end
                    if g == 0 {
                        let mut agents: Vec<Box<dyn Agent<State>>> = (0..n).map(|_| Box::new(agent("greedy").unwrap()) as Box<dyn Agent<State>>).collect();
                        let mut rngs: Vec<Rng> = (0..n).map(|j| Rng::new(j as u64)).collect();
                        let o = play_out(&mut c, &mut agents, &mut rngs, 100_000);
                        assert!(!o.unfinished);
                    }
                }
                s.legal_actions(&mut legal);
                let a = ag.act(&s, &legal, &mut rng);
                s.apply(a).unwrap();
            }
            assert!(changed > 0, "determinize re-deals hidden information");
        }
    }
}

// ---------------------------------------------------------------- policies (M5)

fn choose(s: &State, name: &str) -> u32 {
    let mut legal = Vec::new();
    s.legal_actions(&mut legal);
    agent(name).unwrap().act(s, &legal, &mut Rng::new(3))
}

#[test]
fn greedy_safe_and_race_askers_m51() {
    // n = 12 on its last day (3): the asker at 8 is the last to ask; the leader is at 12.
    // Only S in {6, 7} (D = 5 or 4: on top at 12 or beyond) wins. Candidates p-hat 0.55 and 0.7:
    // greedy (E_adv 2.50 vs 2.80) takes 0.7, race (P(S in {6,7}) 0.44 vs 0.35) takes 0.55,
    // safe (P_succ) takes 0.7.
    let mut s = layout(prm(), 12, &[(12, &[1]), (10, &[2, 3, 4, 5, 6, 7, 8, 9, 10, 11]), (8, &[0])], 8, 3, RULE_NONE, 0);
    for j in 1..12 {
        s.stats.day_order[j] = j as u8;
    }
    s.m = 2;
    s.cand_hat[0] = 0.55;
    s.cand_hat[1] = 0.7;
    assert_eq!(choose(&s, "greedy"), A_CAND0 + 1);
    assert_eq!(choose(&s, "safe"), A_CAND0 + 1);
    assert_eq!(choose(&s, "race"), A_CAND0);
    // the vote: the side he believes in (p-hat 0.3 -> white)
    s.cand_hat[0] = 0.3;
    s.apply(A_CAND0).unwrap();
    assert_eq!(choose(&s, "greedy"), A_WHITE);
    // b1 follows policy.objective
    let mut p = prm();
    p.objective = 2;
    let mut s2 = layout(p, 12, &[(12, &[1]), (10, &[2, 3, 4, 5, 6, 7, 8, 9, 10, 11]), (8, &[0])], 8, 3, RULE_NONE, 0);
    for j in 1..12 {
        s2.stats.day_order[j] = j as u8;
    }
    s2.m = 2;
    s2.cand_hat[0] = 0.55;
    s2.cand_hat[1] = 0.7;
    assert_eq!(choose(&s2, "b1"), A_CAND0);
}

#[test]
fn betrayal_asker_prefers_the_even_question_m55() {
    // M5.5: under Betrayal the candidate nearest 0.5 maximises E[min(B, N - B)]
    let mut s = layout(prm(), 8, &[(9, &[0]), (4, &[1, 2, 3, 4, 5, 6, 7])], 9, 2, RULE_BETRAYAL, 0);
    s.m = 3;
    s.cand_hat[..3].copy_from_slice(&[0.7, 0.52, 0.35]);
    assert_eq!(choose(&s, "greedy"), A_CAND0 + 1);
    // without Betrayal the greedy asker takes 0.35 (white, r = 0.65 near the optimum)
    let mut s = layout(prm(), 8, &[(9, &[0]), (4, &[1, 2, 3, 4, 5, 6, 7])], 9, 2, RULE_NONE, 0);
    s.m = 3;
    s.cand_hat[..3].copy_from_slice(&[0.8, 0.52, 0.35]);
    assert_eq!(choose(&s, "greedy"), A_CAND0 + 2);
}

#[test]
fn disciple_threshold_m52() {
    use ketharmad::games::osztrakon::policies::{disciple_gain, disciple_threshold};
    // n = 8 (5 days), day 2: theta = 1 × 3 / 4. Seat 1 at 8 (cap 1), seat 2 at 6 (cap 3)
    let mut s = layout(prm(), 8, &[(9, &[0]), (8, &[1]), (6, &[2]), (3, &[3, 4, 5, 6, 7])], 9, 2, RULE_NONE, ALL);
    s.apply(A_CAND0).unwrap();
    assert!((disciple_threshold(&s) - 0.75).abs() < 1e-12);
    s.hat[1] = 0.62;
    s.hat[2] = 0.38; // he believes in white with the same confidence
                     // Bin(7, 0.62): P(4) = 0.2841, P(5) = 0.2782, P(6) = 0.1513
    let g1 = disciple_gain(&s, 1);
    let g2 = disciple_gain(&s, 2);
    assert!((g1 - (0.2841 + 0.2782 + 0.1513)).abs() < 2e-3, "{g1}");
    assert!((g2 - (3.0 * 0.2841 + 2.0 * 0.2782 + 0.1513)).abs() < 5e-3, "{g2}");
    // farthest first: seat 3 (at 3, cap 6) declares
    assert_eq!(s.decider(), Some(3));
    assert_eq!(choose(&s, "greedy"), A_DECLARE);
    s.apply(A_PASS).unwrap();
    assert_eq!(s.decider(), Some(2));
    assert_eq!(choose(&s, "greedy"), A_DECLARE, "g 1.56 >= 0.75");
    s.apply(A_PASS).unwrap();
    assert_eq!(s.decider(), Some(1));
    assert_eq!(choose(&s, "greedy"), A_PASS, "g 0.71 < 0.75");
    assert_eq!(choose(&s, "greedy+always"), A_DECLARE);
    assert_eq!(choose(&s, "b1+never"), A_PASS);
    // the last day: theta = 0, use it or lose it
    let mut s = layout(prm(), 8, &[(9, &[0]), (8, &[1]), (3, &[2, 3, 4, 5, 6, 7])], 9, 5, RULE_NONE, 1 << 1);
    s.apply(A_CAND0).unwrap();
    assert_eq!(disciple_threshold(&s), 0.0);
    assert_eq!(choose(&s, "greedy"), A_DECLARE);
}

#[test]
fn corruption_and_divination_targets_m53_m54() {
    // informed Corruption names the others least likely to vote like the asker (needs tau > 0);
    // informed Divination the least predictable
    let mut p = prm();
    p.tau = 1.0;
    p.tau_obs = 0.0;
    p.corruption_targets = 1;
    p.divination_targets = 1;
    let mut s = layout(p, 8, &[(9, &[0]), (4, &[1, 2, 3, 4, 5, 6, 7])], 9, 2, RULE_CORRUPTION, 0);
    s.apply(A_CAND0).unwrap();
    s.hat[0] = 0.6;
    s.eta_hat[..8].copy_from_slice(&[0.0, 0.5, -2.0, 1.0, 0.2, -0.5, 2.0, 0.1]);
    s.apply(A_BLACK).unwrap();
    assert_eq!(choose(&s, "b1"), A_NAME0 + 2, "the strongest white leaning");
    let mut s = layout(p, 8, &[(9, &[0]), (4, &[1, 2, 3, 4, 5, 6, 7])], 9, 2, RULE_DIVINATION, 0);
    s.apply(A_CAND0).unwrap();
    s.hat[0] = 0.6;
    // logit 0.6 = 0.405: eta -0.4 puts seat 5 nearest 0.5
    s.eta_hat[..8].copy_from_slice(&[0.0, 0.5, -2.0, 1.0, 0.2, -0.4, 2.0, 0.1]);
    s.apply(A_BLACK).unwrap();
    assert_eq!(choose(&s, "b1"), A_NAME0 + 5);
    // Divination change: the two named both voted white (seats 1, 2); with a Bayes belief the
    // asker who voted black on p-hat 0.52 switches to white
    let mut p = prm();
    p.belief_bayes = true;
    p.belief_kappa = 2.0;
    let mut s = layout(p, 8, &[(9, &[0]), (4, &[1, 2, 3, 4, 5, 6, 7])], 9, 2, RULE_DIVINATION, 0);
    s.apply(A_CAND0).unwrap();
    s.hat[0] = 0.52;
    s.forced_votes = Some(mask(&[3, 4]));
    s.apply(A_BLACK).unwrap();
    s.apply(A_NAME0 + 1).unwrap();
    s.apply(A_NAME0 + 2).unwrap();
    assert_eq!(choose(&s, "greedy"), A_SWITCH);
}

#[test]
fn generic_batch_runner_over_osztrakon() {
    // the harness batch runner: named agents, 1 vs 2 threads identical, one winner per game,
    // search through the generic ISMCTS agent with a B1 rollout
    use ketharmad::harness::batch::run;
    use ketharmad::harness::BatchError;
    let v = resolve(&Osztrakon.registry(), &[]).unwrap();
    let names: Vec<String> = ["b1", "greedy+never", "race", "random", "search:iterations=20,rollout=greedy", "safe"].iter().map(|s| s.to_string()).collect();
    let c1 = run(&Osztrakon, &v, 6, &names, 300, 9, Some(1)).unwrap();
    let c2 = run(&Osztrakon, &v, 6, &names, 300, 9, Some(2)).unwrap();
    assert_eq!(c1, c2);
    assert!(c1.winner.iter().all(|&w| (0..6).contains(&w)));
    assert!(c1.unfinished.iter().all(|&u| !u));
    let e = run(&Osztrakon, &v, 6, &vec!["clever".to_string(); 6], 10, 1, None).unwrap_err();
    assert!(matches!(&e, BatchError::Invalid(m) if m.contains("clever")), "{e}");
    let e = run(&Osztrakon, &v, 4, &vec!["b1".to_string(); 4], 10, 1, None).unwrap_err();
    assert!(matches!(&e, BatchError::Invalid(m) if m.contains("5 to 12")), "{e}");
    // greedy askers beat random askers at the same table
    let mixed: Vec<String> = (0..8).map(|j| if j % 2 == 0 { "greedy" } else { "random" }.to_string()).collect();
    let c = run(&Osztrakon, &v, 8, &mixed, 2000, 3, None).unwrap();
    let greedy: u64 = (0..8).step_by(2).map(|j| c.wins(j)).sum();
    assert!(greedy > 1400, "greedy seats won {greedy} of 2000");
}

#[test]
fn turn_log_and_day_columns_r114() {
    // R11.4: one row per turn, consistent with R6 scoring; per-day ranks end in the final ranks
    let mut p = prm();
    p.layout = 1;
    for n in [5, 9, 12] {
        for seed in 0..30u64 {
            let (log, o) = log_of(p, n, seed, &["b1", "race", "greedy+always"]);
            assert_eq!(log.len() as u32, o.turns);
            let sc = Scoring { others: (n - 1) as u8, half_is_success: true, unanimity_fails: true };
            for r in &log {
                let others = ((1u32 << n) - 1) as u16 & !(1 << r.asker);
                let asker_black = r.black & (1 << r.asker) != 0;
                let s = if asker_black { (r.black & others).count_ones() } else { (!r.black & others).count_ones() };
                assert_eq!(s, r.s as u32);
                assert_eq!(r.success, sc.success(s));
                assert_eq!(r.d as u32, if r.success { n as u32 - 1 - s } else { 0 });
                if r.disciple != NONE && r.success && r.d > 0 {
                    // R8.4: never past the Sun (the asker's position before moving)
                    // (unless the asker reached the temple: the game ends before the disciple moves)
                    let temple = r.position as u32 + r.d as u32 >= 17;
                    assert!(temple || (r.disciple_to <= r.position && r.disciple_to > r.disciple_from), "{r:?}");
                }
                assert!(r.p >= p.p_min && r.p <= 1.0 - p.p_min);
            }
            let col = |name: &str| o.seat_columns.iter().find(|c| c.0 == name).map(|c| c.1.clone());
            let days = [6, 6, 5, 5, 4, 4, 3, 3][n - 5];
            let last = col(&format!("rank_day{days}")).unwrap();
            assert_eq!(last, col("final_rank").unwrap());
            assert!(col(&format!("rank_day{}", days + 1)).is_none());
        }
    }
}

/// Issue 25: the search's key decisions here are a disciple's declaration and the naming of
/// Corruption and Divination days; the asker's question and votes are its rollout bot's (`b1`),
/// so the search with this game's defaults answers them exactly as `b1` does.
#[test]
fn search_key_decisions_are_disciples_and_namings() {
    use ketharmad::harness::agents::{make_agent, AgentSpec};
    let mut p = prm();
    p.layout = 1; // the placeholder layout: every special day occurs
    let v: Vec<f64> = {
        let reg = Osztrakon.registry();
        resolve(&reg, &[("rules.special_layout".into(), Value::Str("placeholder".into()))]).unwrap()
    };
    let n = 5;
    let mut seen = std::collections::BTreeMap::new();
    for seed in 0..40u64 {
        let mut s = new_game_with(p, n, seed).unwrap();
        let mut b1: Vec<Box<dyn Agent<State>>> = (0..n).map(|_| Box::new(agent("b1").unwrap()) as Box<dyn Agent<State>>).collect();
        let mut search = make_agent(&Osztrakon, &AgentSpec::parse("search:iterations=20").unwrap(), &v, n, 0).unwrap();
        let mut l = Vec::new();
        while let Some(m) = s.to_move() {
            s.legal_actions(&mut l);
            let key = s.key_decision();
            assert_eq!(key, matches!(s.phase, Phase::Disciple | Phase::CorruptName | Phase::DivName), "{:?}", s.phase);
            *seen.entry(format!("{:?}", s.phase)).or_insert(0) += 1;
            let a = b1[m].act(&s, &l, &mut seat_rng(seed, m));
            if !key && m == 0 {
                assert_eq!(search.act(&s, &l, &mut seat_rng(seed, m)), a, "{:?}", s.phase);
            }
            s.apply(a).unwrap();
        }
    }
    for ph in ["ChooseQuestion", "Vote", "Disciple", "CorruptName", "DivName", "DivChange", "BetrayChange"] {
        assert!(seen.get(ph).copied().unwrap_or(0) > 5, "{ph}: {seen:?}");
    }
}
