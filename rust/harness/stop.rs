//! A stop request for one batch (one call), shared by its games and their search agents.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A stop request for one batch (one call): cloned into the games it runs, set by whoever
/// wants the batch to end early (the Python binding on Ctrl-C). Not process-global, so
/// concurrent batches never stop each other.
#[derive(Clone, Debug, Default)]
pub struct Stop(Arc<AtomicBool>);

impl Stop {
    pub fn new() -> Stop {
        Stop::default()
    }
    /// Ask every game of the batch to stop (between games; search bots between rollouts).
    pub fn request(&self) {
        self.0.store(true, Ordering::Relaxed);
    }
    #[inline]
    pub fn requested(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}
