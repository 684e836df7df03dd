//! The recording mode of the rules code: compiled once with the log and the invariant checks
//! (`Traced`) and once without them (`Untraced`), so that a batch game pays nothing for what
//! it does not record.
//!
//! The functions that write the game log (`glog!`) or run the fuzzer's invariant checks, and
//! the functions that call them, are methods of `Game<'db, M>` (`state::Game`). `Traced`
//! consults the recorders of `trace::Trace` at run time, as every game did before;
//! `Untraced` compiles those lines out (`M::TRACED` is a constant `false`). The entry points
//! (`GameData::run`, `run_loop`, `continue_with`, a driven game's run) take `Untraced` when
//! nothing is recorded and `Traced` otherwise (`in_mode!`): the same game either way, since
//! recording changes no game. Everything outside the rules code (agents, `SeatView`, the
//! harness, Python, tests) holds a plain `Game`, which is `Game<'db, Traced>`.

use super::state::{Game, GameData};

/// Whether the rules code consults the recorders (`Trace`): the type parameter of `Game`.
pub trait Mode: 'static {
    /// `false`: the log lines and the invariant checks are compiled out.
    const TRACED: bool;
}

/// The log and the invariant checks as `Trace` says at run time (the Python log,
/// `KETHARMAD_LOG`, the fuzzer, tests): the mode of a plain `Game`.
#[derive(Debug, Clone, Copy)]
pub enum Traced {}

/// No log line and no invariant check compiled in: a game with those recorders off (the
/// batch, search rollouts, a stepper without a log).
#[derive(Debug, Clone, Copy)]
pub enum Untraced {}

impl Mode for Traced {
    const TRACED: bool = true;
}

impl Mode for Untraced {
    const TRACED: bool = false;
}

impl<M: Mode> Game<'_, M> {
    /// Whether a log line is written here (`glog!`): never in `Untraced`.
    #[inline(always)]
    pub(crate) fn logs(&self) -> bool {
        M::TRACED && self.trace.log.is_some()
    }

    /// Whether the fuzzer's invariant checks run here: never in `Untraced`.
    #[inline(always)]
    pub(crate) fn checks(&self) -> bool {
        M::TRACED && self.trace.check_invariants
    }
}

impl GameData<'_> {
    /// Whether a recorder the rules code consults is on (the log, invariant checking), now or
    /// once a driven copy has caught up (`Drive::after_replay`): then the game runs `Traced`.
    pub(crate) fn traced(&self) -> bool {
        let t = &self.trace;
        t.log.is_some() || t.check_invariants || self.drive.as_ref().is_some_and(|d| d.traced_after_replay())
    }
}

/// Run `$call` on `$g` (a `&mut GameData`) as a `Game` of the mode its recorders need:
/// `Untraced` unless one is on (`GameData::traced`).
macro_rules! in_mode {
    ($g:expr, |$r:ident| $call:expr) => {{
        let g: &mut $crate::engine::state::GameData<'_> = $g;
        if g.traced() {
            let $r = $crate::engine::state::Game::<'_, $crate::engine::mode::Traced>::of(g);
            $call
        } else {
            let $r = $crate::engine::state::Game::<'_, $crate::engine::mode::Untraced>::of(g);
            $call
        }
    }};
}
pub(crate) use in_mode;
