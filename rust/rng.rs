//! Deterministic random numbers: SplitMix64 for seeding, xoshiro256** as the named generator.
//!
//! Every game derives its own seed from (batch seed, game index) with `game_seed`, and every
//! source of randomness (shuffles, Events/Newsfeed, dice, each seat's policy) gets its own
//! stream from that seed, so a bot's choices can never shift a deck order.

/// SplitMix64 step (Steele, Lea, Flood 2014).
#[inline]
pub fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The per-game seed: a fixed mix of the batch seed and the game index.
pub fn game_seed(batch_seed: u64, game_index: u64) -> u64 {
    let mut s = batch_seed ^ 0x6B65_7468_6172_6D61; // "ketharma"
    let a = splitmix64(&mut s);
    let mut t = a ^ game_index.wrapping_mul(0xD1B5_4A32_D192_ED03);
    splitmix64(&mut t)
}

/// Named streams of one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    Shuffle = 1,
    Events = 2,
    Dice = 3,
    /// Mixed decks' choice of cards (E90): `Deck + seat`.
    Deck = 4,
    Policy0 = 16,
}

/// xoshiro256** 1.0 (Blackman, Vigna).
#[derive(Clone, Debug)]
pub struct Rng {
    s: [u64; 4],
}

impl Rng {
    pub fn new(seed: u64) -> Rng {
        let mut sm = seed;
        let s = [splitmix64(&mut sm), splitmix64(&mut sm), splitmix64(&mut sm), splitmix64(&mut sm)];
        Rng { s }
    }

    /// The generator of stream `stream` (+ `index`, e.g. a seat) of the game seeded `seed`.
    pub fn stream(seed: u64, stream: u64) -> Rng {
        let mut sm = seed ^ stream.wrapping_mul(0xA076_1D64_78BD_642F);
        let mixed = splitmix64(&mut sm);
        Rng::new(mixed)
    }

    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let result = self.s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = self.s[1] << 17;
        self.s[2] ^= self.s[0];
        self.s[3] ^= self.s[1];
        self.s[1] ^= self.s[2];
        self.s[0] ^= self.s[3];
        self.s[2] ^= t;
        self.s[3] = self.s[3].rotate_left(45);
        result
    }

    /// Uniform integer in 0..n (n > 0), by Lemire's multiply-shift (bias < 2^-32 for small n).
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        debug_assert!(n > 0);
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }

    /// Fisher–Yates shuffle.
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i + 1);
            v.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_are_independent_and_reproducible() {
        let seed = game_seed(7, 3);
        assert_eq!(seed, game_seed(7, 3));
        assert_ne!(seed, game_seed(7, 4));
        assert_ne!(seed, game_seed(8, 3));
        let mut a = Rng::stream(seed, Stream::Shuffle as u64);
        let mut b = Rng::stream(seed, Stream::Dice as u64);
        assert_ne!(a.next_u64(), b.next_u64());
        let mut c = Rng::stream(seed, Stream::Shuffle as u64);
        let mut a2 = Rng::stream(seed, Stream::Shuffle as u64);
        assert_eq!(c.next_u64(), a2.next_u64());
    }

    #[test]
    fn below_is_in_range_and_covers() {
        let mut r = Rng::new(1);
        let mut seen = [0u32; 6];
        for _ in 0..6000 {
            seen[r.below(6)] += 1;
        }
        assert!(seen.iter().all(|&c| c > 800 && c < 1200), "{seen:?}");
    }
}
