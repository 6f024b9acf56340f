//! Pattern databases of the multi-tile metric: for a group of tiles, the
//! fewest MTM moves that bring them and the blank home, from every
//! placement of them.
//!
//! A database forgets every tile but its group's, and keeps the blank's
//! cell: a jump of the blank is a jump in the forgotten board too, moving
//! the group's tiles it passes, and costs one move there as on the board.
//! So its count is at most the board's (it is admissible), and so is the
//! largest of several databases' counts. They do not add up, as the
//! single-tile metric's do: one MTM move can carry tiles of three groups.

use std::io::{self, Write};
use std::sync::Arc;

use crate::bfs::{Rule, scan_until};
use crate::board::Board;
use crate::file::{self, Codec, FileError, Kind, NewSection, RankScheme, RawFile};
use crate::pdb::PdbError;
use crate::progress::Step;
use crate::rank::{placements, rank_placement, unrank_placement};
use crate::shape::{MAX_CELLS, Move, Shape};

/// One database: the count of every placement of the blank and a group's
/// tiles, by the placement's rank.
#[derive(Clone, Debug)]
pub(crate) struct MtmPdb {
    /// The blank, then the group's tiles.
    tiles: Vec<u8>,
    counts: Counts,
}

/// Bytes shared by the databases read from one file, read in place.
pub(crate) type Shared = Arc<dyn AsRef<[u8]> + Send + Sync>;

/// A database's counts: made in memory, or read in place from a file's
/// bytes (a map of the file costs only the pages the searches touch).
#[derive(Clone)]
enum Counts {
    Made(Vec<u8>),
    Read {
        bytes: Shared,
        start: usize,
        len: usize,
    },
}

impl Counts {
    #[inline(always)]
    fn bytes(&self) -> &[u8] {
        match self {
            Counts::Made(counts) => counts,
            Counts::Read { bytes, start, len } => &(**bytes).as_ref()[*start..*start + *len],
        }
    }
}

impl std::fmt::Debug for Counts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let how = match self {
            Counts::Made(_) => "made",
            Counts::Read { .. } => "read",
        };
        write!(f, "{} counts {how}", self.bytes().len())
    }
}

impl MtmPdb {
    /// The database of `tiles` (not the blank) toward `goal`, by a
    /// breadth-first search from the goal's placement, on every core.
    pub(crate) fn build(goal: &Board, tiles: &[u8]) -> MtmPdb {
        MtmPdb::build_until(goal, tiles, &crate::stop::Stop::new())
            .expect("a build with no stop ends")
    }

    /// [`MtmPdb::build`], or `None` once `stop` is asked for.
    pub(crate) fn build_until(
        goal: &Board,
        tiles: &[u8],
        stop: &crate::stop::Stop,
    ) -> Option<MtmPdb> {
        let shape = goal.shape();
        let n = shape.cells();
        let items: Vec<u8> = std::iter::once(0).chain(tiles.iter().copied()).collect();
        let home: Vec<u8> = items
            .iter()
            .map(|&t| {
                goal.cells()
                    .iter()
                    .position(|&c| c == t)
                    .expect("every tile") as u8
            })
            .collect();
        let rule = Placements {
            shape,
            neighbors: shape.neighbor_table(),
            items: items.len(),
        };
        let start = rank_placement(&home, n);
        let len = placements(n, items.len());
        let counts = scan_until(&rule, len, start, |_| {}, stop)?.bytes;
        Some(MtmPdb {
            tiles: items,
            counts: Counts::Made(counts),
        })
    }

    /// The group's tiles, the blank first.
    pub(crate) fn tiles(&self) -> &[u8] {
        &self.tiles
    }

    /// The count of the board whose tile `t` stands on cell `cell_of[t]`.
    #[inline(always)]
    pub(crate) fn count(&self, cell_of: &[u8; MAX_CELLS], n: usize) -> u32 {
        let mut at = [0u8; MAX_CELLS];
        for (slot, &tile) in at.iter_mut().zip(&self.tiles) {
            *slot = cell_of[usize::from(tile)];
        }
        u32::from(self.counts.bytes()[rank_placement(&at[..self.tiles.len()], n) as usize])
    }
}

