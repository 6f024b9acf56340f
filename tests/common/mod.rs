//! What the test suites share: an independent, deliberately plain solver
//! (a BFS over boards as byte vectors, sharing no code with the crate), a
//! plain IDA* with the Manhattan distance, Korf's instances, random boards,
//! and the programs under test.

#![allow(dead_code)]

use std::collections::{HashMap, VecDeque};
use std::path::Path;

/// The moves of the blank in lexicographic order: letter, row and column
/// change.
pub const MOVES: [(char, isize, isize); 4] = [('d', 1, 0), ('l', 0, -1), ('r', 0, 1), ('u', -1, 0)];

/// A board of `rows` x `cols`: tiles `1..n`, `0` the blank, in reading
/// order.
pub type Cells = Vec<u8>;

/// The board after the blank moves by `letter`, if it stays on the board.
pub fn step(cols: usize, board: &[u8], letter: char) -> Option<Cells> {
    let rows = board.len() / cols;
    let blank = board
        .iter()
        .position(|&t| t == 0)
        .expect("a board has a blank");
    let (_, dr, dc) = MOVES.iter().find(|(l, _, _)| *l == letter)?;
    let row = (blank / cols) as isize + dr;
    let col = (blank % cols) as isize + dc;
    if !(0..rows as isize).contains(&row) || !(0..cols as isize).contains(&col) {
        return None;
    }
    let target = row as usize * cols + col as usize;
    let mut next = board.to_vec();
    next.swap(blank, target);
    Some(next)
}

/// Follows `moves` from `board`; `None` if a move leaves the board.
pub fn follow(cols: usize, board: &[u8], moves: &str) -> Option<Cells> {
    moves
        .chars()
        .try_fold(board.to_vec(), |board, letter| step(cols, &board, letter))
}

/// A plain BFS from a goal: the distance of every board that reaches it.
pub struct Oracle {
    pub cols: usize,
    pub distance: HashMap<Cells, u32>,
}

impl Oracle {
    pub fn new(cols: usize, goal: &[u8]) -> Oracle {
        let mut distance = HashMap::from([(goal.to_vec(), 0)]);
        let mut queue = VecDeque::from([goal.to_vec()]);
        while let Some(board) = queue.pop_front() {
            let d = distance[&board];
            for (letter, _, _) in MOVES {
                if let Some(next) = step(cols, &board, letter) {
                    distance.entry(next.clone()).or_insert_with(|| {
                        queue.push_back(next);
                        d + 1
                    });
                }
            }
        }
        Oracle { cols, distance }
    }

    /// The lexicographically smallest shortest path from `board`: at each
    /// step, the first letter that gets one step closer. `None` if the
    /// board cannot reach the goal.
    pub fn best_path(&self, board: &[u8]) -> Option<String> {
        let mut board = board.to_vec();
        let mut path = String::new();
        let mut d = *self.distance.get(&board)?;
        while d > 0 {
            let (letter, next) = MOVES
                .iter()
                .filter_map(|&(letter, _, _)| step(self.cols, &board, letter).map(|n| (letter, n)))
                .find(|(_, next)| self.distance.get(next) == Some(&(d - 1)))
                .expect("a board at distance d has a neighbour at d - 1");
            path.push(letter);
            board = next;
            d -= 1;
        }
        Some(path)
    }

    /// The number of boards at each distance.
    pub fn histogram(&self) -> Vec<u64> {
        histogram(&self.distance)
    }
}

/// A plain BFS from a goal in the multi-tile metric (the blank jumps any
/// number of cells in one direction, one move), up to `limit` moves: the
/// distance of every board that near.
pub struct MtmOracle {
    pub cols: usize,
    pub distance: HashMap<Cells, u32>,
}

impl MtmOracle {
    pub fn new(cols: usize, goal: &[u8], limit: u32) -> MtmOracle {
        let mut distance = HashMap::from([(goal.to_vec(), 0)]);
        let mut queue = VecDeque::from([goal.to_vec()]);
        while let Some(board) = queue.pop_front() {
            let d = distance[&board];
            if d == limit {
                continue;
            }
            for (letter, _, _) in MOVES {
                let mut next = board.clone();
                while let Some(further) = step(cols, &next, letter) {
                    next = further;
                    distance.entry(next.clone()).or_insert_with(|| {
                        queue.push_back(next.clone());
                        d + 1
                    });
                }
            }
        }
        MtmOracle { cols, distance }
    }

