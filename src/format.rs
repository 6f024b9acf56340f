//! The table file format, specified here and nowhere else.
//!
//! A table file holds, for each goal of one board shape, the next move toward
//! that goal from every board that can reach it; a file of the same format
//! holds pattern databases for boards too large for that.
//!
//! # Layout
//!
//! All integers are little-endian.
//!
//! | offset    | size | field                                                   |
//! |-----------|------|---------------------------------------------------------|
//! | 0         | 8    | [`MAGIC`], `EIGHTTBL`                                   |
//! | 8         | 4    | [`FORMAT_VERSION`], `u32`                               |
//! | 12        | 4    | header length `H`, `u32`, at most [`MAX_HEADER_LEN`]    |
//! | 16        | 4    | CRC-32 (IEEE) of the `H` header bytes, `u32`            |
//! | 20        | `H`  | the [`Header`], serde + bincode 2 standard configuration |
//! | 20 + `H`  | rest | the body: one zstd frame per section, back to back       |
//!
//! The fixed prefix comes before the bincode header so that a file of another
//! kind or another version is told apart before anything is decoded.
//!
//! # Sections
//!
//! [`Header::sections`] has one [`Section`] per blank position `p`, in order:
//! section `p` is for the canonical goal with tiles `1..n` in reading order
//! and the blank at `p` ([`Board::canonical`]). Its zstd frame (with a content
//! checksum) starts `offset` bytes into the body and is `len` bytes long; the
//! frames fill the body exactly. `crc32` is the CRC-32 of the frame's bytes.
//!
//! A file of pattern databases ([`Kind::PatternDbs`], written by
//! [`write_pattern_dbs`]) has one section per group of tiles instead, all
//! with the same goal and each with its `tiles`; the groups hold every tile
//! exactly once. Its sections are not compressed: `len = raw_len = entries`,
//! one byte per placement of the group's tiles in the order of
//! [`RankScheme::Placement`], the fewest moves of those tiles that bring them
//! home (see [`crate::pdb`]). The body is read in place, straight from a
//! memory map.
//!
//! # Codes
//!
//! A frame decompresses to `raw_len = ceil(entries / 4)` bytes of 2-bit
//! codes, four to a byte, entry `i` in bits `2·(i % 4)` and up of byte
//! `i / 4`. The [rank scheme](RankScheme::LehmerHalf) maps a board to entry
//! [`board_rank`](crate::rank::board_rank)` / 2`; `entries = n! / 2`. A code is the [`Move`](crate::Move) of
//! that number ([`Move::from_code`](crate::Move::from_code): `0 d`, `1 l`,
//! `2 r`, `3 u`): the lexicographically smallest move that brings the board
//! one step closer to the goal. Following the codes from any board that can
//! reach the goal walks its shortest path, and of the shortest paths the
//! lexicographically smallest, in at most `max_depth` moves. The goal's own
//! entry is `0` and never read.

use serde::{Deserialize, Serialize};

use crate::board::{Board, Shape};
use crate::rank::{factorial, placements};

/// The first eight bytes of every table file.
pub const MAGIC: [u8; 8] = *b"EIGHTTBL";

/// The version of the layout this crate reads and writes.
pub const FORMAT_VERSION: u32 = 2;

/// Bytes before the header: magic, version, header length, header checksum.
pub const PREFIX_LEN: usize = 20;

/// The largest header this crate accepts.
pub const MAX_HEADER_LEN: usize = 64 * 1024;

/// The zstd level the generator compresses with.
pub const ZSTD_LEVEL: i32 = 19;

/// How to regenerate a table, for error messages.
pub const REGENERATE: &str = "regenerate it with `cargo run --release --bin eight-gen`";

/// Everything about a table file but its codes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// Rows of the board.
    pub rows: u8,
    /// Columns of the board.
    pub cols: u8,
    /// How a board is mapped to an entry.
    pub rank: RankScheme,
    /// How the entries are stored.
    pub codec: Codec,
    /// One section per goal, in order of the goal's blank position.
    pub sections: Vec<Section>,
    /// Zero; room for a later version.
    pub reserved: u64,
}

