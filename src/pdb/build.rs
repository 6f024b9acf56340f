//! Building pattern databases: the search from the group at home, over
//! placements and the blank's region, and the file that holds them.

use crate::board::Board;
use crate::file::{self, Codec, NewSection, RankScheme};
use crate::mem;
use crate::mem::prefetch;
use crate::progress::Step;
use crate::rank::{placements, rank_placement, unrank_placement};
use crate::shape::{MAX_CELLS, Move, Shape};
use std::sync::atomic::{AtomicU8, AtomicU16, AtomicU32, AtomicU64, AtomicUsize, Ordering};

/// The value of an entry no search has reached: never read for a placement
/// of a board that can be solved.
pub const UNREACHED: u8 = u8::MAX;

/// A group of tiles and its database.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternDb {
    shape: Shape,
    /// The group's tiles.
    tiles: Vec<u8>,
    /// One byte per placement: the fewest moves of the group's tiles.
    pub(super) entries: Vec<u8>,
    /// For a database that knows the blank's cell, one mask of cells per
    /// placement: the cells of the blank that need at least two moves of
    /// the group's tiles more than the entry (empty for one that does not).
    pub(super) walled: Vec<u32>,
}

impl PatternDb {
    /// Searches the database of `tiles` toward `goal` on every core,
    /// reporting each depth to `progress`. The entries depend only on the
    /// goal and the tiles.
    ///
    /// # Panics
    ///
    /// Panics if `tiles` is empty, holds the blank, a tile twice, or a tile
    /// not on the board.
    pub fn generate(goal: &Board, tiles: &[u8], progress: impl FnMut(Step<'_>)) -> PatternDb {
        PatternDb::generate_until(goal, tiles, false, progress, &crate::stop::Stop::new())
            .expect("a making with no stop ends")
    }

    /// [`PatternDb::generate`], or `None` once `stop` is asked for (looked
    /// at every chunk of placements a thread takes). With `blank`, the
    /// database knows the blank's cell too: for each placement, the cells
    /// whose region the search reaches after the placement's first
    /// ([`PatternDb::walled`]).
    pub(crate) fn generate_until(
        goal: &Board,
        tiles: &[u8],
        blank: bool,
        mut progress: impl FnMut(Step<'_>),
        stop: &crate::stop::Stop,
    ) -> Option<PatternDb> {
        let shape = goal.shape();
        let n = shape.cells();
        assert!(
            !tiles.is_empty() && tiles.len() < MAX_CELLS,
            "a group has 1 to 15 tiles"
        );
        let mut seen_tiles = 0u32;
        for &tile in tiles {
            assert!(
                tile != 0 && usize::from(tile) < n,
                "tile {tile} is not on a {shape} board"
            );
            assert!(
                seen_tiles & (1 << tile) == 0,
                "tile {tile} is twice in the group"
            );
            seen_tiles |= 1 << tile;
        }
        let homes: Vec<u8> = tiles
            .iter()
            .map(|&tile| {
                goal.cells()
                    .iter()
                    .position(|&t| t == tile)
                    .expect("a goal holds every tile") as u8
            })
            .collect();
        let (entries, walled) = match word_bytes(n - tiles.len()) {
            2 => search::<AtomicU16>(shape, &homes, goal.blank(), blank, &mut progress, stop),
            4 => search::<AtomicU32>(shape, &homes, goal.blank(), blank, &mut progress, stop),
            _ => search::<AtomicU64>(shape, &homes, goal.blank(), blank, &mut progress, stop),
        }?;
        Some(PatternDb {
            shape,
            tiles: tiles.to_vec(),
            entries,
            walled,
        })
    }

    /// A database with these entries, as read from a file: for tools that
    /// transform databases, and for tests.
    ///
    /// # Panics
    ///
    /// Panics unless there is one entry per placement of `tiles`.
    #[cfg(test)]
    pub fn from_entries(goal: &Board, tiles: &[u8], entries: Vec<u8>) -> PatternDb {
        PatternDb::from_words(goal, tiles, entries, Vec::new())
    }

    /// [`PatternDb::from_entries`] with the [walled](PatternDb::walled)
    /// cells of each placement, for a database that knows the blank's cell.
    ///
    /// # Panics
    ///
    /// Panics unless there is one entry per placement of `tiles`, and one
    /// mask each or none.
    pub(crate) fn from_words(
        goal: &Board,
        tiles: &[u8],
        entries: Vec<u8>,
        walled: Vec<u32>,
    ) -> PatternDb {
        let shape = goal.shape();
        assert_eq!(
            entries.len() as u64,
            placements(shape.cells(), tiles.len()),
            "one entry per placement"
        );
        assert!(walled.is_empty() || walled.len() == entries.len());
        PatternDb {
            shape,
            tiles: tiles.to_vec(),
            entries,
            walled,
        }
    }

    /// The group's tiles.
    #[cfg(test)]
    pub fn tiles(&self) -> &[u8] {
        &self.tiles
    }

    /// The entries, one per placement in order of their ranks.
    pub fn entries(&self) -> &[u8] {
        &self.entries
    }

    /// For a database that knows the blank's cell, each placement's cells
    /// (a bit a cell) on which the blank needs at least two more moves of
    /// the group's tiles than the placement's entry: the blank walled into
    /// a region of the cells the group leaves free, whose way home costs
    /// more than another region's. Empty for a database that does not.
    ///
    /// The moves of a placement's tiles all count one move of a tile to a
    /// next cell, so the fewest from any region have the parity of the
    /// tiles' Manhattan distance: a region that costs more costs two more
    /// at least.
    pub fn walled(&self) -> &[u32] {
        &self.walled
    }
}

pub(super) fn cells_mask(cells: &[u8]) -> u32 {
    cells.iter().fold(0, |mask, &cell| mask | 1 << cell)
}

/// The cells of a shape as bit masks.
pub(super) struct Geometry {
    /// Every cell.
    all: u32,
    /// The cells next to each cell.
    around: [u32; MAX_CELLS],
    /// The width of a row.
    cols: u32,
    /// The cells a step right may reach: all but the first column.
    right: u32,
    /// The cells a step left may reach: all but the last column.
    left: u32,
    /// `lowest[free << bits | cell]`: the lowest cell of the region of
    /// `free` that holds `cell` (1 MB for 16 cells, 32 MB for 20): a look-up
    /// for each successor of the search, where a flood fill costs more.
    /// Empty for boards of more than [`LOWEST_MOST`] cells, whose table
    /// would pass a gigabyte: they fill.
    lowest: Vec<u8>,
    /// The bits of a cell in `lowest`'s index.
    bits: u32,
}

/// The most cells of a board whose regions' lowest cells are looked up.
const LOWEST_MOST: usize = 20;

impl Geometry {
    fn new(shape: Shape) -> Geometry {
        let mut around = [0u32; MAX_CELLS];
        let (mut right, mut left) = (0, 0);
        for (cell, mask) in around.iter_mut().enumerate().take(shape.cells()) {
            for mv in Move::ALL {
                if let Some(next) = shape.neighbor(cell, mv) {
                    *mask |= 1 << next;
                }
            }
            let col = cell % shape.cols();
            right |= u32::from(col != 0) << cell;
            left |= u32::from(col != shape.cols() - 1) << cell;
        }
        let bits = match shape.cells() {
            ..=16 => 4,
            _ => 5,
        };
        let looked_up = shape.cells() <= LOWEST_MOST;
        let mut geometry = Geometry {
            all: (1u32 << shape.cells()) - 1,
            around,
            cols: shape.cols() as u32,
            right,
            left,
            lowest: vec![
                0;
                if looked_up {
                    1 << (shape.cells() + bits as usize)
                } else {
                    0
                }
            ],
            bits,
        };
        if !looked_up {
            return geometry;
        }
        for free in 0..1u32 << shape.cells() {
            let mut rest = free;
            while rest != 0 {
                let low = rest.trailing_zeros();
                let mut region = geometry.region(free, low as usize);
                rest &= !region;
                while region != 0 {
                    let cell = region.trailing_zeros() as usize;
                    region &= region - 1;
                    geometry.lowest[(free as usize) << bits | cell] = low as u8;
                }
            }
        }
        geometry
    }

    /// The lowest cell of the region of `free` that holds `cell`.
    fn lowest(&self, free: u32, cell: usize) -> u32 {
        match self.lowest.is_empty() {
            true => self.region(free, cell).trailing_zeros(),
            false => u32::from(self.lowest[(free as usize) << self.bits | cell]),
        }
    }

    /// The cells of `free` connected to `start` through `free`, grown a
    /// step in every direction at once.
    fn region(&self, free: u32, start: usize) -> u32 {
        let mut region = 1u32 << start;
        loop {
            let grown = (region
                | (region << 1 & self.right)
                | (region >> 1 & self.left)
                | region << self.cols
                | region >> self.cols)
                & free;
            if grown == region {
                return region;
            }
            region = grown;
        }
    }
}

/// The low bit of every two-bit slot of a [`Slots`] word.
pub(super) const LOW: u64 = 0x5555_5555_5555_5555;

/// Successors whose records are fetched ahead of their claim.
pub(super) const LOOKAHEAD: usize = 16;

/// What the search keeps of a placement: two bits for each cell the group
/// leaves free, in order of the cells, for the region of free cells whose
/// lowest cell it is (the others stay 0). A region is never reached (0),
/// reached at the depth being expanded or at the next one (1 and 2, which
/// swap at each depth), or expanded (3).
pub(super) trait Slots: Sync {
    fn unreached() -> Self;
    fn get(&self) -> u64;
    /// Sets the bits of `bits`.
    fn set(&self, bits: u64);
    /// Sets the slot at `shift` to `code` if it was never reached, and says
    /// whether it was.
    fn claim(&self, shift: u32, code: u64) -> bool;
}

macro_rules! slots {
    ($atomic:ty, $int:ty) => {
        impl Slots for $atomic {
            fn unreached() -> Self {
                <$atomic>::new(0)
            }

            fn get(&self) -> u64 {
                u64::from(self.load(Ordering::Relaxed))
            }

            fn set(&self, bits: u64) {
                self.fetch_or(bits as $int, Ordering::Relaxed);
            }

            fn claim(&self, shift: u32, code: u64) -> bool {
                self.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |word| {
                    (u64::from(word) >> shift & 3 == 0).then_some(word | (code << shift) as $int)
                })
                .is_ok()
            }
        }
    };
}

slots!(AtomicU16, u16);
slots!(AtomicU32, u32);
slots!(AtomicU64, u64);

/// Where in a [`Slots`] word the region of `free` whose lowest cell is
/// `cell` is kept.
pub(super) fn slot_shift(free: u32, cell: u32) -> u32 {
    2 * (free & ((1 << cell) - 1)).count_ones()
}

/// The breadth-first search of [`PatternDb::generate`] for the group whose
/// tiles are at home on `homes`, toward a goal with the blank on `blank`:
/// its entries.
///
/// Each depth is a pass over every placement, on every core: a placement
/// with regions reached at this depth has them expanded, and gets its entry
/// here if none was expanded before. The records of the successors are
/// fetched [`LOOKAHEAD`] successors before they are claimed, so that their
/// trips to memory overlap. Memory: the words and one byte a placement.
pub(super) fn search<W: Slots>(
    shape: Shape,
    homes: &[u8],
    blank: usize,
    walls: bool,
    progress: &mut impl FnMut(Step<'_>),
    stop: &crate::stop::Stop,
) -> Option<(Vec<u8>, Vec<u32>)> {
    let n = shape.cells();
    let k = homes.len();
    let geometry = Geometry::new(shape);
    let count = placements(n, k) as usize;
    // Both are read at random: huge pages save most trips through the page
    // tables.
    let mut words: Vec<W> = Vec::with_capacity(count);
    mem::advise_huge_pages(&mut words);
    words.extend((0..count).map(|_| W::unreached()));
    let mut entries: Vec<AtomicU8> = Vec::with_capacity(count);
    mem::advise_huge_pages(&mut entries);
    entries.extend((0..count).map(|_| AtomicU8::new(UNREACHED)));
    let mut walled: Vec<AtomicU32> = Vec::new();
    if walls {
        walled.reserve_exact(count);
        mem::advise_huge_pages(&mut walled);
        walled.extend((0..count).map(|_| AtomicU32::new(0)));
    }

    // At home, the blank is in the region of the goal's blank cell. Where
    // the group's tiles wall that cell in, a board whose blank is elsewhere
    // needs moves of the group's tiles to bring it there, and every board
    // on the way to the goal makes them: the entries count them too.
    let free = geometry.all & !cells_mask(homes);
    let region = geometry.region(free, blank);
    let home = 1 << slot_shift(free, region.trailing_zeros());
    words[rank_placement(homes, n) as usize].set(home);

    const CHUNK: usize = 1 << 14;
    // The radix of the last tile's cell in a placement's rank.
    let radix = n - k + 1;
    // The place value of each tile's digit in a placement's rank.
    let mut weights = [0usize; MAX_CELLS];
    let mut weight = 1;
    for i in (0..k).rev() {
        weights[i] = weight;
        weight *= n - i;
    }
    let threads = crate::split::threads();
    let mut reached = 0u64;
    for depth in 0u32.. {
        let code = 1 + depth % 2;
        let value = depth.min(u32::from(UNREACHED) - 1) as u8;
        let chunks = AtomicUsize::new(0);
        let (states, newly) = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..threads)
                .map(|_| {
                    scope.spawn(|| {
                        let mut states = 0u64;
                        let mut newly = 0u64;
                        let mut ahead = [(0usize, 0u32); LOOKAHEAD];
                        let mut pushed = 0usize;
                        let mut claim = |rank: usize, shift: u32| {
                            prefetch(&words, rank);
                            let (old_rank, old_shift) =
                                std::mem::replace(&mut ahead[pushed % LOOKAHEAD], (rank, shift));
                            if pushed >= LOOKAHEAD {
                                words[old_rank].claim(old_shift, u64::from(3 - code));
                            }
                            pushed += 1;
                        };
                        let mut cells = [0u8; MAX_CELLS];
                        let (mut known, mut unused) = (usize::MAX, 0);
                        loop {
                            let start = chunks.fetch_add(CHUNK, Ordering::Relaxed);
                            if start >= count || stop.is_stopped() {
                                break;
                            }
                            for (placement, word) in words
                                .iter()
                                .enumerate()
                                .take(count.min(start + CHUNK))
                                .skip(start)
                            {
                                let word = word.get();
                                let (low, high) = (word & LOW, word >> 1 & LOW);
                                let now = match code {
                                    1 => low & !high,
                                    _ => high & !low,
                                };
                                if now == 0 {
                                    continue;
                                }
                                // Regions reached after the placement's
                                // first are walled in.
                                let late = low & high != 0;
                                if !late {
                                    entries[placement].store(value, Ordering::Relaxed);
                                    newly += 1;
                                }
                                let mut wall = 0u32;
                                states += u64::from(now.count_ones());
                                // Placements that differ in the last tile's
                                // cell alone are neighbours: the others' cells
                                // are kept from one to the next.
                                let (prefix, last) = (placement / radix, placement % radix);
                                if prefix != known {
                                    known = prefix;
                                    unrank_placement(prefix as u64, n, &mut cells[..k - 1]);
                                    unused = geometry.all & !cells_mask(&cells[..k - 1]);
                                }
                                let mut rest = unused;
                                for _ in 0..last {
                                    rest &= rest - 1;
                                }
                                cells[k - 1] = rest.trailing_zeros() as u8;
                                let cells = &mut cells[..k];
                                let free = geometry.all & !cells_mask(cells);
                                let mut rest = free;
                                let mut slot = 0;
                                while rest != 0 {
                                    let start = rest.trailing_zeros() as usize;
                                    rest &= rest - 1;
                                    slot += 2;
                                    if now >> (slot - 2) & 1 == 0 {
                                        continue;
                                    }
                                    let region = geometry.region(free, start);
                                    if late {
                                        wall |= region;
                                    }
                                    // The digits of the tiles before the
                                    // moved one stay: their part of the rank
                                    // and their cells are kept.
                                    let (mut before, mut seen) = (0usize, 0u32);
                                    for i in 0..k {
                                        let from = cells[i];
                                        // The tile moves into a cell of the
                                        // blank's region next to it, and the
                                        // blank takes its cell.
                                        let mut targets =
                                            geometry.around[usize::from(from)] & region;
                                        while targets != 0 {
                                            let to = targets.trailing_zeros();
                                            targets &= targets - 1;
                                            cells[i] = to as u8;
                                            let mut rank = before;
                                            let mut taken = seen;
                                            for (&cell, &weight) in
                                                cells[i..].iter().zip(&weights[i..k])
                                            {
                                                let cell = u32::from(cell);
                                                let digit =
                                                    cell - (taken & ((1 << cell) - 1)).count_ones();
                                                rank += digit as usize * weight;
                                                taken |= 1 << cell;
                                            }
                                            debug_assert_eq!(rank as u64, rank_placement(cells, n));
                                            let free = free & !(1 << to) | 1 << from;
                                            let lowest = geometry.lowest(free, usize::from(from));
                                            claim(rank, slot_shift(free, lowest));
                                        }
                                        cells[i] = from;
                                        let from = u32::from(from);
                                        before += (from - (seen & ((1 << from) - 1)).count_ones())
                                            as usize
                                            * weights[i];
                                        seen |= 1 << from;
                                    }
                                }
                                words[placement].set(now | now << 1);
                                if wall != 0 && walls {
                                    walled[placement].fetch_or(wall, Ordering::Relaxed);
                                }
                            }
                        }
                        for &(rank, shift) in &ahead[..pushed.min(LOOKAHEAD)] {
                            words[rank].claim(shift, u64::from(3 - code));
                        }
                        (states, newly)
                    })
                })
                .collect();
            workers
                .into_iter()
                .map(|worker| worker.join().expect("a search thread panicked"))
                .fold((0, 0), |(s, r), (states, newly)| (s + states, r + newly))
        });
        if stop.is_stopped() {
            return None;
        }
        if states == 0 {
            break;
        }
        reached += newly;
        progress(Step {
            part: "placements",
            done: reached,
            total: count as u64,
            depth: Some(depth),
        });
    }
    Some((
        entries.into_iter().map(AtomicU8::into_inner).collect(),
        walled.into_iter().map(AtomicU32::into_inner).collect(),
    ))
}

