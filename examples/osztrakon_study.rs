//! The Osztrakon balance study (issue 14, spec B2) on the generic batch runner:
//! `cargo run --release --example osztrakon_study -- --games 100000 [--threads 2] [--parts base,skill,special,incidence,disciples,policy,sweep] [--n 5,6,...] [--seed 1]`
//! `... -- --registry` prints the parameter table; `... -- --games 20000 --throughput` the
//! single-thread speed (engine + b1 agents through `play_out`, and the batch runner).
//! Prints markdown tables (95 % Wilson intervals for rates, ±1.96 SE for means) and the
//! throughput of every cell. Every cell uses the same batch seed, so games are reproducible.

use ketharmad::games::osztrakon::Osztrakon;
use ketharmad::harness::batch::{run, wilson, GenericColumns};
use ketharmad::harness::{resolve, Rules, Value};
use std::time::Instant;

struct Cell {
    c: GenericColumns,
    secs: f64,
}

fn gcol<'a>(c: &'a GenericColumns, name: &str) -> &'a [f64] {
    &c.game_extra.iter().find(|x| x.0 == name).unwrap_or_else(|| panic!("column {name}")).1
}
fn scol<'a>(c: &'a GenericColumns, name: &str) -> &'a [f64] {
    &c.seat_extra.iter().find(|x| x.0 == name).unwrap_or_else(|| panic!("column {name}")).1
}
fn has_scol(c: &GenericColumns, name: &str) -> bool {
    c.seat_extra.iter().any(|x| x.0 == name)
}

fn rate(k: u64, n: u64) -> String {
    if n == 0 {
        return "–".into();
    }
    let (lo, hi) = wilson(k, n, 1.96);
    format!("{:.3} [{:.3}, {:.3}]", k as f64 / n as f64, lo, hi)
}
fn pct(k: u64, n: u64) -> String {
    if n == 0 {
        return "–".into();
    }
    let (lo, hi) = wilson(k, n, 1.96);
    format!("{:.2} % [{:.2}, {:.2}]", 100.0 * k as f64 / n as f64, 100.0 * lo, 100.0 * hi)
}
fn mean(xs: &[f64]) -> String {
    if xs.is_empty() {
        return "–".into();
    }
    let n = xs.len() as f64;
    let m = xs.iter().sum::<f64>() / n;
    let v = xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1.0).max(1.0);
    format!("{:.3} ± {:.3}", m, 1.96 * (v / n).sqrt())
}

fn cell(n: usize, over: &[(String, Value)], agents: &[String], games: u64, seed: u64, threads: Option<usize>) -> Cell {
    let v = resolve(&Osztrakon.registry(), over).expect("parameters");
    let t = Instant::now();
    let c = run(&Osztrakon, &v, n, agents, games, seed, threads).expect("batch");
    Cell { c, secs: t.elapsed().as_secs_f64() }
}

fn days_of(c: &GenericColumns) -> usize {
    (1..=20).take_while(|d| has_scol(c, &format!("rank_day{d}"))).count()
}

/// P(win | leader after day d) for d = 1..days-1; Kendall tau (standings after d vs final).
fn leader_stats(c: &GenericColumns, d: usize) -> (u64, u64, f64) {
    let n = c.seats;
    let rd = scol(c, &format!("rank_day{d}"));
    let fr = scol(c, "final_rank");
    let (mut k, mut m, mut tau) = (0, 0, 0.0);
    for g in 0..c.len() {
        let r = &rd[g * n..(g + 1) * n];
        let f = &fr[g * n..(g + 1) * n];
        if let Some(l) = (0..n).find(|&j| r[j] == 0.0) {
            m += 1;
            k += (c.winner[g] == l as i64) as u64;
        }
        let mut conc = 0i32;
        for a in 0..n {
            for b in a + 1..n {
                conc += if (r[a] - r[b]) * (f[a] - f[b]) > 0.0 { 1 } else { -1 };
            }
        }
        tau += conc as f64 / (n * (n - 1) / 2) as f64;
    }
    (k, m, tau / c.len() as f64)
}

