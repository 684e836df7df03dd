//! Switches that only tests and the fuzzer set. Off in every real game.

/// Test switches of one game.
#[derive(Clone, Copy, Debug, Default)]
pub struct TestHooks {
    /// Fixed die result instead of the dice stream (tests of dice cards).
    pub forced_die: Option<u8>,
    /// Distrust every cache hint: state checks scan every Figure, board counts are counted
    /// afresh, Close resets every card (scenario tests place cards and set damage by hand,
    /// bypassing the cache-keeping moves of `caches`).
    pub full_checks: bool,
    /// Pay by scanning a list of the ready sources (`Game::pay_from`, what a board of more
    /// than 64 cards uses) instead of bit sets (tests compare the two).
    pub scan_payment: bool,
}