/// Builds the databases of the multi-tile metric toward `goal` (a
/// canonical goal) of groups of `sizes` (the tiles in order) and writes
/// them in the one file format; `progress` hears of each database done.
/// The bytes depend only on the goal and the sizes;
/// `None` once `stop` is asked for.
///
/// # Panics
///
/// Panics if the sizes do not add up to the goal's tiles.
pub(crate) fn generate_databases_until(
    goal: &Board,
    sizes: &[usize],
    mut progress: impl FnMut(Step<'_>),
    stop: &crate::stop::Stop,
) -> Option<Vec<u8>> {
    let tiles: Vec<u8> = (1..goal.shape().cells() as u8).collect();
    assert_eq!(
        sizes.iter().sum::<usize>(),
        tiles.len(),
        "groups of every tile"
    );
    let mut first = 0;
    let dbs: Vec<MtmPdb> = sizes
        .iter()
        .enumerate()
        .map(|(index, &size)| {
            let db = MtmPdb::build_until(goal, &tiles[first..first + size], stop)?;
            first += size;
            progress(Step {
                part: "databases",
                done: index as u64 + 1,
                total: sizes.len() as u64,
                depth: None,
            });
            Some(db)
        })
        .collect::<Option<_>>()?;
    let mut out = Vec::new();
    write(goal, &dbs, &mut out).expect("writing into memory cannot fail");
    Some(out)
}

/// Writes the databases `dbs` toward `goal` in the one file format (see
/// [`crate::file`]): one section a database, its entries raw.
///
/// # Errors
///
/// Fails if `out` fails.
pub(crate) fn write(goal: &Board, dbs: &[MtmPdb], out: &mut impl Write) -> io::Result<()> {
    let sections: Vec<NewSection<'_>> = dbs
        .iter()
        .map(|db| {
            let counts = db.counts.bytes();
            NewSection {
                goal: *goal,
                tiles: db.tiles.clone(),
                entries: counts.len() as u64,
                max_depth: u32::from(counts.iter().copied().max().unwrap_or(0)),
                raw_len: counts.len() as u64,
                bytes: counts,
            }
        })
        .collect();
    file::write(
        out,
        goal.shape(),
        RankScheme::BlankPlacement,
        Codec::Raw8,
        &sections,
    )
}

/// Reads the databases of a file (see [`write`]) toward its goal, in
/// place: checks the header, every group (the blank first, no tile twice),
/// every section's length and each database's count at home (zero), but
/// not the checksums nor the counts, which [`prove`] checks.
///
/// # Errors
///
/// Fails with the first thing wrong.
pub(crate) fn read(data: Shared) -> Result<(Board, Vec<MtmPdb>), FileError> {
    let all = (*data).as_ref();
    let file = RawFile::of_kind(all, Kind::JumpDbs)?;
    let n = file.shape().cells();
    // Each group holds the blank first, then tiles on the board, once each.
    let group = |tiles: &[u8]| {
        let distinct = (0..tiles.len()).all(|i| !tiles[..i].contains(&tiles[i]));
        let fits = tiles.len() <= n && tiles.iter().all(|&t| usize::from(t) < n);
        tiles.len() >= 2 && tiles[0] == 0 && distinct && fits
    };
    let stored =
        |section: &file::Section, entries| section.raw_len == entries && section.len == entries;
    let goal = crate::pdb::read_groups(&file, group, stored)?;
    // The goal's cell of each tile, where every count is 0.
    let mut home = [0u8; MAX_CELLS];
    for (cell, &tile) in goal.cells().iter().enumerate() {
        home[usize::from(tile)] = cell as u8;
    }
    let mut dbs = Vec::new();
    for (index, section) in file.header().sections.iter().enumerate() {
        let bytes = file.section_bytes(index);
        let db = MtmPdb {
            tiles: section.tiles.clone(),
            counts: Counts::Read {
                bytes: Arc::clone(&data),
                start: bytes.as_ptr() as usize - all.as_ptr() as usize,
                len: bytes.len(),
            },
        };
        if db.count(&home, n) != 0 {
            return Err(FileError::Decode {
                part: file::Part::Section(index),
                reason: "the goal's count is not 0".to_string(),
            });
        }
        dbs.push(db);
    }
    Ok((goal, dbs))
}

/// Proves databases read from a file right: the file's checksums, then
/// each database its search made anew, entry for entry. `progress` hears
/// of each database done.
///
/// # Errors
///
/// The first section whose checksum fails, or the first entry found wrong.
pub(crate) fn prove(
    goal: &Board,
    dbs: &[MtmPdb],
    mut progress: impl FnMut(u64, u64),
) -> Result<(), PdbError> {
    if let Some(Counts::Read { bytes, .. }) = dbs.first().map(|db| &db.counts) {
        RawFile::of_kind((**bytes).as_ref(), Kind::JumpDbs)?.verify()?;
    }
    for (group, db) in dbs.iter().enumerate() {
        let made = MtmPdb::build(goal, &db.tiles[1..]);
        let (counts, made) = (db.counts.bytes(), made.counts.bytes());
        if let Some(entry) = (0..counts.len()).find(|&e| counts[e] != made[e]) {
            let mut cells = vec![0u8; db.tiles.len()];
            unrank_placement(entry as u64, goal.shape().cells(), &mut cells);
            return Err(PdbError::NotAsSearched {
                group,
                cells,
                got: u32::from(counts[entry]),
                expected: made[entry],
            });
        }
        progress(group as u64 + 1, dbs.len() as u64);
    }
    Ok(())
}

/// The jumps of the blank on placements of the blank and a group's
/// tiles, by their ranks: the moves of a database's search, which keeps
/// each placement's whole count.
struct Placements {
    shape: Shape,
    neighbors: [[Option<u8>; 4]; MAX_CELLS],
    /// The blank and the group's tiles.
    items: usize,
}

impl Rule for Placements {
    type Node = u64;

    const WHOLE_DEPTH: bool = true;

    fn entry(&self, rank: u64) -> u64 {
        rank
    }

    fn neighbors(&self, rank: u64, mut each: impl FnMut(u8, u64)) {
        let n = self.shape.cells();
        let mut at = [0u8; MAX_CELLS];
        unrank_placement(rank, n, &mut at[..self.items]);
        jumps(self.shape, &self.neighbors, &at[..self.items], |next| {
            each(0, rank_placement(next, n))
        });
    }
}

/// Hands `found` the placement (the blank's cell first) after every jump of
/// the blank from the placement `at`: the group's tiles it passes each move
/// one cell back.
fn jumps(
    shape: Shape,
    neighbors: &[[Option<u8>; 4]; MAX_CELLS],
    at: &[u8],
    mut found: impl FnMut(&[u8]),
) {
    let mut item_at = [u8::MAX; MAX_CELLS];
    for (item, &cell) in at.iter().enumerate().skip(1) {
        item_at[usize::from(cell)] = item as u8;
    }
    debug_assert!(at.len() <= shape.cells());
    for mv in Move::ALL {
        let mut next = [0u8; MAX_CELLS];
        next[..at.len()].copy_from_slice(at);
        let mut blank = usize::from(at[0]);
        while let Some(target) = neighbors[blank][usize::from(mv.code())] {
            let target = usize::from(target);
            if let Some(slot) = next.get_mut(usize::from(item_at[target])) {
                *slot = blank as u8;
            }
            next[0] = target as u8;
            blank = target;
            found(&next[..at.len()]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mtm::Jumps;
    use crate::mtm::bfs::distances;

    /// The search that passes over every entry at each depth finds what
    /// the search that keeps a list of each layer finds.
    #[test]
    fn a_scanned_search_finds_what_a_listed_one_does() {
        for (shape, blank, group) in [("3x3", 8, &[1u8, 2, 3][..]), ("2x4", 0, &[4, 5, 6, 7])] {
            let shape: Shape = shape.parse().unwrap();
            let goal = Board::canonical(shape, blank);
            let db = MtmPdb::build(&goal, group);
            let n = shape.cells();
            let rule = Placements {
                shape,
                neighbors: shape.neighbor_table(),
                items: db.tiles.len(),
            };
            let mut home = vec![goal.blank() as u8];
            home.extend(
                group
                    .iter()
                    .map(|&t| goal.cells().iter().position(|&c| c == t).unwrap() as u8),
            );
            let start = rank_placement(&home, n);
            let len = placements(n, db.tiles.len());
            let stop = crate::stop::Stop::new();
            let listed = crate::bfs::layers_until(&rule, len, start, |_| {}, &stop).unwrap();
            assert_eq!(listed.bytes, db.counts.bytes());
            let histogram = listed.bytes.iter().fold(vec![0u64; 32], |mut h, &d| {
                h[usize::from(d)] += 1;
                h
            });
            assert_eq!(&histogram[..listed.histogram.len()], &listed.histogram[..]);
            assert!(listed.bytes.iter().all(|&d| d != crate::bfs::UNSEEN));
        }
    }

    /// A database of every tile is the board's own count: the table's.
    #[test]
    fn a_database_of_every_tile_counts_as_the_table() {
        for (shape, blank) in [("2x3", 5), ("3x3", 8), ("3x3", 4)] {
            let shape: Shape = shape.parse().unwrap();
            let goal = Board::canonical(shape, blank);
            let jumps = Jumps::new(shape);
            let distance = distances(&goal);
            let tiles: Vec<u8> = (1..shape.cells() as u8).collect();
            let every = MtmPdb::build(&goal, &tiles);
            let some = MtmPdb::build(&goal, &tiles[..3]);
            for entry in (0..distance.len() as u64).step_by(7) {
                let (cells, _, _) = jumps.board_of(entry, &goal);
                let mut cell_of = [0u8; MAX_CELLS];
                for (cell, &tile) in cells[..shape.cells()].iter().enumerate() {
                    cell_of[usize::from(tile)] = cell as u8;
                }
                let d = u32::from(distance[entry as usize]);
                assert_eq!(every.count(&cell_of, shape.cells()), d);
                assert!(some.count(&cell_of, shape.cells()) <= d);
            }
        }
    }
}
