//! Games other than Kétharmad on the game-generic harness (issue 14).

pub mod osztrakon;
