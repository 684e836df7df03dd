//! Kétharmad's option features (issue 26): one row per main-priority option, read off the
//! numbers of the card it plays (cost, Influence, Credibility, type) and the rule-based
//! bot's score of it, for the learned policy (`bots::learned`). Layout: `NAMES`
//! (`ketharmad-options-v1`), documented in docs/learning.md. A policy model reads each
//! option's row after the deciding seat's position features (`ketharmad_features`).

use crate::bots::heuristic::{self, Knobs};
use crate::cards::CardType;
use crate::engine::{Opt, SeatView};

/// The option layout's name.
pub const LAYOUT: &str = "ketharmad-options-v1";

/// Every option feature's name, in order.
pub const NAMES: [&str; 24] = [
    "opt_end_phase",
    "opt_play_base",
    "opt_play",
    "opt_swap",
    "opt_activate",
    "opt_recruit",
    "opt_expose",
    "opt_campaign",
    "card_generic_cost",
    "card_total_cost",
    "card_influence",
    "card_credibility",
    "card_figure",
    "card_institution",
    "card_move",
    "card_event",
    "card_reaction",
    "card_other",
    "card_public_figure",
    "card_abilities",
    "heuristic_score",
    "heuristic_pick",
    "heuristic_rank",
    "expose_target_scandal",
];

/// The number of option features.
pub const LEN: usize = NAMES.len();

/// The policy's full input: the position's features, then one option's.
pub fn policy_names() -> Vec<&'static str> {
    crate::learn::ketharmad_features::NAMES.iter().chain(NAMES.iter()).copied().collect()
}

/// Reusable buffers of `features`.
#[derive(Clone, Debug, Default)]
pub struct Buffers {
    order: Vec<usize>,
    scores: Vec<f64>,
}

/// The features of every option of `opts` (a main-priority decision of `v`'s seat) into
/// `out` (`opts.len() × LEN`, option by option), the heuristic's scores by `knobs`.
pub fn features(knobs: &Knobs, v: &SeatView<'_, '_>, opts: &[Opt], buf: &mut Buffers, out: &mut [f32]) {
    heuristic::rank_main(knobs, v, opts, &mut buf.order, &mut buf.scores);
    let n = opts.len();
    let threshold = v.rules().scandal_threshold.max(1) as f32;
    for (i, o) in opts.iter().enumerate() {
        let row = &mut out[i * LEN..(i + 1) * LEN];
        row.fill(0.0);
        let (kind, card) = match *o {
            Opt::EndPhase => (0, None),
            Opt::PlayBase(c) => (1, Some(c)),
            Opt::Play(c) => (2, Some(c)),
            Opt::Swap(c) => (3, Some(c)),
            Opt::Activate(c, _) => (4, Some(c)),
            Opt::Recruit(c) => (5, Some(c)),
            Opt::Expose(q) => {
                row[23] = v.scandal(q as usize) as f32 / threshold;
                (6, None)
            }
            Opt::Campaign => (7, None),
            _ => (0, None),
        };
        row[kind] = 1.0;
        if let Some(d) = card.and_then(|c| v.def(c)) {
            row[8] = d.cost.generic as f32 / 4.0;
            row[9] = (d.cost.generic + d.cost.pips.iter().sum::<i16>()) as f32 / 4.0;
            row[10] = d.influence as f32 / 5.0;
            row[11] = d.credibility as f32 / 5.0;
            let t = match d.ctype {
                CardType::Figure => 12,
                CardType::Institution => 13,
                CardType::Move => 14,
                CardType::Event => 15,
                CardType::Reaction => 16,
                _ => 17,
            };
            row[t] = 1.0;
            row[18] = d.public_figure as u8 as f32;
            row[19] = d.abilities.len() as f32 / 3.0;
        }
        row[20] = (buf.scores[i] / 50.0).clamp(-5.0, 5.0) as f32;
    }
    for (r, &i) in buf.order.iter().enumerate() {
        out[i * LEN + 21] = (r == 0) as u8 as f32;
        out[i * LEN + 22] = if n > 1 { r as f32 / (n - 1) as f32 } else { 0.0 };
    }
}
