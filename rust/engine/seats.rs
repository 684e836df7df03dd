//! Seats, teams and pools: who is whose opponent and ally, and whose Support and Scandal a
//! seat reads and changes (issue 13; R15, R16.2–R16.3, the multiplayer formats V1–V4).
//!
//! Every rule that works out opponents asks `Game::opponents` (or `opponent_seats`,
//! `is_enemy`); every read and write of Support and Scandal goes through `support_of` /
//! `scandal_pool_of` and their setters. The `Seating` of a game says what those mean:
//! - `enemies[p]`: the seats `p` may attack, expose and target as "opponent" (R15.5). In the
//!   free-for-all every other seat; a format may narrow it (Coalition: the other team, E83;
//!   the circle: the neighbours, V3; war of the gods: an enemy graph, V4).
//! - `allies[p]`: `p`'s team-mates (empty in the free-for-all; the partner in Coalition, E86).
//! - `pool[p]`: the seat whose Support and Scandal `p` uses (itself in the free-for-all; one
//!   member of the team in Coalition, so both partners share one Support and one Scandal
//!   pool, E82).
//!
//! A `Seats` is a bitmask over at most `MAX_SEATS` seats: copying it borrows nothing, so a
//! loop that changes the game can walk a snapshot (`Seats::after`).

use super::state::{GameData, Player, State};
use crate::cards::formats::{Attack, Enemies, FormatSpec, GraphReading, NoEnemyLeft, Pools, Teams};

/// Most seats a game's arrays hold (war of the gods, V4, seats up to nine). The rules
/// validation still allows 2 to 4 (`BatchSpec::validate`, the Python API).
pub const MAX_SEATS: usize = 9;

/// A set of seats: bit `q` is seat `q`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Seats(pub u16);

impl Seats {
    pub const EMPTY: Seats = Seats(0);

    #[inline]
    pub fn one(q: usize) -> Seats {
        Seats(1 << q)
    }
    /// Seats `0..n`.
    #[inline]
    pub fn all(n: usize) -> Seats {
        Seats(((1u32 << n) - 1) as u16)
    }
    #[inline]
    pub fn contains(self, q: usize) -> bool {
        self.0 >> q & 1 != 0
    }
    #[inline]
    pub fn with(self, q: usize) -> Seats {
        Seats(self.0 | 1 << q)
    }
    #[inline]
    pub fn without(self, q: usize) -> Seats {
        Seats(self.0 & !(1 << q))
    }
    #[inline]
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// The lowest seat in the set.
    #[inline]
    pub fn first(self) -> Option<usize> {
        (self.0 != 0).then(|| self.0.trailing_zeros() as usize)
    }
    /// The seats in seat order.
    #[inline]
    pub fn iter(self) -> SeatsAfter {
        SeatsAfter { rest: self.0 as u32, base: 0, n: 32 }
    }
    /// The seats of a game of `n` seats in turn order after `p`: `p + 1`, `p + 2` … wrapping
    /// round, `p` itself last if it is in the set.
    #[inline]
    pub fn after(self, p: usize, n: usize) -> SeatsAfter {
        let m = self.0 as u32;
        let s = p + 1;
        // seats s..n first, then 0..s: rotate right by s within n bits
        let rest = (m >> s) | ((m & ((1u32 << s) - 1)) << (n - s));
        SeatsAfter { rest, base: s as u8, n: n as u8 }
    }
}

/// The seats of a `Seats`, in an order fixed when it was made (`Seats::iter`, `Seats::after`).
#[derive(Clone, Copy, Debug)]
pub struct SeatsAfter {
    rest: u32,
    base: u8,
    n: u8,
}

impl Iterator for SeatsAfter {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.rest == 0 {
            return None;
        }
        let k = self.rest.trailing_zeros() as usize;
        self.rest &= self.rest - 1;
        let q = self.base as usize + k;
        Some(if q >= self.n as usize { q - self.n as usize } else { q })
    }
}

/// Seats in a fixed order, packed four bits each (seat + 1; 0 ends the list), so that a walk
/// costs a shift and a mask per seat: no modulo, no borrow. At most eight seats (the others of
/// a nine-seat game).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SeatOrder(u32);