/// How a board is mapped to an entry of a section.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RankScheme {
    /// The Lehmer rank of the board's positions (the cell of the blank, then
    /// of tile 1, 2, …), halved: [`crate::rank::board_rank`] `/ 2`.
    LehmerHalf,
    /// The rank of the cells of the section's tiles, in the order of its
    /// tiles, among all placements of that many tiles:
    /// [`crate::rank::rank_placement`].
    Placement,
}

/// How a section's entries are stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Codec {
    /// 2-bit codes four to a byte, in one zstd frame.
    Zstd2Bit,
    /// One byte per entry, uncompressed, to be read in place.
    Raw8,
}

/// What a file holds, told by its rank scheme and codec together.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Next moves toward each canonical goal: [`RankScheme::LehmerHalf`] and
    /// [`Codec::Zstd2Bit`], read by [`Table`](crate::Table).
    NextMoves,
    /// Pattern databases of one goal: [`RankScheme::Placement`] and
    /// [`Codec::Raw8`], read by [`PdbTable`](crate::pdb::PdbTable).
    PatternDbs,
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Kind::NextMoves => "a table of next moves",
            Kind::PatternDbs => "pattern databases",
        })
    }
}

/// The entries of one goal, or of one group of tiles.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Section {
    /// The goal's cells in reading order, blank `0`.
    pub goal: Vec<u8>,
    /// A pattern database's group of tiles; empty in a table of next moves.
    pub tiles: Vec<u8>,
    /// The number of entries, `n! / 2`.
    pub entries: u64,
    /// The longest shortest path to the goal.
    pub max_depth: u32,
    /// Where the frame starts, from the start of the body.
    pub offset: u64,
    /// The frame's length in bytes.
    pub len: u64,
    /// The decompressed length, `ceil(entries / 4)`.
    pub raw_len: u64,
    /// CRC-32 of the frame's bytes.
    pub crc32: u32,
}

/// Why a table file was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    /// The file has no bytes at all.
    #[error("the table file is empty; {REGENERATE}")]
    Empty,
    /// The file ends before what it announces.
    #[error(
        "the table file is truncated: {what} needs {needed} bytes, the file has {got}; {REGENERATE}"
    )]
    Truncated {
        /// The part that is cut off.
        what: &'static str,
        /// The bytes that part needs.
        needed: u64,
        /// The bytes there are.
        got: u64,
    },
    /// The file does not start with [`MAGIC`].
    #[error("not an eight table file (it does not start with \"EIGHTTBL\"); {REGENERATE}")]
    NotATable,
    /// The file is of another version of the format.
    #[error(
        "the table file has format version {got}, this program reads version {expected}; {REGENERATE}"
    )]
    Version {
        /// The version this crate reads.
        expected: u32,
        /// The version the file has.
        got: u32,
    },
    /// A stored checksum does not match the bytes.
    #[error(
        "the table file is damaged: the checksum of {what} is {got:#010x}, expected {expected:#010x}; {REGENERATE}"
    )]
    Checksum {
        /// The part whose checksum failed.
        what: String,
        /// The stored checksum.
        expected: u32,
        /// The checksum of the bytes.
        got: u32,
    },
    /// The header is well formed but says something wrong.
    #[error("the table file is invalid: {0}; {REGENERATE}")]
    Invalid(String),
    /// Following the codes did not lead to the goal.
    #[error("the table is wrong: {0}; {REGENERATE}")]
    Walk(String),
}

impl Header {
    /// A header with no sections yet.
    fn empty(shape: Shape, rank: RankScheme, codec: Codec) -> Header {
        Header {
            rows: shape.rows() as u8,
            cols: shape.cols() as u8,
            rank,
            codec,
            sections: Vec::new(),
            reserved: 0,
        }
    }

