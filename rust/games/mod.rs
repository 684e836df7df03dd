//! Games on the generic harness (`crate::harness`) (issue 14): Schotten Totten 2, Osztrakon,
//! and Kétharmad's adapter over its engine (`ketharmad`).

pub mod ketharmad;
pub mod osztrakon;
pub mod schotten_totten2;
