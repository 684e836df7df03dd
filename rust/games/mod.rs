//! Games on the generic harness (`crate::harness`) besides Kétharmad.

pub mod schotten_totten2;