    /// What the file holds.
    ///
    /// # Errors
    ///
    /// Fails if the rank scheme and codec go together in no kind of file.
    pub fn kind(&self) -> Result<Kind, TableError> {
        match (self.rank, self.codec) {
            (RankScheme::LehmerHalf, Codec::Zstd2Bit) => Ok(Kind::NextMoves),
            (RankScheme::Placement, Codec::Raw8) => Ok(Kind::PatternDbs),
            (rank, codec) => Err(invalid(format!(
                "the rank scheme {rank:?} does not go with the codec {codec:?}"
            ))),
        }
    }

    /// The board shape the header describes.
    ///
    /// # Errors
    ///
    /// Fails if the dimensions are not a supported [`Shape`].
    pub fn shape(&self) -> Result<Shape, TableError> {
        Shape::new(usize::from(self.rows), usize::from(self.cols)).ok_or_else(|| {
            invalid(format!(
                "unsupported board shape {}x{}",
                self.rows, self.cols
            ))
        })
    }
}

fn invalid(reason: String) -> TableError {
    TableError::Invalid(reason)
}

/// The CRC-32 of `bytes`, as the format stores it.
pub fn checksum(bytes: &[u8]) -> u32 {
    crc32fast::hash(bytes)
}

/// Reads the header as [`read_header`] does and checks that the file is of
/// the `expected` kind; returns the header and where the body starts.
///
/// # Errors
///
/// Fails with the first thing wrong, or if the file is of the other kind.
pub fn read_header_of(bytes: &[u8], expected: Kind) -> Result<(Header, usize), TableError> {
    let (header, body) = read_header(bytes)?;
    let kind = header.kind()?;
    if kind != expected {
        return Err(invalid(format!("the file holds {kind}, not {expected}")));
    }
    Ok((header, bytes.len() - body.len()))
}

/// Checks the checksum of every section of `body`.
///
/// # Errors
///
/// Fails with the first damaged section.
pub fn verify_sections(header: &Header, body: &[u8]) -> Result<(), TableError> {
    (0..header.sections.len()).try_for_each(|index| section_frame(header, body, index).map(drop))
}

/// Reads and checks the prefix and header of a table file, and the placement
/// of its sections; returns the header and the body. Cheap: it reads only the
/// first few hundred bytes, not the codes.
///
/// # Errors
///
/// Fails with the first thing wrong: see [`TableError`].
pub fn read_header(bytes: &[u8]) -> Result<(Header, &[u8]), TableError> {
    if bytes.is_empty() {
        return Err(TableError::Empty);
    }
    let truncated = |what, needed: usize| TableError::Truncated {
        what,
        needed: needed as u64,
        got: bytes.len() as u64,
    };
    if !bytes.starts_with(&MAGIC[..bytes.len().min(MAGIC.len())]) {
        return Err(TableError::NotATable);
    }
    if bytes.len() < PREFIX_LEN {
        return Err(truncated("the fixed prefix", PREFIX_LEN));
    }
    let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
    let version = word(8);
    if version != FORMAT_VERSION {
        return Err(TableError::Version {
            expected: FORMAT_VERSION,
            got: version,
        });
    }
    let header_len = word(12) as usize;
    if header_len > MAX_HEADER_LEN {
        return Err(invalid(format!(
            "the header claims {header_len} bytes, at most {MAX_HEADER_LEN} are allowed"
        )));
    }
    let body_start = PREFIX_LEN + header_len;
    let header_bytes = bytes
        .get(PREFIX_LEN..body_start)
        .ok_or_else(|| truncated("the header", body_start))?;
    let got = checksum(header_bytes);
    if got != word(16) {
        return Err(TableError::Checksum {
            what: "the header".into(),
            expected: word(16),
            got,
        });
    }
    let config = bincode::config::standard().with_limit::<MAX_HEADER_LEN>();
    let (header, used): (Header, usize) =
        bincode::serde::decode_from_slice(header_bytes, config)
            .map_err(|e| invalid(format!("the header does not decode: {e}")))?;
    if used != header_len {
        return Err(invalid(format!(
            "the header has {} bytes after its end",
            header_len - used
        )));
    }
    let body = &bytes[body_start..];
    check_sections(&header, body)?;
    Ok((header, body))
}