impl SeatOrder {
    /// The seats of `s` in turn order after `p` in a game of `n` seats (`p` itself left out).
    pub fn after(s: Seats, p: usize, n: usize) -> SeatOrder {
        let mut packed = 0u32;
        let mut shift = 0;
        for q in s.without(p).after(p, n) {
            packed |= ((q + 1) as u32) << shift;
            shift += 4;
        }
        SeatOrder(packed)
    }
}

impl Iterator for SeatOrder {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let q = (self.0 & 15) as usize - 1;
        self.0 >>= 4;
        Some(q)
    }
}

/// Who is whose opponent and ally, and which pool each seat's Support and Scandal live in.
/// Built for a number of seats; the turn-order lists are derived from the sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seating {
    enemies: [Seats; MAX_SEATS],
    allies: [Seats; MAX_SEATS],
    /// The seat whose `Player::support` and `Player::scandal` hold seat `p`'s pool.
    pool: [u8; MAX_SEATS],
    enemy_order: [SeatOrder; MAX_SEATS],
    ally_order: [SeatOrder; MAX_SEATS],
    /// The seats each seat's Campaign may attack, in turn order: its enemies, or with
    /// `attack = "left"` (the circle, V3) only its left neighbour among the seats still in.
    attack_order: [SeatOrder; MAX_SEATS],
}

impl Seating {
    /// The free-for-all of `n` seats (R15): everyone against everyone, no allies, a pool each.
    pub fn free_for_all(n: usize) -> Seating {
        let n = n.min(MAX_SEATS);
        let enemies: Vec<Seats> = (0..n).map(|p| Seats::all(n).without(p)).collect();
        let pool: Vec<u8> = (0..n as u8).collect();
        // unwrap: the free-for-all is a valid seating of any size up to MAX_SEATS
        Seating::new(n, &enemies, &vec![Seats::EMPTY; n], &pool).unwrap()
    }

    /// A seating of `n` seats: each seat's enemies and allies, and the seat holding its pool.
    /// A seat is neither its own enemy nor its own ally, and no seat is both an enemy and an
    /// ally; the relation need not be symmetric (a directed enemy graph, V4).
    pub fn new(n: usize, enemies: &[Seats], allies: &[Seats], pool: &[u8]) -> Result<Seating, String> {
        if !(1..=MAX_SEATS).contains(&n) {
            return Err(format!("a seating has 1 to {MAX_SEATS} seats, got {n}"));
        }
        if enemies.len() != n || allies.len() != n || pool.len() != n {
            return Err(format!("a seating of {n} seats needs {n} enemy sets, ally sets and pools"));
        }
        let mut s = Seating {
            enemies: [Seats::EMPTY; MAX_SEATS],
            allies: [Seats::EMPTY; MAX_SEATS],
            pool: [0; MAX_SEATS],
            enemy_order: [SeatOrder::default(); MAX_SEATS],
            ally_order: [SeatOrder::default(); MAX_SEATS],
            attack_order: [SeatOrder::default(); MAX_SEATS],
        };
        let outside = !Seats::all(n).0;
        for p in 0..n {
            let (e, a) = (enemies[p], allies[p]);
            if e.contains(p) || a.contains(p) {
                return Err(format!("seat {p} cannot be its own enemy or ally"));
            }
            if e.0 & a.0 != 0 {
                return Err(format!("seat {p} has a seat that is both an enemy and an ally"));
            }
            if (e.0 | a.0) & outside != 0 || pool[p] as usize >= n {
                return Err(format!("seat {p} names a seat outside 0..{n}"));
            }
            s.enemies[p] = e;
            s.allies[p] = a;
            s.pool[p] = pool[p];
            s.enemy_order[p] = SeatOrder::after(e, p, n);
            s.ally_order[p] = SeatOrder::after(a, p, n);
            s.attack_order[p] = s.enemy_order[p];
        }
        Ok(s)
    }
    /// `p`'s enemies (in or out of the game).
    #[inline]
    pub fn enemies(&self, p: usize) -> Seats {
        self.enemies[p]
    }
    /// `p`'s allies (in or out of the game).
    #[inline]
    pub fn allies(&self, p: usize) -> Seats {
        self.allies[p]
    }
    /// `p`'s enemies in turn order after `p` (in or out of the game).
    #[inline]
    pub fn enemy_order(&self, p: usize) -> SeatOrder {
        self.enemy_order[p]
    }
    /// The seats `p`'s Campaign may attack, in turn order after `p` (in or out of the game).
    #[inline]
    pub fn attack_order(&self, p: usize) -> SeatOrder {
        self.attack_order[p]
    }
    /// Whether some seat has an ally (a team format).
    #[inline]
    pub fn has_teams(&self) -> bool {
        self.allies.iter().any(|a| !a.is_empty())
    }
    /// The seat holding `p`'s Support and Scandal pool.
    #[inline]
    pub fn pool(&self, p: usize) -> usize {
        self.pool[p] as usize
    }
}

