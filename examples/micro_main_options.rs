//! Micro-benchmark of main_options on a mid-game state (for profiling only).
use ketharmad::engine::scenario;
fn main() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "tisza"]);
    g.add_bases(0, 0, 4);
    g.add_bases(0, 1, 3);
    g.add_bases(1, 2, 4);
    g.add_bases(1, 1, 3);
    for id in ["ner_gulyas_gergely", "ner_meszaros_lorinc", "ner_kover_laszlo"] {
        g.put_in_play(0, id);
    }
    for id in ["tis_tisza_sziget", "tis_magyar_peter", "tis_vitezy_david"] {
        g.put_in_play(1, id);
    }
    for id in ["ner_semjen_zsolt", "ner_lex_ceu", "ner_base_stadion", "ner_orban_viktor", "ner_ejszakai_torvenymodositas", "ner_habony_arpad", "ner_rezsicsokkentes"] {
        g.put_in_hand(0, id);
    }
    let n = 2_000_000;
    let t = std::time::Instant::now();
    let mut k = 0;
    for _ in 0..n {
        g.main_options(0);
        k += g.opts().len();
    }
    let dt = t.elapsed().as_secs_f64();
    println!("{} options; {:.0} ns per main_options", k / n, dt / n as f64 * 1e9);
}
