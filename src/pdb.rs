//! Additive pattern databases, for boards too large for a table of every
//! board (the 15-puzzle has 10^13).
//!
//! The tiles are split into disjoint groups. A group's database holds, for
//! every placement of its tiles, the fewest moves *of those tiles* that bring
//! them home while the other tiles are ignored and the blank goes where it
//! likes (Korf and Felner, "Disjoint pattern database heuristics", 2002),
//! as long as it ends on the goal's blank cell. Since a move moves one tile,
//! of one group, the groups' values add up to a lower bound on the moves of
//! the whole board.
//!
//! Where the group's tiles wall the goal's blank cell in (tiles 1 to 7
//! around the corner of Korf's goal), a placement with the blank outside
//! needs moves of the group's tiles to let it back in, and the entries count
//! them. Korf's 100 with 7-8 databases: 17,261 nodes an instance, against
//! 57,748 with the blank allowed to end anywhere.
//!
//! # Entries
//!
//! A placement of a group's `k` tiles is the list of their cells, in the
//! order of the group's tiles: a `k`-permutation of the `n` cells. Its index
//! is its rank among all `n! / (n - k)!` of them in lexicographic order,
//! [`rank_placement`], and the entry is one byte.
//!
//! # Search
//!
//! The search runs backwards from the group at home, the blank on the goal's
//! blank cell, over states of the group and the blank. Moves of the blank
//! through cells that hold no group tile cost nothing, so a state keeps only
//! the region of such cells the blank is in, named by its lowest cell: every
//! move left in the search moves a group tile into the blank's region and
//! costs one, and a plain breadth-first search finds the fewest. The first
//! time a placement is met, with the blank in any region, gives its entry.
//!
//! # The blank's cell
//!
//! Databases made with `eight-gen --walls` (5x5) know the blank's cell too
//! (Clausecker and Reinefeld's zero-aware databases, 2021): the blank
//! walled by a group's tiles into a region of the cells they leave free may
//! need more moves of them than the blank in the best region, and the
//! search above finds each region's fewest. Each placement keeps, beside
//! its entry, a bit for each cell of the blank whose region needs more:
//! two more at least, since every move of a group's tile changes the
//! tiles' Manhattan distance by one, so that every way home from a
//! placement has the same parity. A move of a tile of another group moves
//! the blank within its region and changes nothing; the sum over groups,
//! with two for each group that walls the blank in, is a lower bound still.
//! Korf and Taylor's second instance of the 24-puzzle takes 2.2 * 10^8
//! nodes over 6-6-6-6 with the walls, 6.7 * 10^8 without.
//!
//! The search keeps no lists of states. Each placement has a word of two bits
//! per free cell, telling for the region that cell names whether it was never
//! reached, reached at this depth or the next, or expanded; each depth is one
//! pass over every placement on every core. Memory is three or five bytes a
//! placement, [`build_memory`].

use crate::mem::prefetch;

pub use crate::answer::PdbError;
use crate::board::Board;
use crate::file::{self, Codec, Decoded, FileError, HeaderError, Kind, RawFile};
use crate::rank::{placements, rank_placement, unrank_placement};

mod build;

pub use crate::pdb::build::{PatternDb, UNREACHED, build_memory, write};

/// Entries sampled per group when databases are opened: enough to refuse
/// databases of zeros or of 255s, few because each sample of a mapped file
/// maps the file's whole page-cache folio (up to 2 MB on Linux 6.18, where
/// 64 samples made a trivial 4x4 board 193 MB resident with 7-8; 8 make it
/// 40 MB). The full checksum is `eight-gen --check` and `eight --verify`.
const SAMPLES: u64 = 8;