impl Seating {
    /// The seating a format gives `n` seats (docs/formats.md): teams, enemies and pools. The
    /// seat count is checked against the format by `BatchSpec::validate`; here a format that
    /// cannot seat `n` is an error too.
    pub fn of_format(f: &FormatSpec, n: usize) -> Result<Seating, String> {
        Seating::of_format_among(f, n, Seats::all(n.min(MAX_SEATS)))
    }

    /// The seating a format gives `n` seats of which `alive` are still in the game (an
    /// elimination rebuilds it, `Game::reseat`; allocates nothing unless it fails):
    /// - `enemies = "neighbours"` (the circle, V3): the left and right neighbour among the
    ///   seats still in (the circle closes after an elimination);
    /// - `enemies = "graph"` (war of the gods, V4): the seats the graph lists (or its symmetric
    ///   closure) that are still in;
    /// - `no_enemy_left = "any"`: a seat still in whose enemies are all out may act against
    ///   every other seat still in (but its allies); "none": against no one;
    /// - `attack = "left"`: a Campaign attacks only the left neighbour among the seats still
    ///   in (when it is an enemy); `"enemies"`: any enemy.
    ///
    /// Seats out of the game get no enemies. With every seat in, "all" enemies and
    /// `attack = "enemies"`, it is the seating the game starts with.
    pub fn of_format_among(f: &FormatSpec, n: usize, alive: Seats) -> Result<Seating, String> {
        let n = n.min(MAX_SEATS);
        let alive = Seats(alive.0 & Seats::all(n).0);
        // teams: each seat's team-mates
        let mut allies = [Seats::EMPTY; MAX_SEATS];
        match &f.teams {
            Teams::None => {}
            Teams::Opposite => {
                if !n.is_multiple_of(2) {
                    return Err(format!("format '{}': partners opposite need an even number of seats, got {n}", f.name));
                }
                for (p, a) in allies.iter_mut().enumerate().take(n) {
                    *a = Seats::one((p + n / 2) % n);
                }
            }
            Teams::Listed(teams) => {
                for t in teams {
                    for &a in t {
                        for &b in t {
                            if a != b && (a as usize) < n && (b as usize) < n {
                                allies[a as usize] = allies[a as usize].with(b as usize);
                            }
                        }
                    }
                }
            }
        }
        // the next seat still in after p (left), and the one before p (right)
        let left = |p: usize| (1..n).map(|k| (p + k) % n).find(|&q| alive.contains(q)).unwrap_or(p);
        let right = |p: usize| (1..n).map(|k| (p + n - k) % n).find(|&q| alive.contains(q)).unwrap_or(p);
        let mut enemies = [Seats::EMPTY; MAX_SEATS];
        for p in 0..n {
            let others = Seats(Seats::all(n).without(p).0 & !allies[p].0);
            enemies[p] = match f.enemies {
                // every other seat, in or out: the free-for-all's seating never changes
                Enemies::All => others,
                _ if !alive.contains(p) => Seats::EMPTY,
                Enemies::Neighbours => Seats(Seats::one(left(p)).with(right(p)).0 & others.0 & alive.0),
                Enemies::Graph => {
                    let mut e = Seats::EMPTY;
                    for (q, list) in f.graph.iter().enumerate() {
                        for &t in list {
                            let t = t as usize;
                            if q == p && t < n {
                                e = e.with(t);
                            }
                            if t == p && q < n && f.graph_reading == GraphReading::Symmetric {
                                e = e.with(q);
                            }
                        }
                    }
                    Seats(e.0 & others.0 & alive.0)
                }
            };
            if enemies[p].is_empty() && alive.contains(p) && f.no_enemy_left == NoEnemyLeft::Any {
                enemies[p] = Seats(others.0 & alive.0);
            }
        }
        let mut pool = [0u8; MAX_SEATS];
        for p in 0..n {
            pool[p] = match f.pools {
                Pools::Seat => p as u8,
                Pools::Team => allies[p].with(p).first().unwrap_or(p) as u8,
            };
        }
        let mut s = Seating::new(n, &enemies[..n], &allies[..n], &pool[..n])?;
        if f.attack == Attack::Left {
            for p in 0..n {
                let l = left(p);
                let a = if alive.contains(p) && s.enemies[p].contains(l) { Seats::one(l) } else { Seats::EMPTY };
                s.attack_order[p] = SeatOrder::after(a, p, n);
            }
        }
        Ok(s)
    }

