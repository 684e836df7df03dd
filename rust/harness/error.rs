//! Why a batch gave no result: the one typed error of every batch runner (Kétharmad's fast
//! batch and the generic harness batch). The Python binding turns it into an exception in one
//! place (`py::batch_error`), by variant, never by its text.

/// Why a batch gave no result.
#[derive(Clone, Debug, PartialEq)]
pub enum BatchError {
    /// Bad input (the message names it).
    Invalid(String),
    /// A game panicked: its index in the batch, its seed and the panic's message.
    Panicked { game: u64, seed: u64, message: String },
    /// The batch's [`Stop`](super::Stop) was requested before it finished.
    Stopped,
    /// The results could not be allocated (the message says how much was needed).
    Memory(String),
}

impl BatchError {
    /// The error of game `game` (seed `seed`) that panicked with `payload`.
    pub fn panicked(game: u64, seed: u64, payload: &(dyn std::any::Any + Send)) -> BatchError {
        BatchError::Panicked { game, seed, message: panic_message(payload) }
    }
}

impl std::fmt::Display for BatchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BatchError::Invalid(m) | BatchError::Memory(m) => f.write_str(m),
            BatchError::Panicked { game, seed, message } => write!(f, "game {game} (seed {seed}) panicked: {message}"),
            BatchError::Stopped => f.write_str("the batch was stopped"),
        }
    }
}

impl std::error::Error for BatchError {}

/// The text of a caught panic (its `String` or `&str` payload).
pub fn panic_message(e: &(dyn std::any::Any + Send)) -> String {
    e.downcast_ref::<String>().cloned().or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string())).unwrap_or_else(|| "unknown panic".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_names_its_game_and_seed() {
        let e = std::panic::catch_unwind(|| panic!("boom {}", 7)).unwrap_err();
        let b = BatchError::panicked(3, 99, &*e);
        assert_eq!(b, BatchError::Panicked { game: 3, seed: 99, message: "boom 7".into() });
        assert_eq!(b.to_string(), "game 3 (seed 99) panicked: boom 7");
        let e = std::panic::catch_unwind(|| std::panic::panic_any(5u8)).unwrap_err();
        assert_eq!(panic_message(&*e), "unknown panic");
    }
}
