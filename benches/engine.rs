//! Criterion benchmark: random-vs-random 2-player games on one thread, each game reusing
//! the previous one's buffers as a batch worker does.
use criterion::{criterion_group, criterion_main, Criterion};
use ketharmad::batch::{play_one_in, BatchSpec};
use ketharmad::bots::BotSpec;
use ketharmad::cards::{build_db, load_raw};

fn bench(c: &mut Criterion) {
    let raw = load_raw(ketharmad::DEFAULT_CARD_DATA).unwrap();
    let db = build_db(&raw, &[]).unwrap();
    for (a, b) in [(0u8, 2u8), (1, 3)] {
        let spec = BatchSpec { factions: vec![a, b], bots: vec![BotSpec::random(); 2], games: 1, seed: 1, threads: Some(1), start_player: None, ..Default::default() };
        let mut i = 0u64;
        let mut slot = None;
        c.bench_function(&format!("random_2p_game_{}_{}", ketharmad::cards::FACTIONS[a as usize], ketharmad::cards::FACTIONS[b as usize]), |bch| {
            bch.iter(|| {
                i += 1;
                play_one_in(&mut slot, &db, &spec, i, false, false, false).0.turns
            })
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