    /// The lexicographically smallest letter string of the answers with the
    /// fewest moves, built a letter at a time: the first letter after which
    /// the moves left still reach the goal (a letter the way of the last
    /// one adds no move; once the run ends, somewhere further along, the
    /// board must be near enough). `None` if the board is not within the
    /// search's limit.
    pub fn best_path(&self, board: &[u8]) -> Option<String> {
        let distance = |board: &[u8]| self.distance.get(board).copied().unwrap_or(u32::MAX);
        let mut board = board.to_vec();
        let mut left = *self.distance.get(&board)?;
        let mut run: Option<char> = None;
        let mut path = String::new();
        while distance(&board) != 0 {
            let (letter, next, after) = MOVES
                .iter()
                .filter_map(|&(letter, _, _)| {
                    let next = step(self.cols, &board, letter)?;
                    let cost = u32::from(run != Some(letter));
                    let after = left.checked_sub(cost)?;
                    // Somewhere along the run, the rest fits in `after`.
                    let mut along = Some(next.clone());
                    while let Some(here) = along {
                        if distance(&here) <= after {
                            return Some((letter, next, after));
                        }
                        along = step(self.cols, &here, letter);
                    }
                    None
                })
                .next()
                .expect("a board within reach has a letter toward the goal");
            path.push(letter);
            board = next;
            left = after;
            run = Some(letter);
        }
        Some(path)
    }

    /// The number of boards at each distance.
    pub fn histogram(&self) -> Vec<u64> {
        histogram(&self.distance)
    }
}

/// The number of boards at each distance of `distance`.
fn histogram(distance: &HashMap<Cells, u32>) -> Vec<u64> {
    let deepest = distance.values().max().copied().unwrap_or(0) as usize;
    let mut histogram = vec![0u64; deepest + 1];
    for &d in distance.values() {
        histogram[d as usize] += 1;
    }
    histogram
}

/// The moves of `letters` in the multi-tile metric: their runs.
pub fn runs(letters: &str) -> usize {
    let bytes = letters.as_bytes();
    bytes.windows(2).filter(|w| w[0] != w[1]).count() + usize::from(!bytes.is_empty())
}

/// Tiles `1..n` in reading order with the blank at `blank`.
pub fn canonical(cells: usize, blank: usize) -> Cells {
    let mut tile = 0;
    (0..cells)
        .map(|cell| match cell == blank {
            true => 0,
            false => {
                tile += 1;
                tile
            }
        })
        .collect()
}

/// Every arrangement of `0..n`, in lexicographic order.
pub fn all_boards(n: usize) -> Vec<Cells> {
    fn extend(prefix: &mut Cells, rest: &mut Vec<u8>, out: &mut Vec<Cells>) {
        if rest.is_empty() {
            out.push(prefix.clone());
            return;
        }
        for i in 0..rest.len() {
            let c = rest.remove(i);
            prefix.push(c);
            extend(prefix, rest, out);
            prefix.pop();
            rest.insert(i, c);
        }
    }
    let mut out = Vec::new();
    extend(&mut Vec::new(), &mut (0..n as u8).collect(), &mut out);
    out
}

