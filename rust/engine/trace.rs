//! Recording what happens in a game, for tests, the log view and the fuzzer. Nothing here
//! changes a game: every recorder is off (`None` / `false`) in a batch, and turning one on
//! gives the same game.

use super::decision::{DecisionKind, Opt};

/// One decision put to a policy: (seat, kind, the options offered).
pub type DecisionRecord = (u8, DecisionKind, Vec<Opt>);

/// The recorders of one game.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    /// The game log (one omniscient view), recorded when Some (`glog!`).
    pub log: Option<Vec<String>>,
    /// Every decision put to a policy, recorded when Some. Only decisions with more than one
    /// option asked of a non-random policy are recorded (a single option is taken without
    /// asking, R8.8).
    pub decisions: Option<Vec<DecisionRecord>>,
    /// Card plays (seat, card definition, turn), recorded when Some.
    pub plays: Option<Vec<(u8, u16, u16)>>,
    /// Check `Game::invariants` after every action (fuzzer); the first failure, or a policy
    /// answering with an option it was not offered, lands in `invariant_error`.
    pub check_invariants: bool,
    pub invariant_error: Option<String>,
}

/// Append a line to the game log when it is recorded (the format runs only then; in a game
/// run `Untraced`, `mode`, the line is compiled out).
macro_rules! glog {
    ($g:expr, $($arg:tt)*) => {
        if $g.logs() {
            let s = format!($($arg)*);
            if let Some(log) = $g.trace.log.as_mut() {
                log.push(s);
            }
        }
    };
}
pub(crate) use glog;

/// "1 card", "2 cards" (for the log).
pub(crate) fn cards(k: usize) -> String {
    if k == 1 {
        "1 card".into()
    } else {
        format!("{k} cards")
    }
}