    /// Coalition (E81–E83): teams {0, 2} and {1, 3} (partners opposite, so turns alternate
    /// between the teams); the partner is the ally, the other team the enemies; each team's
    /// Support and Scandal live in its lower seat (0 and 1).
    pub fn coalition() -> Seating {
        let e = [Seats(0b1010), Seats(0b0101), Seats(0b1010), Seats(0b0101)];
        let a = [Seats(0b0100), Seats(0b1000), Seats(0b0001), Seats(0b0010)];
        // unwrap: a fixed, valid seating
        Seating::new(4, &e, &a, &[0, 1, 0, 1]).unwrap()
    }
}

impl Default for Seating {
    fn default() -> Seating {
        Seating::free_for_all(0)
    }
}

impl State {
    /// Seats still in the game.
    #[inline]
    pub fn alive_seats(&self) -> Seats {
        let mut s = Seats::EMPTY;
        for (q, pl) in self.players.iter().enumerate() {
            if pl.alive {
                s = s.with(q);
            }
        }
        s
    }
    /// Whether `q` is an enemy of `p` (an opponent while both are in the game).
    #[inline]
    pub fn is_enemy(&self, p: usize, q: usize) -> bool {
        self.seating.enemies[p].contains(q)
    }
    /// Whether `q` is an ally (team-mate) of `p`; never in the free-for-all.
    #[inline]
    pub fn is_ally(&self, p: usize, q: usize) -> bool {
        self.seating.allies[p].contains(q)
    }
    /// The seat whose pool holds `p`'s Support and Scandal.
    #[inline]
    pub fn pool_of(&self, p: usize) -> usize {
        self.seating.pool[p] as usize
    }
    /// `p`'s Support (its pool's).
    #[inline]
    pub fn support_of(&self, p: usize) -> i32 {
        self.players[self.pool_of(p)].support
    }
    /// `p`'s Scandal (its pool's).
    #[inline]
    pub fn scandal_pool_of(&self, p: usize) -> i32 {
        self.players[self.pool_of(p)].scandal
    }
    /// Set `p`'s Support (no rule applies: callers are the rules).
    #[inline]
    pub fn set_support(&mut self, p: usize, v: i32) {
        let k = self.pool_of(p);
        self.players[k].support = v;
    }
    #[inline]
    pub fn add_support(&mut self, p: usize, d: i32) {
        let k = self.pool_of(p);
        self.players[k].support += d;
    }
    #[inline]
    pub fn set_scandal(&mut self, p: usize, v: i32) {
        let k = self.pool_of(p);
        self.players[k].scandal = v;
    }
    #[inline]
    pub fn add_scandal(&mut self, p: usize, d: i32) {
        let k = self.pool_of(p);
        self.players[k].scandal += d;
    }
    /// Opponents of `p` that are still in the game, in turn order after `p` (R15.5).
    #[inline]
    pub fn opponents(&self, p: usize) -> InGame<'_> {
        InGame { players: &self.players, seats: self.seating.enemy_order[p] }
    }
    /// The seats `p`'s Campaign may attack that are still in the game, in turn order after
    /// `p`: its opponents, or only its left neighbour (`attack = "left"`, V3).
    #[inline]
    pub fn attack_targets(&self, p: usize) -> InGame<'_> {
        InGame { players: &self.players, seats: self.seating.attack_order[p] }
    }
    /// The same seats as a set (a snapshot: borrows nothing; walk it with `after(p, n)`).
    #[inline]
    pub fn opponent_seats(&self, p: usize) -> Seats {
        Seats(self.seating.enemies[p].0 & self.alive_seats().0)
    }
    /// `p`'s allies still in the game, in turn order after `p` (none in the free-for-all).
    #[inline]
    pub fn allies(&self, p: usize) -> InGame<'_> {
        InGame { players: &self.players, seats: self.seating.ally_order[p] }
    }
}