/// About how many bytes making the databases of `shape` needs for a group
/// of `k` tiles: a byte of entry and a word of two-bit slots a placement,
/// the word of 2 bytes when at most 8 cells are free, of 4 up to 16 and of
/// 8 beyond; for databases that know the blank's cell (`walls`), 4 bytes of
/// walled cells, and the 5 a placement each group keeps until all are
/// written, and the file's. Measured: 1.58 GB peak for the 7-8 databases of
/// 4x4, whose 8 tiles have 519 million placements; 6.5-7.5 GB for the
/// 6-6-6-6 of 5x5 with the blank's cell, 128 million a group.
pub fn build_memory(shape: Shape, k: usize, walls: bool) -> u64 {
    let n = shape.cells();
    let k = k.min(n);
    let walls = match walls {
        true => 4 + 5 * 2 * (n - 1).div_ceil(k) as u64,
        false => 0,
    };
    placements(n, k).saturating_mul(1 + word_bytes(n - k) as u64 + walls)
}

/// The bytes of a placement's [`Slots`] word with `free` cells: two bits a
/// free cell, so 16 bits hold 8 of them.
fn word_bytes(free: usize) -> usize {
    match free {
        ..=8 => 2,
        9..=16 => 4,
        _ => 8,
    }
}

/// Writes a file of pattern databases toward `goal`, each group's entries
/// stored as `codec` says (see [`crate::file`]): [`Codec::Raw8`], one byte
/// an entry, to be read in place, [`Codec::ZstdNibbles`], compact, or
/// [`Codec::Raw8Walls`], with the [walled](PatternDb::walled) cells of the
/// blank, to be read in place.
///
/// # Errors
///
/// Fails if `out` fails.
///
/// # Panics
///
/// Panics if a group's entries are not one per placement of its tiles, the
/// codec is not one of the three, (for nibbles) an entry is more than 30
/// over its Manhattan distance, or (for words) a database does not know the
/// blank's cell or has an entry over 126.
pub fn write(
    goal: &Board,
    dbs: &[PatternDb],
    codec: Codec,
    out: &mut impl std::io::Write,
) -> std::io::Result<()> {
    let shape = goal.shape();
    let stored: Vec<(Vec<u8>, u64)> = dbs
        .iter()
        .map(|db| match codec {
            Codec::Raw8 => (Vec::new(), db.entries.len() as u64),
            Codec::Raw8Walls => {
                let words = walls(db);
                let len = words.len() as u64;
                (words, len)
            }
            Codec::ZstdNibbles => {
                let nibbles = nibbles(goal, db);
                let len = nibbles.len() as u64;
                (file::compress(&nibbles, crate::bfs::SMALL_LEVEL), len)
            }
            _ => panic!("pattern databases are stored as bytes, nibbles or words"),
        })
        .collect();
    let sections: Vec<NewSection<'_>> = dbs
        .iter()
        .zip(&stored)
        .map(|(db, (stored, raw_len))| {
            let count = placements(shape.cells(), db.tiles.len());
            assert_eq!(db.entries.len() as u64, count, "one entry per placement");
            NewSection {
                goal: *goal,
                tiles: db.tiles.clone(),
                entries: count,
                max_depth: db
                    .entries
                    .iter()
                    .copied()
                    .filter(|&e| e != UNREACHED)
                    .max()
                    .unwrap_or(0)
                    .into(),
                raw_len: *raw_len,
                bytes: match codec {
                    Codec::Raw8 => &db.entries,
                    _ => stored,
                },
            }
        })
        .collect();
    file::write(out, shape, RankScheme::Placement, codec, &sections)
}

