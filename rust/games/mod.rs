//! Games on the generic harness (`crate::harness`) besides Kétharmad (issue 14).

pub mod osztrakon;
pub mod schotten_totten2;