/// Writes a board as `eight` reads it: tiles separated by spaces, `x` for
/// the blank.
pub fn text(board: &[u8]) -> String {
    board
        .iter()
        .map(|&t| match t {
            0 => "x".to_string(),
            t => t.to_string(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Lines that are each one invalid board where 3x3 and 4x4 boards are told
/// apart by their lines, of every kind the parser refuses: too few tiles, a
/// repeated tile, an unknown one, a number with a leading zero, a character
/// outside ASCII, a 3x3 board's digits one short, a grid cut short (two
/// lines), a board of a third shape, rows of no shape, a lone blank. The
/// tests of bad input draw from this one list.
pub const BAD_LINES: &[&str] = &[
    "1 2 3 4 5 6 7 8",
    "1 2 3 4 5 6 7 8 8",
    "hello x",
    "01 2 3 x 4 6 7 5 8",
    "\u{ff18} 1 2 3 4 5 6 7 8",
    "12345678",
    "1 2 3\n4 5 6",
    "1 2 3 4 5 6 x",
    "x",
    "1 2 3 4 5",
    "1 2 3 4",
    "abc",
    "123 456",
    "1/2/3",
];

/// A small deterministic generator (SplitMix64), so that tests need no
/// random-number crate and draw the same boards everywhere.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// One of `items`.
    pub fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }

    /// A random arrangement of `0..n`.
    pub fn board(&mut self, n: usize) -> Cells {
        let mut cells: Cells = (0..n as u8).collect();
        for i in (1..n).rev() {
            cells.swap(i, self.below(i + 1));
        }
        cells
    }

    /// A board `steps` random moves from `goal`.
    pub fn scramble(&mut self, cols: usize, goal: &[u8], steps: usize) -> Cells {
        let mut board = goal.to_vec();
        for _ in 0..steps {
            let (letter, _, _) = MOVES[self.below(4)];
            if let Some(next) = step(cols, &board, letter) {
                board = next;
            }
        }
        board
    }
}

/// A plain IDA* with the Manhattan distance, moves in `d l r u` order: the
/// lexicographically smallest shortest path from `start` to `goal`.
pub fn manhattan_ida(cols: usize, start: &[u8], goal: &[u8]) -> String {
    let home: HashMap<u8, usize> = goal.iter().enumerate().map(|(c, &t)| (t, c)).collect();
    let h = |board: &[u8]| -> u32 {
        board
            .iter()
            .enumerate()
            .filter(|&(_, &t)| t != 0)
            .map(|(cell, t)| {
                let home = home[t];
                ((cell / cols).abs_diff(home / cols) + (cell % cols).abs_diff(home % cols)) as u32
            })
            .sum()
    };
    fn dfs(
        cols: usize,
        board: &[u8],
        goal: &[u8],
        g: u32,
        bound: u32,
        path: &mut String,
        h: &dyn Fn(&[u8]) -> u32,
    ) -> Option<u32> {
        let f = g + h(board);
        if f > bound {
            return Some(f);
        }
        if board == goal {
            return None;
        }
        let mut least = u32::MAX;
        for (letter, _, _) in MOVES {
            let back = match letter {
                'd' => 'u',
                'u' => 'd',
                'l' => 'r',
                _ => 'l',
            };
            if path.ends_with(back) {
                continue;
            }
            let Some(next) = step(cols, board, letter) else {
                continue;
            };
            path.push(letter);
            match dfs(cols, &next, goal, g + 1, bound, path, h) {
                None => return None,
                Some(over) => least = least.min(over),
            }
            path.pop();
        }
        Some(least)
    }
    let mut bound = h(start);
    let mut path = String::new();
    while let Some(next) = dfs(cols, start, goal, 0, bound, &mut path, &h) {
        bound = next;
    }
    path
}

/// Korf's 100 instances: 16 cells (0 the blank) and the optimal length.
pub fn korf() -> Vec<(Cells, usize)> {
    include_str!("../data/korf100.txt")
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let numbers: Vec<usize> = line
                .split_whitespace()
                .map(|n| n.parse().expect("numbers"))
                .collect();
            (
                numbers[..16].iter().map(|&n| n as u8).collect(),
                numbers[16],
            )
        })
        .collect()
}

/// The `eight` binary, ready to run.
pub fn eight() -> assert_cmd::Command {
    assert_cmd::Command::new(assert_cmd::cargo::cargo_bin("eight"))
}

/// The `eight-gen` binary, ready to run.
pub fn eight_gen() -> assert_cmd::Command {
    assert_cmd::Command::new(assert_cmd::cargo::cargo_bin("eight-gen"))
}

/// A data folder with the 2x5 table (goals with the blank last), made by
/// `eight-gen`.
pub fn two_by_five() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    eight_gen()
        .args(["--quiet", "--shape", "2x5", "--out"])
        .arg(dir.path())
        .assert()
        .success();
    dir
}

/// Runs `eight` with `args` on `input`; returns stdout, stderr and the code.
pub fn run(args: &[&str], input: impl Into<Vec<u8>>) -> (String, String, i32) {
    let output = eight().args(args).write_stdin(input).output().unwrap();
    (
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
        output.status.code().unwrap_or(-1),
    )
}

/// Runs `eight` with `args` on `input` read from a file, not a pipe:
/// returns stdout, stderr and the code.
pub fn run_from_file(args: &[&str], input: impl AsRef<[u8]>) -> (String, String, i32) {
    let mut file = tempfile::tempfile().unwrap();
    std::io::Write::write_all(&mut file, input.as_ref()).unwrap();
    std::io::Seek::rewind(&mut file).unwrap();
    let output = std::process::Command::new(assert_cmd::cargo::cargo_bin("eight"))
        .args(args)
        .stdin(file)
        .output()
        .unwrap();
    (
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
        output.status.code().unwrap_or(-1),
    )
}

/// Builds small pattern databases (5-5-5 for 4x4, or `partition`) of
/// `shape` toward the goal with the blank at `blank`, in `dir`.
pub fn build_databases(dir: &Path, shape: &str, partition: &str, blank: usize) {
    eight_gen()
        .args([
            "--quiet",
            "--shape",
            shape,
            "--partition",
            partition,
            "--blank",
        ])
        .arg(blank.to_string())
        .arg("--out")
        .arg(dir)
        .assert()
        .success();
}

/// The bytes of a file the program has built in, as `generated/` holds
/// them: `3x3.table`, `4x4-blank0.pdbz`.
pub fn generated(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("generated")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|err| panic!("{}: {err}", path.display()))
}