/// A group's entries as a search reads them.
#[derive(Clone, Copy, Debug)]
pub enum Values<'a> {
    /// One byte an entry: the entry itself.
    Bytes(&'a [u8]),
    /// 4 bits an entry: half the entry over the Manhattan distance of the
    /// group's tiles.
    Nibbles(&'a [u8]),
    /// A byte an entry, the entry in its low 7 bits and in its high bit
    /// whether the placement walls the blank in; then 4 bytes an entry,
    /// little-endian, a bit for each cell of the blank that costs two
    /// moves more ([`Codec::Raw8Walls`]).
    Walls(&'a [u8]),
}

impl<'a> Values<'a> {
    /// The entry of placement `rank`, whose tiles have the Manhattan
    /// distance `manhattan` from home.
    #[inline(always)]
    pub fn get(self, rank: usize, manhattan: u32) -> u32 {
        match self {
            Values::Bytes(bytes) => u32::from(bytes[rank]),
            Values::Nibbles(nibbles) => {
                manhattan + 2 * u32::from((nibbles[rank / 2] >> (4 * (rank % 2))) & 15)
            }
            Values::Walls(bytes) => match u32::from(bytes[rank]) & 127 {
                127 => u32::from(UNREACHED),
                entry => entry,
            },
        }
    }

    /// The entry of placement `rank` of [`Values::Walls`] (127 if never
    /// reached) and its cells of the blank walled in, a bit each.
    #[inline(always)]
    pub fn walls(self, rank: usize) -> (u32, u32) {
        let bytes = self.raw();
        let byte = bytes[rank];
        // Read whether or not the entry says it walls anything in: a
        // branch a search cannot foresee costs more than the read, which
        // was asked for with the entry's.
        let at = bytes.len() / 5 + 4 * rank;
        let walled = u32::from_le_bytes(bytes[at..at + 4].try_into().expect("four bytes"));
        (
            u32::from(byte & 127),
            walled & 0u32.wrapping_sub(u32::from(byte >> 7)),
        )
    }

    /// Asks for the entry of placement `rank` to be fetched into the cache
    /// ahead of [`Values::get`].
    #[inline(always)]
    pub fn prefetch(self, rank: usize) {
        match self {
            Values::Bytes(bytes) => prefetch(bytes, rank),
            Values::Nibbles(nibbles) => prefetch(nibbles, rank / 2),
            Values::Walls(bytes) => {
                prefetch(bytes, rank);
                prefetch(bytes, bytes.len() / 5 + 4 * rank);
            }
        }
    }

    /// The bytes the entries are stored in: for [`Values::Bytes`], the
    /// entries themselves.
    #[inline(always)]
    pub(crate) fn raw(self) -> &'a [u8] {
        match self {
            Values::Bytes(bytes) | Values::Nibbles(bytes) | Values::Walls(bytes) => bytes,
        }
    }

    /// The bytes the entries take.
    pub fn bytes(self) -> usize {
        self.raw().len()
    }
}

/// Pattern databases read from any bytes: a `Vec<u8>`, a
/// [memory map](crate::map), or databases built into the program. Bytes are
/// read in place; nibbles are decoded into memory when opened.
pub struct PdbTable<D> {
    file: RawFile<D>,
    goal: Board,
    /// The decoded entries of each group stored as nibbles.
    decoded: Vec<Option<Decoded>>,
}

/// The goal of a file of pattern databases of either metric, every
/// section's header checked against it: the first section's goal in every
/// section, tiles that `group` accepts (told each section's in order, so
/// that it may check them against the groups before), and as many entries
/// as placements of them, stored as `stored(section, entries)` says.
pub(crate) fn read_groups<D: AsRef<[u8]>>(
    file: &RawFile<D>,
    mut group: impl FnMut(&[u8]) -> bool,
    stored: impl Fn(&file::Section, u64) -> bool,
) -> Result<Board, FileError> {
    let sections = &file.header().sections;
    let goal = Board::from_cells(file.shape(), &sections[0].goal)
        .map_err(|_| HeaderError::Goal { section: 0 })?;
    for (index, section) in sections.iter().enumerate() {
        if section.goal != goal.cells() {
            return Err(HeaderError::Goal { section: index }.into());
        }
        if !group(&section.tiles) {
            let tiles = section.tiles.clone();
            return Err(HeaderError::Groups {
                section: index,
                tiles,
            }
            .into());
        }
        let entries = placements(goal.shape().cells(), section.tiles.len());
        if section.entries != entries || !stored(section, entries) {
            return Err(HeaderError::Entries {
                section: index,
                expected: entries,
                got: section.entries,
                len: section.len,
            }
            .into());
        }
    }
    Ok(goal)
}

impl<D: AsRef<[u8]>> PdbTable<D> {
    /// Reads pattern databases from `data` and checks them without reading
    /// them all: the header (every group's size against its tiles before
    /// anything else is read), each group's entry at home (zero), and a
    /// sample of entries spread over each group (each at least the
    /// Manhattan distance of its tiles, a bound every true entry meets).
    /// Groups stored as nibbles are decoded, after their checksum is
    /// checked. [`PdbTable::verify`] checks every checksum.
    ///
    /// # Errors
    ///
    /// Fails with the first thing wrong.
    pub fn new(data: D) -> Result<PdbTable<D>, PdbError> {
        let file = RawFile::of_kind(data, Kind::PatternDbs)?;
        let (n, codec) = (file.shape().cells(), file.header().codec);
        let nibbles = codec == Codec::ZstdNibbles;
        // Every tile but the blank in one group: the groups seen so far.
        let mut grouped = 0u32;
        let goal = read_groups(
            &file,
            |tiles| {
                !tiles.is_empty()
                    && tiles.len() < n
                    && tiles.iter().all(|&tile| {
                        let new = tile != 0 && usize::from(tile) < n && grouped & (1 << tile) == 0;
                        if new {
                            grouped |= 1 << tile;
                        }
                        new
                    })
            },
            |section, entries| match codec {
                Codec::ZstdNibbles => section.raw_len == entries.div_ceil(2),
                Codec::Raw8Walls => section.raw_len == 5 * entries && section.len == 5 * entries,
                _ => section.raw_len == entries && section.len == entries,
            },
        )?;
        let header = file.header();
        if grouped != ((1u32 << n) - 1) & !1 {
            let last = header.sections.len() - 1;
            return Err(PdbError::File(FileError::Header(HeaderError::Groups {
                section: last,
                tiles: header.sections[last].tiles.clone(),
            })));
        }
        let decoded = (0..header.sections.len())
            .map(|index| nibbles.then(|| file.decompress(index)).transpose())
            .collect::<Result<_, _>>()?;
        let table = PdbTable {
            file,
            goal,
            decoded,
        };
        table.sample()?;
        Ok(table)
    }

    /// Checks each group's entry at home and a spread of its other entries.
    fn sample(&self) -> Result<(), PdbError> {
        let shape = self.goal.shape();
        let n = shape.cells();
        let home = |tile: u8| {
            self.goal
                .cells()
                .iter()
                .position(|&t| t == tile)
                .unwrap_or(0)
        };
        for group in 0..self.file.header().sections.len() {
            let tiles = self.tiles(group);
            let values = self.values(group);
            let homes: Vec<u8> = tiles.iter().map(|&t| home(t) as u8).collect();
            let got = values.get(rank_placement(&homes, n) as usize, 0);
            if got != 0 {
                return Err(PdbError::Home {
                    group,
                    got: got.min(255) as u8,
                });
            }
            let count = self.file.header().sections[group].entries;
            let mut cells = vec![0u8; tiles.len()];
            for i in 0..SAMPLES.min(count) {
                let rank = i * count / SAMPLES.min(count);
                unrank_placement(rank, n, &mut cells);
                let least: u32 = cells
                    .iter()
                    .zip(&homes)
                    .map(|(&cell, &home)| {
                        shape.distance(usize::from(cell), usize::from(home)) as u32
                    })
                    .sum();
                let got = values.get(rank as usize, least);
                if got < least || got >= u32::from(UNREACHED) {
                    return Err(PdbError::Entry {
                        group,
                        cells: cells.clone(),
                        got: got.min(255) as u8,
                        least,
                    });
                }
            }
        }
        Ok(())
    }

    /// Checks the checksum of every database.
    ///
    /// # Errors
    ///
    /// Fails with the first damaged one.
    pub fn verify(&self) -> Result<(), PdbError> {
        Ok(self.file.verify()?)
    }

    /// Proves the databases right: every checksum, then every entry of
    /// every group against the group's search made anew
    /// ([`PatternDb::generate`]), so that the search over them never
    /// overestimates and finds the shortest answers. Tells `progress` the
    /// placements searched so far and in all, after each depth of each
    /// group. It costs what making them costs: time, and the memory of
    /// [`build_memory`] for the largest group.
    ///
    /// # Errors
    ///
    /// Fails with the first damaged group or wrong entry.
    pub fn prove(&self, mut progress: impl FnMut(u64, u64)) -> Result<(), PdbError> {
        self.verify()?;
        let n = self.goal.shape().cells();
        let counts: Vec<u64> = (0..self.len())
            .map(|group| placements(n, self.tiles(group).len()))
            .collect();
        let all: u64 = counts.iter().sum();
        let mut before = 0;
        for (group, &count) in counts.iter().enumerate() {
            let tiles = self.tiles(group);
            let walls = matches!(self.values(group), Values::Walls(_));
            let made = PatternDb::generate_until(
                &self.goal,
                tiles,
                walls,
                |step| progress(before + step.done, all),
                &crate::stop::Stop::new(),
            )
            .expect("a making with no stop ends");
            let stored = match self.values(group) {
                Values::Bytes(bytes) => std::borrow::Cow::Borrowed(bytes),
                _ => std::borrow::Cow::Owned(self.database(group).entries),
            };
            let cells_of = |rank: usize| {
                let mut cells = vec![0u8; tiles.len()];
                unrank_placement(rank as u64, n, &mut cells);
                cells
            };
            if let Some(rank) = stored
                .iter()
                .zip(made.entries())
                .position(|(got, want)| got != want)
            {
                return Err(PdbError::NotAsSearched {
                    group,
                    cells: cells_of(rank),
                    got: u32::from(stored[rank]),
                    expected: made.entries()[rank],
                });
            }
            if walls {
                let stored = self.database(group).walled;
                if let Some(rank) = stored
                    .iter()
                    .zip(made.walled())
                    .position(|(got, want)| got != want)
                {
                    return Err(PdbError::WalledNotAsSearched {
                        group,
                        cells: cells_of(rank),
                        got: stored[rank],
                        expected: made.walled()[rank],
                    });
                }
            }
            let largest = made
                .entries()
                .iter()
                .copied()
                .filter(|&entry| entry != UNREACHED)
                .max()
                .map_or(0, u32::from);
            let said = self.file.header().sections[group].max_depth;
            if said != largest {
                return Err(PdbError::MaxDepth {
                    group,
                    got: said,
                    expected: largest,
                });
            }
            before += count;
            progress(before, all);
        }
        Ok(())
    }

    /// The goal the databases lead to.
    pub fn goal(&self) -> &Board {
        &self.goal
    }

    /// The raw file under the databases.
    pub fn file(&self) -> &RawFile<D> {
        &self.file
    }

    /// The number of groups.
    pub fn len(&self) -> usize {
        self.decoded.len()
    }

    /// The tiles of group `index`.
    ///
    /// # Panics
    ///
    /// Panics if there is no such group.
    pub fn tiles(&self, index: usize) -> &[u8] {
        &self.file.header().sections[index].tiles
    }

    /// The entries of group `index`.
    ///
    /// # Panics
    ///
    /// Panics if there is no such group.
    #[inline]
    pub fn values(&self, index: usize) -> Values<'_> {
        match &self.decoded[index] {
            Some(nibbles) => Values::Nibbles(nibbles),
            None if self.file.header().codec == Codec::Raw8Walls => {
                Values::Walls(self.file.section_bytes(index))
            }
            None => Values::Bytes(self.file.section_bytes(index)),
        }
    }

    #[cfg(test)]
    /// Each group's entries, one byte each: the databases as
    /// [`PatternDb`]s again, whichever way they are stored.
    pub fn databases(&self) -> Vec<PatternDb> {
        (0..self.len()).map(|group| self.database(group)).collect()
    }

    /// Group `group`'s entries as a [`PatternDb`], with the walled cells of
    /// databases that know the blank's.
    fn database(&self, group: usize) -> PatternDb {
        let n = self.goal.shape().cells();
        let tiles = self.tiles(group);
        let values = self.values(group);
        let homes: Vec<usize> = tiles
            .iter()
            .map(|&t| self.goal.cells().iter().position(|&c| c == t).unwrap_or(0))
            .collect();
        let mut cells = vec![0u8; tiles.len()];
        let count = placements(n, tiles.len());
        let entries = (0..count)
            .map(|rank| {
                unrank_placement(rank, n, &mut cells);
                let manhattan = cells
                    .iter()
                    .zip(&homes)
                    .map(|(&c, &h)| self.goal.shape().distance(usize::from(c), h) as u32)
                    .sum();
                values.get(rank as usize, manhattan).min(255) as u8
            })
            .collect();
        let walled = match values {
            Values::Walls(_) => (0..count as usize)
                .map(|rank| values.walls(rank).1)
                .collect(),
            _ => Vec::new(),
        };
        PatternDb::from_words(&self.goal, tiles, entries, walled)
    }
}