/// Checks that the sections hold what the header's kind says and fill the
/// body exactly.
fn check_sections(header: &Header, body: &[u8]) -> Result<(), TableError> {
    let shape = header.shape()?;
    if header.reserved != 0 {
        return Err(invalid("the reserved field is not zero".into()));
    }
    match header.kind()? {
        Kind::NextMoves => check_next_moves(header, shape)?,
        Kind::PatternDbs => check_pattern_dbs(header, shape)?,
    }
    let mut offset = 0u64;
    for (index, section) in header.sections.iter().enumerate() {
        if section.offset != offset {
            return Err(invalid(format!(
                "section {index} starts at {}, expected {offset}",
                section.offset
            )));
        }
        offset = offset
            .checked_add(section.len)
            .ok_or_else(|| invalid(format!("section {index} is too long")))?;
    }
    match (body.len() as u64).cmp(&offset) {
        std::cmp::Ordering::Less => Err(TableError::Truncated {
            what: "the sections",
            needed: offset,
            got: body.len() as u64,
        }),
        std::cmp::Ordering::Greater => Err(invalid(format!(
            "{} bytes follow the last section",
            body.len() as u64 - offset
        ))),
        std::cmp::Ordering::Equal => Ok(()),
    }
}

/// A table of next moves has one section per canonical goal, in order.
fn check_next_moves(header: &Header, shape: Shape) -> Result<(), TableError> {
    if header.sections.len() != shape.cells() {
        return Err(invalid(format!(
            "a {shape} table has {} sections, this one has {}",
            shape.cells(),
            header.sections.len()
        )));
    }
    let entries = entries(shape);
    for (blank, section) in header.sections.iter().enumerate() {
        let name = format!("section {blank}");
        if section.goal != Board::canonical(shape, blank).cells() || !section.tiles.is_empty() {
            return Err(invalid(format!(
                "{name} is not for the goal with the blank at {blank}"
            )));
        }
        if section.entries != entries || section.raw_len != raw_len(entries) {
            return Err(invalid(format!(
                "{name} has {} entries in {} bytes, expected {entries} in {}",
                section.entries,
                section.raw_len,
                raw_len(entries)
            )));
        }
    }
    Ok(())
}

/// Pattern databases share one goal, split its tiles into disjoint groups,
/// and hold one byte per placement of each group, uncompressed.
fn check_pattern_dbs(header: &Header, shape: Shape) -> Result<(), TableError> {
    let Some(first) = header.sections.first() else {
        return Err(invalid("the file holds no pattern database".into()));
    };
    Board::from_cells(shape, &first.goal)
        .map_err(|e| invalid(format!("the goal is not a board: {e}")))?;
    let mut grouped = 0u32;
    for (index, section) in header.sections.iter().enumerate() {
        let name = format!("section {index}");
        if section.goal != first.goal {
            return Err(invalid(format!("{name} is for another goal")));
        }
        for &tile in &section.tiles {
            if tile == 0 || usize::from(tile) >= shape.cells() || grouped & (1 << tile) != 0 {
                return Err(invalid(format!("{name} has a bad or repeated tile {tile}")));
            }
            grouped |= 1 << tile;
        }
        let entries = placements(shape.cells(), section.tiles.len());
        if section.tiles.is_empty()
            || section.entries != entries
            || section.raw_len != entries
            || section.len != entries
        {
            return Err(invalid(format!(
                "{name} has {} entries in {} bytes, expected {entries}",
                section.entries, section.len
            )));
        }
    }
    if grouped != ((1u32 << shape.cells()) - 1) & !1 {
        return Err(invalid("the groups do not hold every tile".into()));
    }
    Ok(())
}

