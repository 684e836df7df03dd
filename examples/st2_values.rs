//! Diagnostics: at the Play decisions of greedy-vs-greedy games, the value of greedy's top
//! candidates by full greedy play-outs (common deals) against the evaluation's value after a
//! cut-off rollout of `horizon` turns.
//!
//!     cargo run --release --example st2_values -- games seat k deals horizon [seed] [scale] [pace]

use ketharmad::games::schotten_totten2::bots::GreedyBot;
use ketharmad::games::schotten_totten2::{Phase, SchottenTotten2, State};
use ketharmad::harness::{resolve, Agent, GameState, Rules};
use ketharmad::rng::Rng;

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let games: u64 = a[1].parse().unwrap();
    let seat: usize = a[2].parse().unwrap();
    let k: usize = a[3].parse().unwrap();
    // "S/M": select on S deals, measure on M others
    let (sel, hold): (usize, usize) = {
        let (x, y) = a[4].split_once('/').unwrap();
        (x.parse().unwrap(), y.parse().unwrap())
    };
    let deals = sel + hold;
    let horizon: u32 = a[5].parse().unwrap();
    let seed: u64 = a.get(6).and_then(|s| s.parse().ok()).unwrap_or(5);
    let w = [a.get(7).and_then(|s| s.parse().ok()).unwrap_or(25.0), a.get(8).and_then(|s| s.parse().ok()).unwrap_or(1.0)];
    let v = resolve(&SchottenTotten2.registry(), &[]).unwrap();
    let mut g = GreedyBot;
    let mut rng0 = Rng::new(0);
    let (mut n, mut gain_true, mut gain_eval, mut agree_eval, mut agree_true) = (0usize, 0.0, 0.0, 0usize, 0usize);
    let mut corr = 0.0;
    let mut legal = Vec::new();
    for gi in 0..games {
        let mut s: State = SchottenTotten2.new_game(&v, 2, seed, gi).unwrap();
        while let Some(m) = s.to_move() {
            s.legal_actions(&mut legal);
            if m == seat && s.phase == Phase::Play && legal.len() > 1 && s.turn % 3 == 1 {
                let cands: Vec<u32> = g.play_scores(&s, &legal).into_iter().take(k).map(|x| x.1).collect();
                let mut pv = vec![[0.0f64; 2]; cands.len()]; // playout values on halves A, B
                let mut ev = vec![[0.0f64; 2]; cands.len()];
                let mut r = Rng::new(gi * 7919 + s.turn as u64);
                let unpaired = std::env::var("UNPAIRED").is_ok();
                for d in 0..deals {
                    let deal = s.determinized(m, &mut r);
                    for (ci, &c) in cands.iter().enumerate() {
                        let mut t = if unpaired && d < sel { s.determinized(m, &mut r) } else { deal.clone() };
                        t.apply(c).unwrap();
                        let start = t.turn;
                        let mut e = None;
                        let mut l = Vec::new();
                        while let Some(kk) = t.to_move() {
                            if e.is_none() && t.turn - start >= horizon {
                                let mut out = [0.0; 2];
                                t.evaluate(&w, &mut out);
                                e = Some(out[m]);
                            }
                            t.legal_actions(&mut l);
                            let y = g.act(&t, &l, &mut rng0);
                            t.apply(y).unwrap();
                            let _ = kk;
                        }
                        let mut out = [0.0; 2];
                        t.rewards(&mut out);
                        let h = (d >= sel) as usize;
                        pv[ci][h] += out[m];
                        ev[ci][h] += e.unwrap_or(out[m]);
                    }
                }
                // choose on half A, measure on half B (no selection bias)
                let argmax = |x: &Vec<[f64; 2]>, h: usize| (0..x.len()).max_by(|&i, &j| x[i][h].total_cmp(&x[j][h])).unwrap();
                let bt = argmax(&pv, 0);
                let be = argmax(&ev, 0);
                let half = hold as f64;
                gain_true += (pv[bt][1] - pv[0][1]) / half;
                gain_eval += (pv[be][1] - pv[0][1]) / half;
                agree_true += (bt == 0) as usize;
                agree_eval += (be == 0) as usize;
                // correlation of the full-sample values across candidates
                let tv: Vec<f64> = pv.iter().map(|x| x[0] + x[1]).collect();
                let evv: Vec<f64> = ev.iter().map(|x| x[0] + x[1]).collect();
                let mt = tv.iter().sum::<f64>() / tv.len() as f64;
                let me = evv.iter().sum::<f64>() / evv.len() as f64;
                let cov: f64 = tv.iter().zip(&evv).map(|(a, b)| (a - mt) * (b - me)).sum();
                let vt: f64 = tv.iter().map(|a| (a - mt).powi(2)).sum();
                let ve: f64 = evv.iter().map(|b| (b - me).powi(2)).sum();
                if vt > 0.0 && ve > 0.0 {
                    corr += cov / (vt * ve).sqrt();
                }
                n += 1;
            }
            let y = g.act(&s, &legal, &mut rng0);
            s.apply(y).unwrap();
        }
    }
    let nf = n as f64;
    println!(
        "seat {seat} decisions={n} k={k} deals={sel}/{hold} horizon={horizon} w={w:?}: reward gain over greedy's pick (held-out half): by play-outs {:+.4}, by evaluation {:+.4}; picks greedy's: play-outs {:.2}, evaluation {:.2}; mean corr {:.3}",
        gain_true / nf,
        gain_eval / nf,
        agree_true as f64 / nf,
        agree_eval as f64 / nf,
        corr / nf
    );
}