impl<D> std::fmt::Debug for PdbTable<D> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PdbTable")
            .field("goal", &self.goal)
            .field("file", &self.file)
            .finish_non_exhaustive()
    }
}

/// Splits the tiles of `goal` into groups of `sizes` tiles, each of
/// neighbours that seldom leave its part of the board.
///
/// The tiles are taken across the board's longer side: column by column on
/// a board wider than tall, row by row otherwise. `7-8` toward Korf's goal
/// puts tiles 1 to 7 in the first group; `6-7` on 2x7, toward the goal with
/// the blank first, the first three columns. Groups of whole rows of a board
/// two rows high would hold tiles that change rows all the time: 10 random
/// 2x7 boards took 1,506,909 nodes each with them, 6,538 with columns (3x5,
/// 7-7: 81,100 and 18,163).
///
/// 6-6-6-6 on 5x5 is Korf and Felner's pinwheel instead: four blocks of 2
/// by 3 cells turning around the middle cell. Toward `x 1 2 ... 24`, Korf
/// and Taylor's instance 2 takes 6.7 * 10^8 nodes over it, 9.7 * 10^8 over
/// the board halved into blocks and the halves again, 2.2 * 10^9 over rows.
/// Halved blocks measured worse than columns on 4x5: 20 random boards took
/// 4.6 min over columns, 19 of them 9.5 min over blocks.
///
/// # Errors
///
/// Fails unless the sizes are at least one each and add up to the tiles,
/// and each group's placements fit in a file
/// ([`MAX_SECTION_ENTRIES`](file::MAX_SECTION_ENTRIES)).
pub fn partition(goal: &Board, sizes: &[usize]) -> Result<Vec<Vec<u8>>, PartitionError> {
    let shape = goal.shape();
    let (rows, cols) = (shape.rows(), shape.cols());
    let cells: Vec<usize> = match cols > rows {
        true => (0..cols)
            .flat_map(|col| (0..rows).map(move |row| row * cols + col))
            .collect::<Vec<_>>(),
        false => (0..rows * cols).collect(),
    }
    .into_iter()
    .filter(|&cell| goal.cells()[cell] != 0)
    .collect();
    let cells = match shape.small() {
        true => None,
        false => pinwheel(goal, sizes),
    }
    .unwrap_or(cells);
    let tiles: Vec<u8> = cells.into_iter().map(|cell| goal.cells()[cell]).collect();
    if sizes.contains(&0) || sizes.iter().sum::<usize>() != tiles.len() {
        return Err(PartitionError::Sum {
            sizes: sizes.to_vec(),
            tiles: tiles.len(),
        });
    }
    let n = goal.shape().cells();
    if let Some(&size) = sizes
        .iter()
        .find(|&&k| placements(n, k) > file::MAX_SECTION_ENTRIES)
    {
        return Err(PartitionError::TooLarge {
            size,
            placements: placements(n, size),
            most: (1..n)
                .take_while(|&k| placements(n, k) <= file::MAX_SECTION_ENTRIES)
                .last()
                .unwrap_or(0),
        });
    }
    let mut rest = &tiles[..];
    Ok(sizes
        .iter()
        .map(|&size| {
            let (group, tail) = rest.split_at(size);
            rest = tail;
            group.to_vec()
        })
        .collect())
}