fn base_tables(cells: &[(usize, Cell)], title: &str) {
    println!("\n### {title}: leader advantage (B2.1)\n");
    println!("| n | games | P(win \\| leader after day 1) | day 2 | day 3 | day 4 | day 5 | Kendall τ day 1 → final | last full day τ | lead changes / game |");
    println!("|---|---|---|---|---|---|---|---|---|---|");
    for (n, x) in cells {
        let c = &x.c;
        let days = days_of(c);
        let mut cols = Vec::new();
        let mut taus = Vec::new();
        for d in 1..=5 {
            if d < days {
                let (k, m, tau) = leader_stats(c, d);
                cols.push(rate(k, m));
                taus.push(tau);
            } else {
                cols.push("–".into());
            }
        }
        let lc = gcol(c, "lead_changes");
        println!(
            "| {n} | {} | {} | {:.3} | {:.3} | {} |",
            c.len(),
            cols.join(" | "),
            taus.first().copied().unwrap_or(f64::NAN),
            taus.last().copied().unwrap_or(f64::NAN),
            mean(lc)
        );
    }
    println!("\n### {title}: order effects (B2.2), ties (B2.3), temple (B2.4)\n");
    println!("| n | win rate, 1st in the initial stack | 2nd | last | min … max over initial order | 1st asker on the last day | last asker on the last day | ties (B2.3) | overwhelming (B2.4) | overwhelming by day |");
    println!("|---|---|---|---|---|---|---|---|---|---|");
    for (n, x) in cells {
        let c = &x.c;
        let n = *n;
        let so = scol(c, "start_order");
        let lo = scol(c, "last_day_order");
        let mut by_start = vec![(0u64, 0u64); n];
        let (mut first_last, mut last_last) = ((0u64, 0u64), (0u64, 0u64));
        for g in 0..c.len() {
            let asked_last = (0..n).filter(|&j| lo[g * n + j] >= 0.0).count();
            for j in 0..n {
                let i = g * n + j;
                let w = (c.winner[g] == j as i64) as u64;
                let e = &mut by_start[so[i] as usize];
                e.0 += w;
                e.1 += 1;
                if lo[i] == 0.0 {
                    first_last.0 += w;
                    first_last.1 += 1;
                }
                if asked_last == n && lo[i] == (n - 1) as f64 {
                    last_last.0 += w;
                    last_last.1 += 1;
                }
            }
        }
        let rates: Vec<f64> = by_start.iter().map(|&(k, m)| k as f64 / m.max(1) as f64).collect();
        let (mn, mx) = rates.iter().fold((1.0f64, 0.0f64), |(a, b), &r| (a.min(r), b.max(r)));
        let ov = gcol(c, "overwhelming");
        let ovd = gcol(c, "overwhelming_day");
        let days = days_of(c);
        let mut by_day = vec![0u64; days + 1];
        for g in 0..c.len() {
            if ov[g] > 0.0 {
                by_day[ovd[g] as usize] += 1;
            }
        }
        let ties = gcol(c, "tie").iter().filter(|&&t| t > 0.0).count() as u64;
        let ovs = ov.iter().filter(|&&t| t > 0.0).count() as u64;
        println!(
            "| {n} | {} | {} | {} | {:.3} … {:.3} | {} | {} | {} | {} | {} |",
            rate(by_start[0].0, by_start[0].1),
            rate(by_start[1].0, by_start[1].1),
            rate(by_start[n - 1].0, by_start[n - 1].1),
            mn,
            mx,
            rate(first_last.0, first_last.1),
            rate(last_last.0, last_last.1),
            pct(ties, c.len() as u64),
            pct(ovs, c.len() as u64),
            by_day[1..].iter().map(|x| x.to_string()).collect::<Vec<_>>().join(" / ")
        );
    }
    println!("\n### {title}: disciples (B2.6) and turns (B2.8)\n");
    println!("| n | declared / game | moves / game | gain per move | rank before (0 = leader) | rank change (+ = up) | games won with a decisive disciple move | winner used a disciple | success rate per turn | advance per turn | games/s |");
    println!("|---|---|---|---|---|---|---|---|---|---|---|");
    for (n, x) in cells {
        let c = &x.c;
        let n = *n;
        let dd = scol(c, "disciple_day");
        let dg = scol(c, "disciple_gain");
        let mut gains = Vec::new();
        let mut before = Vec::new();
        let mut change = Vec::new();
        let mut winner_used = 0u64;
        for g in 0..c.len() {
            for j in 0..n {
                let i = g * n + j;
                if dg[i] > 0.0 {
                    gains.push(dg[i]);
                    let d = dd[i] as usize;
                    let rb = scol(c, &format!("rank_day{}", d - 1))[i];
                    let ra = scol(c, &format!("rank_day{d}"))[i];
                    before.push(rb);
                    change.push(rb - ra);
                    if c.winner[g] == j as i64 {
                        winner_used += 1;
                    }
                }
            }
        }
        let decl: Vec<f64> = gcol(c, "disciples_declared").to_vec();
        let moves: Vec<f64> = gcol(c, "disciple_moves").to_vec();
        let dec = gcol(c, "disciple_decisive").iter().filter(|&&t| t > 0.0).count() as u64;
        let asks: f64 = scol(c, "asks").iter().sum();
        let succ: f64 = scol(c, "successes").iter().sum();
        let adv: f64 = scol(c, "advance").iter().sum();
        println!(
            "| {n} | {} | {} | {} | {} | {} | {} | {} | {} | {:.3} | {:.0} |",
            mean(&decl),
            mean(&moves),
            mean(&gains),
            mean(&before),
            mean(&change),
            pct(dec, c.len() as u64),
            pct(winner_used, c.len() as u64),
            rate(succ as u64, asks as u64),
            adv / asks,
            c.len() as f64 / x.secs
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let get = |k: &str| args.iter().position(|a| a == k).and_then(|i| args.get(i + 1)).cloned();
    let games: u64 = get("--games").and_then(|s| s.parse().ok()).unwrap_or(10_000);
    let threads: Option<usize> = get("--threads").and_then(|s| s.parse().ok());
    let seed: u64 = get("--seed").and_then(|s| s.parse().ok()).unwrap_or(1);
    let parts: Vec<String> = get("--parts").unwrap_or_else(|| "base,skill,special,incidence,disciples,policy,sweep".into()).split(',').map(String::from).collect();
    let ns: Vec<usize> = get("--n").map(|s| s.split(',').map(|x| x.parse().unwrap()).collect()).unwrap_or_else(|| (5..=12).collect());
    if args.iter().any(|a| a == "--registry") {
        println!("| name | kind | default | range / choices | meaning |");
        println!("|---|---|---|---|---|");
        for p in Osztrakon.registry() {
            let (def, range) = match p.kind {
                ketharmad::harness::ParamKind::Choice => (p.choices[p.default as usize].to_string(), p.choices.join(", ")),
                ketharmad::harness::ParamKind::Bool => ((p.default != 0.0).to_string(), "true, false".into()),
                _ => (format!("{}", (p.default * 1e4).round() / 1e4), format!("{} … {}", p.min, p.max)),
            };
            println!("| `{}` | {:?} | {} | {} | {} |", p.name, p.kind, def, range, p.description);
        }
        return;
    }
    let all = |name: &str, n: usize| vec![name.to_string(); n];
    if args.iter().any(|a| a == "--throughput") {
        // one thread, no batch runner: the engine and the b1 agents alone (play_out), plus the
        // generic batch runner on one thread for comparison
        use ketharmad::games::osztrakon::{agent, new_game_with, seat_rng, Params, State};
        use ketharmad::harness::{play_out, Agent};
        println!("| n | games | play_out games/s (1 thread) | turns/s | batch runner games/s (1 thread) |");
        println!("|---|---|---|---|---|");
        let v = resolve(&Osztrakon.registry(), &[]).unwrap();
        for &n in &ns {
            let prm = Params::defaults();
            let t = Instant::now();
            let (mut turns, mut h) = (0u64, 0u64);
            let mut agents: Vec<Box<dyn Agent<State>>> = (0..n).map(|_| Box::new(agent("b1").unwrap()) as Box<dyn Agent<State>>).collect();
            for g in 0..games {
                let mut s = new_game_with(prm, n, g).unwrap();
                let mut rngs: Vec<_> = (0..n).map(|j| seat_rng(g, j)).collect();
                let o = play_out(&mut s, &mut agents, &mut rngs, 1_000_000);
                turns += o.turns as u64;
                h = h.wrapping_mul(31).wrapping_add(o.winners[0] as u64 + 16 * o.turns as u64);
            }
            let secs = t.elapsed().as_secs_f64();
            let tb = Instant::now();
            let c = run(&Osztrakon, &v, n, &all("b1", n), games, seed, Some(1)).unwrap();
            let sb = tb.elapsed().as_secs_f64();
            println!("| {n} | {games} | {:.0} | {:.0} | {:.0} |  <!-- hash {h:x} -->", games as f64 / secs, turns as f64 / secs, c.len() as f64 / sb);
        }
        return;
    }
    let t0 = Instant::now();
    println!("Osztrakon study: {games} games per cell, batch seed {seed}, threads {threads:?}");
    let mut total_games = 0u64;
    let mut total_secs = 0.0;

    if parts.iter().any(|p| p == "base") {
        let cells: Vec<(usize, Cell)> = ns.iter().map(|&n| (n, cell(n, &[], &all("b1", n), games, seed, threads))).collect();
        for (_, x) in &cells {
            total_games += x.c.len() as u64;
            total_secs += x.secs;
        }
        base_tables(&cells, "Defaults (b1 = greedy asker, threshold disciples θ = 1, σ = 0.5, no special days)");
    }

    if parts.iter().any(|p| p == "skill") {
        println!("\n### Skill vs noise (B2.5): mixed tables, seat j reads with σ = [0, 0.25, 0.5, 1.0][j mod 4]\n");
        println!("| n | σ = 0 (perfect reader) | σ = 0.25 | σ = 0.5 | σ = 1.0 | 1/n | perfect reader / (1/n) | games/s |");
        println!("|---|---|---|---|---|---|---|---|");
        let sig = [0.0, 0.25, 0.5, 1.0];
        for &n in &ns {
            let over: Vec<(String, Value)> = (0..n).map(|j| (format!("model.read_noise.s{j}"), Value::Float(sig[j % 4]))).collect();
            let x = cell(n, &over, &all("b1", n), games, seed, threads);
            total_games += x.c.len() as u64;
            total_secs += x.secs;
            let mut w = [(0u64, 0u64); 4];
            for g in 0..x.c.len() {
                for j in 0..n {
                    w[j % 4].1 += 1;
                    w[j % 4].0 += (x.c.winner[g] == j as i64) as u64;
                }
            }
            let r0 = w[0].0 as f64 / w[0].1 as f64;
            println!(
                "| {n} | {} | {} | {} | {} | {:.3} | {:.2} | {:.0} |",
                rate(w[0].0, w[0].1),
                rate(w[1].0, w[1].1),
                rate(w[2].0, w[2].1),
                rate(w[3].0, w[3].1),
                1.0 / n as f64,
                r0 * n as f64,
                x.c.len() as f64 / x.secs
            );
        }
    }

    if parts.iter().any(|p| p == "special") {
        println!("\n### Special days (B2.7) — INVENTED layouts (R9.5: the printed symbols are unknown; no figure here is a property of the real game)\n");
        println!("| layout | n | turns of days ≥ 2 under a special rule | rule | turns under it | success rate | advance per turn | P(win \\| leader after day 1) | overwhelming | games/s |");
        println!("|---|---|---|---|---|---|---|---|---|---|");
        let names = ["none", "corruption", "divination", "betrayal"];
        for layout in ["placeholder", "all_corruption", "all_divination", "all_betrayal"] {
            for &n in &ns {
                let over = vec![("rules.special_layout".to_string(), Value::Str(layout.into()))];
                let x = cell(n, &over, &all("b1", n), games, seed, threads);
                total_games += x.c.len() as u64;
                total_secs += x.secs;
                let c = &x.c;
                let days = days_of(c);
                // share of the turns of days >= 2 played under a special rule
                let mut turns = [0f64; 4];
                let mut succ = [0f64; 4];
                let mut adv = [0f64; 4];
                for r in 0..4 {
                    turns[r] = gcol(c, &format!("turns_{}", names[r])).iter().sum();
                    succ[r] = gcol(c, &format!("succ_{}", names[r])).iter().sum();
                    adv[r] = gcol(c, &format!("adv_{}", names[r])).iter().sum();
                }
                let day1_turns = (c.len() * n) as f64; // day 1 is always normal and complete
                let special_turns: f64 = turns[1..].iter().sum();
                let total_turns: f64 = turns.iter().sum();
                let share = special_turns / (total_turns - day1_turns).max(1.0);
                let (k, m, _) = if days > 1 { leader_stats(c, 1) } else { (0, 0, 0.0) };
                let ovs = gcol(c, "overwhelming").iter().filter(|&&t| t > 0.0).count() as u64;
                for r in 1..4 {
                    if turns[r] == 0.0 {
                        continue;
                    }
                    println!(
                        "| {layout} | {n} | {:.1} % of turns | {} | {:.0} | {:.3} | {:.3} | {} | {} | {:.0} |",
                        100.0 * share,
                        names[r],
                        turns[r],
                        succ[r] / turns[r],
                        adv[r] / turns[r],
                        rate(k, m),
                        pct(ovs, c.len() as u64),
                        c.len() as f64 / x.secs
                    );
                }
                println!("| {layout} | {n} | | none | {:.0} | {:.3} | {:.3} | | | |", turns[0], succ[0] / turns[0].max(1.0), adv[0] / turns[0].max(1.0));
            }
        }
    }

    if parts.iter().any(|p| p == "incidence") {
        println!("\n### Special-day incidence per day (B2.7), placeholder layout (INVENTED): share of games whose day d runs under each rule\n");
        println!("| n | day 2 C / D / B | day 3 | day 4 | day 5 | day 6 |");
        println!("|---|---|---|---|---|---|");
        for &n in &ns {
            let over = vec![("rules.special_layout".to_string(), Value::Str("placeholder".into()))];
            let x = cell(n, &over, &all("b1", n), games, seed, threads);
            total_games += x.c.len() as u64;
            total_secs += x.secs;
            let c = &x.c;
            let days = c.game_extra.iter().filter(|e| e.0.starts_with("rule_day")).count();
            let mut cols = Vec::new();
            for d in 2..=6 {
                if d > days {
                    cols.push("–".to_string());
                    continue;
                }
                let r = gcol(c, &format!("rule_day{d}"));
                let played = r.iter().filter(|&&v| v >= 0.0).count() as f64;
                let share = |k: f64| 100.0 * r.iter().filter(|&&v| v == k).count() as f64 / played.max(1.0);
                cols.push(format!("{:.1} / {:.1} / {:.1} %", share(1.0), share(2.0), share(3.0)));
            }
            println!("| {n} | {} |", cols.join(" | "));
        }
    }

    if parts.iter().any(|p| p == "disciples") {
        println!("\n### Disciple policy (B1 `disciple_theta`; B2.6 catch-up): every seat the same policy\n");
        println!("| n | policy | P(win \\| leader after day 1) | P(win \\| leader after the second-to-last day) | lead changes / game | moves / game | decisive disciple moves | games/s |");
        println!("|---|---|---|---|---|---|---|---|");
        for &n in &ns {
            for (label, name, over) in [
                ("never", "b1+never", vec![]),
                ("threshold θ = 2", "b1", vec![("policy.disciple_theta".to_string(), Value::Float(2.0))]),
                ("threshold θ = 1", "b1", vec![]),
                ("threshold θ = 0.5", "b1", vec![("policy.disciple_theta".to_string(), Value::Float(0.5))]),
                ("always (= θ = 0)", "b1+always", vec![]),
                ("threshold θ = 1, no Sun cap", "b1", vec![("rules.disciple_cap_at_sun".to_string(), Value::Bool(false))]),
            ] {
                let x = cell(n, &over, &all(name, n), games, seed, threads);
                total_games += x.c.len() as u64;
                total_secs += x.secs;
                let c = &x.c;
                let days = days_of(c);
                let (k1, m1, _) = leader_stats(c, 1);
                let (kl, ml, _) = leader_stats(c, days - 1);
                let dec = gcol(c, "disciple_decisive").iter().filter(|&&t| t > 0.0).count() as u64;
                println!(
                    "| {n} | {label} | {} | {} | {} | {} | {} | {:.0} |",
                    rate(k1, m1),
                    rate(kl, ml),
                    mean(gcol(c, "lead_changes")),
                    mean(gcol(c, "disciple_moves")),
                    pct(dec, c.len() as u64),
                    c.len() as f64 / x.secs
                );
            }
        }
    }

    if parts.iter().any(|p| p == "sweep") {
        println!("\n### Sensitivity to rule resolutions and model assumptions (B1): every seat b1\n");
        println!("| setting | n | P(win \\| leader after day 1) | P(win \\| leader after the second-to-last day) | lead changes / game | ties | overwhelming | success rate per turn | advance per turn | games/s |");
        println!("|---|---|---|---|---|---|---|---|---|---|");
        let f = |k: &str, v: f64| (k.to_string(), Value::Float(v));
        let b = |k: &str, v: bool| (k.to_string(), Value::Bool(v));
        let settings: Vec<(&str, Vec<(String, Value)>)> = vec![
            ("defaults", vec![]),
            ("half_is_success = false", vec![b("rules.half_is_success", false)]),
            ("unanimity_fails = false", vec![b("rules.unanimity_fails", false)]),
            ("temple_position = 16", vec![("rules.temple_position".to_string(), Value::Int(16))]),
            ("q_alpha = 1", vec![f("model.q_alpha", 1.0)]),
            ("q_alpha = 5", vec![f("model.q_alpha", 5.0)]),
            ("kappa = 5 (correlated)", vec![f("model.kappa", 5.0)]),
            ("spoiler_rate = 0.5", vec![f("model.spoiler_rate", 0.5)]),
            ("read_noise = 0 (all)", vec![f("model.read_noise", 0.0)]),
            ("read_noise = 1 (all)", vec![f("model.read_noise", 1.0)]),
        ];
        for (label, over) in &settings {
            for &n in &ns {
                let x = cell(n, over, &all("b1", n), games, seed, threads);
                total_games += x.c.len() as u64;
                total_secs += x.secs;
                let c = &x.c;
                let days = days_of(c);
                let (k1, m1, _) = leader_stats(c, 1);
                let (kl, ml) = if days > 1 {
                    let (a, b, _) = leader_stats(c, days - 1);
                    (a, b)
                } else {
                    (0, 0)
                };
                let ties = gcol(c, "tie").iter().filter(|&&t| t > 0.0).count() as u64;
                let ovs = gcol(c, "overwhelming").iter().filter(|&&t| t > 0.0).count() as u64;
                let asks: f64 = scol(c, "asks").iter().sum();
                let succ: f64 = scol(c, "successes").iter().sum();
                let adv: f64 = scol(c, "advance").iter().sum();
                println!(
                    "| {label} | {n} | {} | {} | {} | {} | {} | {:.3} | {:.3} | {:.0} |",
                    rate(k1, m1),
                    rate(kl, ml),
                    mean(gcol(c, "lead_changes")),
                    pct(ties, c.len() as u64),
                    pct(ovs, c.len() as u64),
                    succ / asks,
                    adv / asks,
                    c.len() as f64 / x.secs
                );
            }
        }
    }

    if parts.iter().any(|p| p == "policy") {
        println!("\n### Asker objective (M5.1) in mixed tables: seat j plays [greedy, safe, race, random][j mod 4]\n");
        println!("| n | greedy | safe | race | random | 1/n | games/s |");
        println!("|---|---|---|---|---|---|---|");
        let pol = ["greedy", "safe", "race", "random"];
        for &n in &ns {
            let agents: Vec<String> = (0..n).map(|j| pol[j % 4].to_string()).collect();
            let x = cell(n, &[], &agents, games, seed, threads);
            total_games += x.c.len() as u64;
            total_secs += x.secs;
            let mut w = [(0u64, 0u64); 4];
            for g in 0..x.c.len() {
                for j in 0..n {
                    w[j % 4].1 += 1;
                    w[j % 4].0 += (x.c.winner[g] == j as i64) as u64;
                }
            }
            println!(
                "| {n} | {} | {} | {} | {} | {:.3} | {:.0} |",
                rate(w[0].0, w[0].1),
                rate(w[1].0, w[1].1),
                rate(w[2].0, w[2].1),
                rate(w[3].0, w[3].1),
                1.0 / n as f64,
                x.c.len() as f64 / x.secs
            );
        }
    }
    println!(
        "\nTotal: {total_games} games in {:.1} s of batch time ({:.0} games/s overall), wall {:.1} s.",
        total_secs,
        total_games as f64 / total_secs.max(1e-9),
        t0.elapsed().as_secs_f64()
    );
}