// A placement's walled cells are a bit a cell of a `u32`.
const _: () = assert!(crate::shape::MAX_CELLS <= 32);

/// A group's entries as [`Codec::Raw8Walls`] stores them: a byte each, the
/// entry (127 if never reached) and whether it walls the blank in, then
/// each one's [walled](PatternDb::walled) cells.
fn walls(db: &PatternDb) -> Vec<u8> {
    assert_eq!(
        db.walled.len(),
        db.entries.len(),
        "a database that knows the blank's cell"
    );
    let entries = db.entries.iter().zip(&db.walled).map(|(&entry, &walled)| {
        let entry = match entry {
            UNREACHED => 127,
            entry => {
                assert!(entry < 127, "an entry {entry} over 126");
                entry
            }
        };
        entry | u8::from(walled != 0) << 7
    });
    let walled = db.walled.iter().flat_map(|walled| walled.to_le_bytes());
    entries.chain(walled).collect()
}

/// A group's entries as nibbles: half of each entry over the Manhattan
/// distance of its tiles.
pub(super) fn nibbles(goal: &Board, db: &PatternDb) -> Vec<u8> {
    let shape = goal.shape();
    let n = shape.cells();
    let homes: Vec<usize> = db
        .tiles
        .iter()
        .map(|&t| goal.cells().iter().position(|&c| c == t).unwrap_or(0))
        .collect();
    let mut cells = vec![0u8; db.tiles.len()];
    let mut out = vec![0u8; db.entries.len().div_ceil(2)];
    for (rank, &entry) in db.entries.iter().enumerate() {
        unrank_placement(rank as u64, n, &mut cells);
        let manhattan: usize = cells
            .iter()
            .zip(&homes)
            .map(|(&c, &h)| shape.distance(usize::from(c), h))
            .sum();
        let delta = (usize::from(entry) - manhattan) / 2;
        assert!(
            delta < 16,
            "an entry {entry} too far over its Manhattan distance"
        );
        out[rank / 2] |= (delta as u8) << (4 * (rank % 2));
    }
    out
}