/// The frame of section `index`, after checking its checksum.
///
/// # Errors
///
/// Fails if the frame's bytes do not match their checksum.
pub fn section_frame<'a>(
    header: &Header,
    body: &'a [u8],
    index: usize,
) -> Result<&'a [u8], TableError> {
    let section = &header.sections[index];
    // `read_header` checked that every section lies inside the body.
    let frame = &body[section.offset as usize..(section.offset + section.len) as usize];
    let got = checksum(frame);
    if got != section.crc32 {
        return Err(TableError::Checksum {
            what: format!("section {index}"),
            expected: section.crc32,
            got,
        });
    }
    Ok(frame)
}

/// Decompresses section `index` to its packed codes, checking its checksum
/// and length.
///
/// # Errors
///
/// Fails if the frame is damaged or decompresses to the wrong length.
pub fn decode_section(header: &Header, body: &[u8], index: usize) -> Result<Vec<u8>, TableError> {
    let frame = section_frame(header, body, index)?;
    let raw_len = header.sections[index].raw_len as usize;
    let codes = zstd::bulk::decompress(frame, raw_len)
        .map_err(|e| invalid(format!("section {index} does not decompress: {e}")))?;
    if codes.len() != raw_len {
        return Err(invalid(format!(
            "section {index} decompresses to {} bytes, expected {raw_len}",
            codes.len()
        )));
    }
    Ok(codes)
}

/// The number of entries in a section for `shape`: one per board that can
/// reach the goal, `n! / 2`.
pub fn entries(shape: Shape) -> u64 {
    factorial(shape.cells()) / 2
}

/// Bytes that hold `entries` 2-bit codes.
pub fn raw_len(entries: u64) -> u64 {
    entries.div_ceil(4)
}

/// The code of entry `index` in packed codes.
#[inline]
pub fn code_at(packed: &[u8], index: u64) -> u8 {
    (packed[(index / 4) as usize] >> (2 * (index % 4))) & 3
}

/// Packs one code per byte (the low two bits) into 2-bit codes.
pub fn pack_codes(codes: &[u8]) -> Vec<u8> {
    codes
        .chunks(4)
        .map(|chunk| {
            chunk
                .iter()
                .enumerate()
                .fold(0u8, |byte, (i, &code)| byte | ((code & 3) << (2 * i)))
        })
        .collect()
}

/// The codes of one goal, ready to be written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SectionCodes {
    /// The goal.
    pub goal: Board,
    /// One code per entry, one byte each (see [`pack_codes`]).
    pub codes: Vec<u8>,
    /// The longest shortest path to the goal.
    pub max_depth: u32,
}

/// Writes a whole table file for `shape` from the codes of its canonical
/// goals, in order of blank position. The same codes give the same bytes.
///
/// # Panics
///
/// Panics if `sections` are not the canonical goals of `shape` in order, or
/// hold the wrong number of codes.
pub fn encode(shape: Shape, sections: &[SectionCodes]) -> Vec<u8> {
    let frames: Vec<Frame> = sections.iter().map(Frame::new).collect();
    assemble(shape, &frames)
}

/// One goal's codes packed and compressed, ready to be placed in a file.
/// Making frames is the slow part of writing a table, and each is made on
/// its own, so they can be made on several threads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    goal: Board,
    entries: u64,
    max_depth: u32,
    raw_len: u64,
    bytes: Vec<u8>,
}

impl Frame {
    /// Packs and compresses the codes of one goal.
    pub fn new(section: &SectionCodes) -> Frame {
        let packed = pack_codes(&section.codes);
        Frame {
            goal: section.goal,
            entries: section.codes.len() as u64,
            max_depth: section.max_depth,
            raw_len: packed.len() as u64,
            bytes: compress(&packed),
        }
    }
}

