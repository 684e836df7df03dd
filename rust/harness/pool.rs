//! The worker-thread pools batches run on: built once per size, capped at the machine's
//! cores, reused by every later batch, and never inherited from a forked parent.

use super::BatchError;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// Most worker threads a batch accepts (`threads`); more is refused as a mistake.
pub const MAX_THREADS: usize = 1024;

/// Worker threads of the machine (1 if unknown).
pub fn available_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Pools built so far (a test hook: repeated batches with the same `threads` build one).
static POOLS_BUILT: AtomicUsize = AtomicUsize::new(0);

pub fn pools_built() -> usize {
    POOLS_BUILT.load(Ordering::Relaxed)
}

/// The thread pools built so far, by size, and the process they were built in.
type PoolCache = Mutex<(u32, Vec<(usize, Arc<rayon::ThreadPool>)>)>;

/// The rayon pool for `threads` workers: more threads than the machine has are not started
/// (the pool is capped at `available_threads()`; results never depend on the thread count),
/// and a pool is built once per size and reused by every later batch.
///
/// A forked child (`multiprocessing`'s default start method on Linux) inherits the cache
/// but not the pools' threads: a batch on them would wait for ever. The cache remembers the
/// process id it was filled in; in another process the inherited pools are forgotten (not
/// dropped: dropping would signal threads that do not exist there) and new ones are built.
pub fn thread_pool(threads: usize) -> Result<Arc<rayon::ThreadPool>, String> {
    static POOLS: OnceLock<PoolCache> = OnceLock::new();
    let n = threads.clamp(1, available_threads());
    let mut pools = POOLS.get_or_init(|| Mutex::new((0, Vec::new()))).lock().unwrap_or_else(|e| e.into_inner());
    let pid = std::process::id();
    if pools.0 != pid {
        for (_, p) in pools.1.drain(..) {
            std::mem::forget(p);
        }
        pools.0 = pid;
    }
    if let Some((_, p)) = pools.1.iter().find(|(k, _)| *k == n) {
        return Ok(p.clone());
    }
    let pool =
        Arc::new(rayon::ThreadPoolBuilder::new().num_threads(n).thread_name(|i| format!("ketharmad-{i}")).build().map_err(|e| format!("could not start {n} worker threads: {e}"))?);
    POOLS_BUILT.fetch_add(1, Ordering::Relaxed);
    pools.1.push((n, pool.clone()));
    Ok(pool)
}

/// Run `work` on the pool for `threads` workers (None: one per core). Batches never use
/// rayon's global pool, which a forked child cannot use (see [`thread_pool`]).
pub fn on_pool<T: Send>(threads: Option<usize>, work: impl FnOnce() -> Result<T, BatchError> + Send) -> Result<T, BatchError> {
    thread_pool(threads.unwrap_or_else(available_threads)).map_err(BatchError::Invalid)?.install(work)
}
