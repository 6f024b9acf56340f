//! The walking distance of the multi-tile metric along one axis: the
//! fewest moves between two boards that know only how many tiles of each
//! goal line stand in each line, and the blank's line (see the heuristic
//! in [`super`]).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::shape::MAX_CELLS;

/// A hasher for keys that are already well spread: walking-distance counts.
#[derive(Default)]
struct Spread(u64);

impl Hasher for Spread {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.write_u64(u64::from(byte));
        }
    }

    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }

    fn write_u128(&mut self, word: u128) {
        self.write_u64(word as u64);
        self.write_u64((word >> 64) as u64);
    }
}

/// The most lines of an axis: 2x12's twelve columns.
const MAX_LINES: usize = MAX_CELLS / 2;

/// How many tiles of each goal line stand in each line.
pub(super) type Counts = [[u8; MAX_LINES]; MAX_LINES];

/// The walking distance along one axis: `lines` lines (rows, or columns)
/// of `len` cells each.
pub(super) struct Walking {
    lines: usize,
    /// Bits of one count.
    bits: u32,
    distance: HashMap<u128, u8, BuildHasherDefault<Spread>>,
    /// Whether the distances were counted: not along an axis of more than
    /// [`MOST_LINES`] lines, whose counts are too many to search quickly
    /// (0.7 s for 3x5's five columns, minutes for 2x7's seven); its bound
    /// is then 0, and the pattern databases bound alone.
    counted: bool,
}

/// The most lines of an axis whose walking distances are counted.
const MOST_LINES: usize = 4;

impl Walking {
    /// The distances of every count reachable from the goal's, whose blank
    /// is on line `blank`.
    pub(super) fn new(lines: usize, len: usize, blank: usize) -> Walking {
        let mut walking = Walking {
            lines,
            bits: usize::BITS - len.leading_zeros(),
            distance: HashMap::default(),
            counted: lines <= MOST_LINES,
        };
        if !walking.counted {
            return walking;
        }
        let mut goal: Counts = [[0; MAX_LINES]; MAX_LINES];
        for (line, counts) in goal.iter_mut().enumerate().take(lines) {
            counts[line] = (len - usize::from(line == blank)) as u8;
        }
        let mut distance = HashMap::default();
        distance.insert(walking.key(&goal, blank), 0);
        let mut layer = vec![(goal, blank)];
        let mut depth = 0u8;
        while !layer.is_empty() {
            depth += 1;
            let mut next = Vec::new();
            for (counts, blank) in layer {
                for way in [1isize, -1] {
                    let mut counts = counts;
                    walking.jumps(&mut counts, blank, way, &mut |counts, blank| {
                        distance
                            .entry(walking.key(counts, blank))
                            .or_insert_with(|| {
                                next.push((*counts, blank));
                                depth
                            });
                    });
                }
            }
            layer = next;
        }
        walking.distance = distance;
        walking
    }

    /// Hands `found` every count one jump of the blank from line `blank`
    /// the `way` way leads to: one or more lines on, each passed line
    /// giving a tile of any goal line to the line behind it.
    fn jumps(
        &self,
        counts: &mut Counts,
        blank: usize,
        way: isize,
        found: &mut impl FnMut(&Counts, usize),
    ) {
        let Some(from) = blank.checked_add_signed(way).filter(|&l| l < self.lines) else {
            return;
        };
        for goal in 0..self.lines {
            if counts[from][goal] == 0 {
                continue;
            }
            counts[from][goal] -= 1;
            counts[blank][goal] += 1;
            found(counts, from);
            self.jumps(counts, from, way, found);
            counts[from][goal] += 1;
            counts[blank][goal] -= 1;
        }
    }

    /// The distance of the count of `key`, 0 if none were counted.
    #[inline(always)]
    pub(super) fn of(&self, key: u128) -> u32 {
        match self.counted {
            true => u32::from(self.distance[&key]),
            false => 0,
        }
    }

    /// What the key of a count changes by when a tile of goal line `goal`
    /// goes from line `from` to line `to`, the blank the other way.
    #[inline(always)]
    pub(super) fn step(&self, key: u128, goal: usize, from: usize, to: usize) -> u128 {
        // An axis not counted has no key: its counts need not fit one.
        if !self.counted {
            return 0;
        }
        let counts = self.lines * (self.lines - 1);
        let one = |line: usize| -> u128 {
            match goal + 1 < self.lines {
                true => 1 << (self.bits as usize * (counts - 1 - (line * (self.lines - 1) + goal))),
                false => 0,
            }
        };
        let blank = self.bits as usize * counts;
        // The blank's line goes from `to` to `from`.
        let key = key + one(to) - one(from);
        key - ((to as u128) << blank) + ((from as u128) << blank)
    }

    /// The key of a count: every line's counts but its last goal line's
    /// (the line's size tells it), then the blank's line.
    pub(super) fn key(&self, counts: &Counts, blank: usize) -> u128 {
        if !self.counted {
            return 0;
        }
        let mut key = blank as u128;
        for line in &counts[..self.lines] {
            for &count in &line[..self.lines - 1] {
                key = (key << self.bits) | u128::from(count);
            }
        }
        key
    }
}