/// The seats of a `SeatOrder` that are still in the game when the walk reaches them.
#[derive(Clone)]
pub struct InGame<'a> {
    players: &'a [Player],
    seats: SeatOrder,
}

impl Iterator for InGame<'_> {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        loop {
            let q = self.seats.next()?;
            if self.players[q].alive {
                return Some(q);
            }
        }
    }
}

impl GameData<'_> {
    /// Opponents of `p` that are still in the game, in turn order after `p`.
    #[inline]
    pub fn opponents(&self, p: usize) -> InGame<'_> {
        self.state.opponents(p)
    }
    /// Opponents of `p` still in the game as a set (for loops that change the game).
    #[inline]
    pub fn opponent_seats(&self, p: usize) -> Seats {
        self.state.opponent_seats(p)
    }
    /// `p`'s allies still in the game (none in the free-for-all).
    #[inline]
    pub fn allies(&self, p: usize) -> InGame<'_> {
        self.state.allies(p)
    }
    #[inline]
    pub fn is_enemy(&self, p: usize, q: usize) -> bool {
        self.state.is_enemy(p, q)
    }
    #[inline]
    pub fn support_of(&self, p: usize) -> i32 {
        self.state.support_of(p)
    }
    #[inline]
    pub fn scandal_pool_of(&self, p: usize) -> i32 {
        self.state.scandal_pool_of(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn after_walks_turn_order() {
        let all = Seats::all(4);
        assert_eq!(all.after(1, 4).collect::<Vec<_>>(), vec![2, 3, 0, 1]);
        assert_eq!(all.without(1).after(1, 4).collect::<Vec<_>>(), vec![2, 3, 0]);
        assert_eq!(all.without(3).after(3, 4).collect::<Vec<_>>(), vec![0, 1, 2]);
        assert_eq!(Seats(0b1_0100_0001).after(6, 9).collect::<Vec<_>>(), vec![8, 0, 6]);
        assert_eq!(Seats::all(9).after(8, 9).collect::<Vec<_>>(), (0..9).collect::<Vec<_>>());
        assert_eq!(Seats(0b1010).iter().collect::<Vec<_>>(), vec![1, 3]);
        assert_eq!(Seats::EMPTY.after(0, 2).next(), None);
    }

    #[test]
    fn free_for_all_seating() {
        let s = Seating::free_for_all(3);
        assert_eq!(s.enemies(0), Seats(0b110));
        assert_eq!(s.enemies(2), Seats(0b011));
        assert!((0..3).all(|p| s.allies(p).is_empty()));
        assert_eq!((0..3).map(|p| s.pool(p)).collect::<Vec<_>>(), vec![0, 1, 2]);
        assert_eq!(s.enemy_order(1).collect::<Vec<_>>(), vec![2, 0]);
        assert_eq!(Seating::free_for_all(9).enemy_order(4).collect::<Vec<_>>(), vec![5, 6, 7, 8, 0, 1, 2, 3]);
    }

    #[test]
    fn seating_of_teams_and_errors() {
        // Coalition seating (E81): teams {0, 2} and {1, 3}, seat 0 and 1 hold the pools
        let e = [Seats(0b1010), Seats(0b0101), Seats(0b1010), Seats(0b0101)];
        let a = [Seats(0b0100), Seats(0b1000), Seats(0b0001), Seats(0b0010)];
        let s = Seating::new(4, &e, &a, &[0, 1, 0, 1]).unwrap();
        assert_eq!(s.enemy_order(2).collect::<Vec<_>>(), vec![3, 1]);
        assert_eq!(s.pool(2), 0);
        assert!(Seating::new(2, &[Seats(0b11), Seats(0b01)], &[Seats::EMPTY; 2], &[0, 1]).unwrap_err().contains("own enemy"));
        assert!(Seating::new(2, &[Seats(0b10), Seats(0b01)], &[Seats(0b10), Seats::EMPTY], &[0, 1]).unwrap_err().contains("both"));
        assert!(Seating::new(2, &[Seats(0b110), Seats(0b01)], &[Seats::EMPTY; 2], &[0, 1]).unwrap_err().contains("outside"));
        assert!(Seating::new(2, &[Seats(0b10), Seats(0b01)], &[Seats::EMPTY; 2], &[0, 2]).unwrap_err().contains("outside"));
    }
}