/// The cells of Korf and Felner's pinwheel, in order of its groups, when
/// `sizes` are four groups of `m (m + 1)` tiles on a square board of odd
/// side `2m + 1`: four blocks of `m` by `m + 1` cells turning around the
/// middle cell, which joins the block that holds the goal's blank (6-6-6-6
/// on 5x5).
fn pinwheel(goal: &Board, sizes: &[usize]) -> Option<Vec<usize>> {
    let shape = goal.shape();
    let side = shape.rows();
    let m = side / 2;
    let fits = side == shape.cols() && side % 2 == 1 && sizes == [m * (m + 1); 4];
    if !fits {
        return None;
    }
    let blocks = [
        (0..m, 0..m + 1),
        (0..m + 1, m + 1..side),
        (m + 1..side, m..side),
        (m..side, 0..m),
    ];
    let mut order = Vec::new();
    for (rows, cols) in blocks {
        let block = rows.flat_map(|row| cols.clone().map(move |col| row * side + col));
        let start = order.len();
        order.extend(block.filter(|&cell| cell != goal.blank()));
        // A block one cell short lost it to the blank: the middle cell
        // makes it up.
        if order.len() == start + m * (m + 1) - 1 {
            order.push(m * side + m);
        }
    }
    Some(order)
}

/// Why a partition was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PartitionError {
    /// Not written as sizes joined by `-`.
    #[error("{0:?} is not a partition: write the group sizes joined by '-', such as 7-8")]
    Syntax(String),
    /// Sizes that do not add up to the tiles.
    #[error("the group sizes {sizes:?} do not add up to the {tiles} tiles of the board")]
    Sum {
        /// The sizes.
        sizes: Vec<usize>,
        /// The tiles.
        tiles: usize,
    },
    /// A group with more placements than a file holds.
    #[error(
        "a group of {size} tiles has {placements} placements, more than a database file holds: \
         use groups of at most {most} tiles"
    )]
    TooLarge {
        /// The group's size.
        size: usize,
        /// Its placements.
        placements: u64,
        /// The largest group a file holds on this board.
        most: usize,
    },
}

/// Reads group sizes written as `7-8` or `5-5-5`.
///
/// # Errors
///
/// Fails if a size is not a number.
pub fn parse_sizes(text: &str) -> Result<Vec<usize>, PartitionError> {
    text.split('-')
        .map(|size| size.trim().parse::<usize>())
        .collect::<Result<_, _>>()
        .map_err(|_| PartitionError::Syntax(text.to_string()))
}
