//! R6: scoring. S = others whose final vote equals the asker's final vote, D = N - S; success
//! iff N/2 <= S <= N - 1 under the defaults (R6.1, R6.3, R6.4 — see `model::Scoring`).

/// S: the others (bitset `others`) whose vote (bit set = black in `black`) equals the asker's.
#[inline]
pub fn agreeing(black: u16, others: u16, asker_black: bool) -> u32 {
    if asker_black {
        (black & others).count_ones()
    } else {
        (!black & others).count_ones()
    }
}