/// Writes a whole table file for `shape` from the frames of its canonical
/// goals, in order of blank position.
///
/// # Panics
///
/// Panics if `frames` are not the canonical goals of `shape` in order, or
/// hold the wrong number of codes.
pub fn assemble(shape: Shape, frames: &[Frame]) -> Vec<u8> {
    assert_eq!(
        frames.len(),
        shape.cells(),
        "one section per blank position"
    );
    let mut body = Vec::new();
    let mut header = Header::empty(shape, RankScheme::LehmerHalf, Codec::Zstd2Bit);
    for (blank, frame) in frames.iter().enumerate() {
        assert_eq!(
            frame.goal,
            Board::canonical(shape, blank),
            "canonical goals in order"
        );
        assert_eq!(frame.entries, entries(shape), "one code per entry");
        header.sections.push(Section {
            goal: frame.goal.cells().to_vec(),
            tiles: Vec::new(),
            entries: frame.entries,
            max_depth: frame.max_depth,
            offset: body.len() as u64,
            len: frame.bytes.len() as u64,
            raw_len: frame.raw_len,
            crc32: checksum(&frame.bytes),
        });
        body.extend_from_slice(&frame.bytes);
    }
    let mut file = head(&header);
    file.extend_from_slice(&body);
    file
}

/// The fixed prefix and the header: everything before the body.
fn head(header: &Header) -> Vec<u8> {
    let header_bytes = bincode::serde::encode_to_vec(header, bincode::config::standard())
        .expect("a header always encodes");
    let mut head = Vec::with_capacity(PREFIX_LEN + header_bytes.len());
    head.extend_from_slice(&MAGIC);
    head.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    head.extend_from_slice(&(header_bytes.len() as u32).to_le_bytes());
    head.extend_from_slice(&checksum(&header_bytes).to_le_bytes());
    head.extend_from_slice(&header_bytes);
    head
}

/// Writes a file of pattern databases toward `goal`: for each group, its
/// tiles and its entries (one byte per placement, see
/// [`RankScheme::Placement`]), stored uncompressed to be read in place.
///
/// # Errors
///
/// Fails if `out` fails.
///
/// # Panics
///
/// Panics if a group's entries are not one per placement of its tiles.
pub fn write_pattern_dbs(
    goal: &Board,
    groups: &[(&[u8], &[u8])],
    out: &mut impl std::io::Write,
) -> std::io::Result<()> {
    let shape = goal.shape();
    let mut header = Header::empty(shape, RankScheme::Placement, Codec::Raw8);
    let mut offset = 0u64;
    for &(tiles, entries) in groups {
        let count = placements(shape.cells(), tiles.len());
        assert_eq!(entries.len() as u64, count, "one entry per placement");
        header.sections.push(Section {
            goal: goal.cells().to_vec(),
            tiles: tiles.to_vec(),
            entries: count,
            max_depth: entries
                .iter()
                .copied()
                .filter(|&e| e != u8::MAX)
                .max()
                .unwrap_or(0)
                .into(),
            offset,
            len: count,
            raw_len: count,
            crc32: checksum(entries),
        });
        offset += count;
    }
    out.write_all(&head(&header))?;
    for (_, entries) in groups {
        out.write_all(entries)?;
    }
    Ok(())
}

/// One zstd frame with a content checksum, compressed single-threaded so that
/// the bytes depend only on the input and the zstd version.
fn compress(raw: &[u8]) -> Vec<u8> {
    let mut compressor = zstd::bulk::Compressor::new(ZSTD_LEVEL).expect("the zstd level is valid");
    compressor
        .set_parameter(zstd::zstd_safe::CParameter::ChecksumFlag(true))
        .expect("zstd accepts the checksum flag");
    compressor.compress(raw).expect("zstd compresses in memory")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_codes_read_back() {
        let codes: Vec<u8> = (0..37usize).map(|i| ((i * 7 + i / 3) % 4) as u8).collect();
        let packed = pack_codes(&codes);
        assert_eq!(packed.len() as u64, raw_len(codes.len() as u64));
        for (i, &code) in codes.iter().enumerate() {
            assert_eq!(code_at(&packed, i as u64), code);
        }
    }
}
