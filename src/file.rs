//! The file format of every table and database, specified here and nowhere
//! else, and the raw reader and writer that the typed files are built on.
//!
//! A file holds sections of entries for one board shape: the next moves
//! toward goals ([`Table`](crate::table::Table)), or pattern databases
//! ([`PdbTable`](crate::pdb::PdbTable)).
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
//! | 20 + `H`  | rest | the body: the sections' bytes, back to back             |
//!
//! The fixed prefix comes before the bincode header so that a file of another
//! kind or another version is told apart before anything is decoded.
//!
//! # Sections
//!
//! Each [`Section`] names its goal (cells in reading order, blank `0`), its
//! group of tiles (pattern databases only), its number of entries, and where
//! its bytes are: `offset` bytes into the body, `len` bytes long, with the
//! CRC-32 `crc32`; the sections fill the body exactly, in order. How entries
//! are indexed and stored is the header's [`RankScheme`] and [`Codec`]; the
//! two together tell the file's [`Kind`]:
//!
//! - **Next moves** ([`RankScheme::LehmerHalf`], [`Codec::Zstd2Bit`]): one
//!   section per goal, each goal a canonical one (tiles `1..n` in reading
//!   order, [`Board::canonical`]), in increasing order of the blank's cell;
//!   `entries = n! / 2`. The section is one zstd frame (with a content
//!   checksum) of `raw_len = ceil(entries / 4)` bytes: 2-bit codes, four to a
//!   byte, entry `i` in bits `2·(i % 4)` and up of byte `i / 4`. A board's
//!   entry is its [rank](crate::board::Board::rank)` / 2`. A code is a
//!   [`Move`](crate::shape::Move) ([`Move::from_code`](crate::shape::Move::from_code):
//!   `0 d`, `1 l`, `2 r`, `3 u`): the lexicographically smallest move that
//!   brings the board one step closer to the goal. The goal's own entry is
//!   `0` and never read. `max_depth` is the longest shortest answer.
//! - **Next moves in the multi-tile metric** ([`RankScheme::LehmerHalf`],
//!   [`Codec::ZstdNibbles`]): laid out as next moves, but each entry is 4
//!   bits, two to a byte (entry `i` in the low half of byte `i / 2` when
//!   `i` is even), `raw_len = ceil(entries / 2)`: the code of the jump that
//!   starts the board's canonical answer in the [multi-tile
//!   metric](crate::metric::Metric), its place in the list of the shape's jumps by
//!   direction (`d l r u`), then length (on 3x3, `0` is `d`, `1` `dd`, `2`
//!   `l`, …). `max_depth` counts multi-tile moves.
//! - **Pattern databases** ([`RankScheme::Placement`]): one section per
//!   group of tiles, all with the same goal; the groups hold every tile
//!   once. Entry `i` of a group of `k` tiles is for the placement of rank
//!   `i` (in lexicographic order of the tiles' cells) among the
//!   `n! / (n - k)!` placements of its tiles: the fewest moves of the
//!   group's tiles that bring them home. With [`Codec::Raw8`] it is one
//!   byte, uncompressed (`len = raw_len = entries`), read in place from a
//!   memory map. With [`Codec::ZstdNibbles`] it is half the entry minus the
//!   Manhattan distance of the group's tiles (the entry less the moves each
//!   tile needs alone, always even), in 4 bits, two entries to a byte (entry
//!   `i` in the low nibble of byte `i / 2` when `i` is even), in one zstd
//!   frame of `raw_len = ceil(entries / 2)` bytes: small enough to build
//!   into the program, decoded into memory when opened. With
//!   [`Codec::Raw8Walls`] the databases know the blank's cell, uncompressed
//!   (`len = raw_len = 5 · entries`) and read in place: first a byte an
//!   entry, whose low 7 bits are the entry (the fewest moves from the
//!   blank's best cell, 127 for a placement never reached) and whose high
//!   bit says whether the placement walls the blank in; then a `u32` an
//!   entry, whose bit `c` is set when the blank on cell `c` needs at least
//!   two moves more of the group's tiles
//!   ([`PatternDb::walled`](crate::pdb::PatternDb::walled)), zero where the
//!   high bit is; the shape has at most 25 cells.
//!
//! - **Pattern databases of the multi-tile metric**
//!   ([`RankScheme::BlankPlacement`], [`Codec::Raw8`]): one section per
//!   group, all with the same goal (a canonical one), each group's tiles
//!   led by the blank (`0`); the groups hold every other tile at most
//!   once. Entry `i` is for the placement of rank `i` of the blank and the
//!   group's tiles, in that order: the fewest multi-tile moves that bring
//!   them home, every jump of the blank one move. One byte an entry,
//!   uncompressed.
//!
//! A section never has more than [`MAX_SECTION_ENTRIES`] entries, so that a
//! damaged or hostile header cannot make a reader allocate or read without
//! bound.

use std::fmt;
use std::io::{self, Write};

use serde::{Deserialize, Serialize};

use crate::board::Board;
use crate::mem::Huge;
use crate::shape::Shape;

mod prefix;

pub use self::prefix::{FORMAT_VERSION, MAGIC, MAX_HEADER_LEN, PREFIX_LEN};

/// The most entries of any section: above the largest this crate makes
/// (519 million, the 8-tile database of a 16-cell board; 240 million, a
/// 12-cell table).
pub const MAX_SECTION_ENTRIES: u64 = 1 << 30;

/// Everything about a file but its sections' bytes.
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
    /// The sections, in the order of their bytes.
    pub sections: Vec<Section>,
    /// Zero; room for a later version.
    pub reserved: u64,
}

/// How a board is mapped to an entry of a section.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub enum RankScheme {
    /// The Lehmer rank of the board's positions (the cell of the blank, then
    /// of tile 1, 2, …), halved: [`Board::rank`](crate::board::Board::rank) `/ 2`.
    LehmerHalf,
    /// The rank of the cells of the section's tiles, in the order of its
    /// tiles, among all placements of that many tiles (`k`-permutations of
    /// the `n` cells) in lexicographic order.
    Placement,
    /// As [`RankScheme::Placement`], of the section's tiles led by the
    /// blank (its first tile, `0`).
    BlankPlacement,
}

/// How a section's entries are stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub enum Codec {
    /// 2-bit codes four to a byte, in one zstd frame.
    Zstd2Bit,
    /// One byte per entry, uncompressed, to be read in place.
    Raw8,
    /// 4 bits an entry, two to a byte, in one zstd frame: half a pattern
    /// database's entry over the Manhattan distance, or a multi-tile
    /// metric's next jump.
    ZstdNibbles,
    /// One byte per entry and then 4, uncompressed, to be read in place: a
    /// pattern database's entries, and the cells of the blank that cost
    /// more.
    Raw8Walls,
}

/// What a file holds, told by its rank scheme and codec together.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Kind {
    /// Next moves toward canonical goals, read by [`Table`](crate::table::Table).
    NextMoves,
    /// Next moves of the multi-tile metric toward canonical goals, read
    /// by [`Table`](crate::table::Table) too.
    NextJumps,
    /// Pattern databases of the multi-tile metric of one goal, read by
    /// [`MtmSearcher`](crate::mtm::MtmSearcher).
    JumpDbs,
    /// Pattern databases of one goal, read by
    /// [`PdbTable`](crate::pdb::PdbTable).
    PatternDbs,
}

impl Kind {
    /// The kind of a file with this rank scheme and codec, if any.
    pub fn of(rank: RankScheme, codec: Codec) -> Option<Kind> {
        match (rank, codec) {
            (RankScheme::LehmerHalf, Codec::Zstd2Bit) => Some(Kind::NextMoves),
            (RankScheme::LehmerHalf, Codec::ZstdNibbles) => Some(Kind::NextJumps),
            (RankScheme::Placement, Codec::Raw8 | Codec::ZstdNibbles | Codec::Raw8Walls) => {
                Some(Kind::PatternDbs)
            }
            (RankScheme::BlankPlacement, Codec::Raw8) => Some(Kind::JumpDbs),
            _ => None,
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Kind::NextMoves => "a table of next moves",
            Kind::NextJumps => "a table of next moves in the multi-tile metric",
            Kind::PatternDbs => "pattern databases",
            Kind::JumpDbs => "pattern databases of the multi-tile metric",
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
    /// The number of entries.
    pub entries: u64,
    /// The largest entry: the longest shortest answer, or the largest value
    /// of a database.
    pub max_depth: u32,
    /// Where the section's bytes start, from the start of the body.
    pub offset: u64,
    /// The section's length in bytes.
    pub len: u64,
    /// The length of the entries once decoded.
    pub raw_len: u64,
    /// CRC-32 of the section's bytes.
    pub crc32: u32,
}

/// A part of a file, for messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Part {
    /// The fixed prefix.
    Prefix,
    /// The header.
    Header,
    /// Section `i`.
    Section(usize),
    /// All sections.
    Body,
}

impl fmt::Display for Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Part::Prefix => f.write_str("the fixed prefix"),
            Part::Header => f.write_str("the header"),
            Part::Section(index) => write!(f, "section {index}"),
            Part::Body => f.write_str("the sections"),
        }
    }
}

/// Why a file was refused. The messages say what is wrong; how to make the
/// file anew depends on who made it, and is the caller's to add.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FileError {
    /// The file has no bytes at all.
    #[error("the file is empty")]
    Empty,
    /// The file does not start with `MAGIC`.
    #[error("not a file of eight's tables (it does not start with \"EIGHTTBL\")")]
    NotOurs,
    /// The file is of another version of the format.
    #[error("the file has format version {got}, this program reads version {expected}")]
    Version {
        /// The version this crate reads.
        expected: u32,
        /// The version the file has.
        got: u32,
    },
    /// The file ends before what it announces.
    #[error(
        "the file is truncated: it needs {needed} bytes up to the end of {part}, and has {got}"
    )]
    Truncated {
        /// The part that is cut off.
        part: Part,
        /// The bytes the file needs up to the end of that part.
        needed: u64,
        /// The bytes there are.
        got: u64,
    },
    /// A stored checksum does not match the bytes.
    #[error(
        "the file is damaged: the checksum of {part} is {got:#010x}, expected {expected:#010x}"
    )]
    Checksum {
        /// The part whose checksum failed.
        part: Part,
        /// The stored checksum.
        expected: u32,
        /// The checksum of the bytes.
        got: u32,
    },
    /// The header is intact but says something this crate refuses.
    #[error("the file's header is invalid: {0}")]
    Header(#[from] HeaderError),
    /// The file holds another kind of data.
    #[error("the file holds {got}, not {expected}")]
    WrongKind {
        /// The kind asked for.
        expected: Kind,
        /// The kind the file holds.
        got: Kind,
    },
    /// A section's bytes do not decode to its entries.
    #[error("{part} does not decode: {reason}")]
    Decode {
        /// The section.
        part: Part,
        /// What the decoder said.
        reason: String,
    },
}

/// What is wrong with an intact header.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum HeaderError {
    /// The header is longer than any this crate writes.
    #[error("it claims {got} bytes, at most {MAX_HEADER_LEN} are allowed")]
    TooLong {
        /// The length claimed.
        got: u64,
    },
    /// The header's bytes are not a header.
    #[error("it does not decode: {0}")]
    Decode(String),
    /// Bytes after the header's end.
    #[error("it has {0} bytes after its end")]
    TrailingBytes(usize),
    /// The board shape is not one this crate knows.
    #[error("unsupported board shape {rows}x{cols}")]
    Shape {
        /// Rows.
        rows: u8,
        /// Columns.
        cols: u8,
    },
    /// The rank scheme and codec go together in no kind of file.
    #[error("the rank scheme {rank:?} does not go with the codec {codec:?}")]
    Codec {
        /// The rank scheme.
        rank: RankScheme,
        /// The codec.
        codec: Codec,
    },
    /// The reserved field is not zero.
    #[error("the reserved field is not zero")]
    Reserved,
    /// There are no sections.
    #[error("it lists no sections")]
    NoSections,
    /// A section's bytes are not where the one before it ends.
    #[error("section {section} starts at {got}, expected {expected}")]
    Offset {
        /// The section.
        section: usize,
        /// Where it says it starts.
        got: u64,
        /// Where the one before ends.
        expected: u64,
    },
    /// More bytes than the sections take.
    #[error("{0} bytes follow the last section")]
    TrailingBody(u64),
    /// A section's goal is not a board of the shape, or not the one its kind
    /// needs.
    #[error("section {section} has a wrong goal")]
    Goal {
        /// The section.
        section: usize,
    },
    /// A section's entry count or lengths are not what its goal or group
    /// need.
    #[error("section {section} has {got} entries in {len} bytes, expected {expected}")]
    Entries {
        /// The section.
        section: usize,
        /// The entries it needs.
        expected: u64,
        /// The entries it says it has.
        got: u64,
        /// The bytes it says it has.
        len: u64,
    },
    /// A section larger than any reader allows.
    #[error(
        "section {section} claims {entries} entries, more than the {MAX_SECTION_ENTRIES} any file may hold"
    )]
    TooLarge {
        /// The section.
        section: usize,
        /// The entries claimed.
        entries: u64,
    },
    /// Pattern databases whose groups do not hold every tile once.
    #[error(
        "section {section}'s group of tiles {tiles:?} repeats a tile, holds the blank or a tile off the board, or the groups miss a tile"
    )]
    Groups {
        /// The section.
        section: usize,
        /// Its tiles.
        tiles: Vec<u8>,
    },
    /// Two sections for one goal, or sections out of order.
    #[error("section {section} is out of order")]
    Order {
        /// The section.
        section: usize,
    },
    /// A value no real file of its kind has.
    #[error(
        "section {section} says its longest answer is {got} moves, a {shape} board needs at most {bound}"
    )]
    Depth {
        /// The section.
        section: usize,
        /// The value claimed.
        got: u32,
        /// The shape.
        shape: Shape,
        /// The most it can be.
        bound: u32,
    },
}

/// The CRC-32 of `bytes`, as the format stores it.
pub fn checksum(bytes: &[u8]) -> u32 {
    crc32fast::hash(bytes)
}

/// A file read in place from any bytes: its header checked, its sections
/// located. Cheap: reading it touches only the first few hundred bytes;
/// [`RawFile::section`] checks a section's checksum when asked.
#[derive(Clone)]
pub struct RawFile<D> {
    data: D,
    header: Header,
    shape: Shape,
    kind: Kind,
    body_start: usize,
}

impl<D: AsRef<[u8]>> RawFile<D> {
    /// Reads the prefix and header of `data` and checks that the sections
    /// lie where the header says and fill the body exactly, with no section
    /// larger than [`MAX_SECTION_ENTRIES`].
    ///
    /// # Errors
    ///
    /// Fails with the first thing wrong: see [`FileError`].
    pub fn new(data: D) -> Result<RawFile<D>, FileError> {
        let (header, body_start) = read_header(data.as_ref())?;
        let shape = Shape::new(usize::from(header.rows), usize::from(header.cols)).ok_or(
            HeaderError::Shape {
                rows: header.rows,
                cols: header.cols,
            },
        )?;
        let kind = Kind::of(header.rank, header.codec).ok_or(HeaderError::Codec {
            rank: header.rank,
            codec: header.codec,
        })?;
        if header.reserved != 0 {
            return Err(HeaderError::Reserved.into());
        }
        if header.sections.is_empty() {
            return Err(HeaderError::NoSections.into());
        }
        let body_len = (data.as_ref().len() - body_start) as u64;
        let mut offset = 0u64;
        for (index, section) in header.sections.iter().enumerate() {
            if section.entries > MAX_SECTION_ENTRIES {
                return Err(HeaderError::TooLarge {
                    section: index,
                    entries: section.entries,
                }
                .into());
            }
            if section.offset != offset {
                return Err(HeaderError::Offset {
                    section: index,
                    got: section.offset,
                    expected: offset,
                }
                .into());
            }
            if Board::from_cells(shape, &section.goal).is_err() {
                return Err(HeaderError::Goal { section: index }.into());
            }
            offset = offset.saturating_add(section.len);
        }
        match body_len.cmp(&offset) {
            std::cmp::Ordering::Less => Err(FileError::Truncated {
                part: Part::Body,
                needed: body_start as u64 + offset,
                got: data.as_ref().len() as u64,
            }),
            std::cmp::Ordering::Greater => Err(HeaderError::TrailingBody(body_len - offset).into()),
            std::cmp::Ordering::Equal => Ok(RawFile {
                data,
                header,
                shape,
                kind,
                body_start,
            }),
        }
    }

    /// Reads `data` as [`RawFile::new`] does and checks that it holds
    /// `expected`.
    ///
    /// # Errors
    ///
    /// As [`RawFile::new`], or [`FileError::WrongKind`].
    pub fn of_kind(data: D, expected: Kind) -> Result<RawFile<D>, FileError> {
        let file = RawFile::new(data)?;
        match file.kind {
            kind if kind == expected => Ok(file),
            got => Err(FileError::WrongKind { expected, got }),
        }
    }

    /// The header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The board shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// What the file holds.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// The bytes of section `index`, unchecked.
    ///
    /// # Panics
    ///
    /// Panics if there is no such section.
    #[inline]
    pub fn section_bytes(&self, index: usize) -> &[u8] {
        let section = &self.header.sections[index];
        // `new` checked that every section lies inside the body.
        let start = self.body_start + section.offset as usize;
        &self.data.as_ref()[start..start + section.len as usize]
    }

    /// The bytes of section `index`, after checking their checksum.
    ///
    /// # Errors
    ///
    /// Fails if they do not match it.
    ///
    /// # Panics
    ///
    /// Panics if there is no such section.
    pub fn section(&self, index: usize) -> Result<&[u8], FileError> {
        let bytes = self.section_bytes(index);
        let expected = self.header.sections[index].crc32;
        match checksum(bytes) {
            got if got == expected => Ok(bytes),
            got => Err(FileError::Checksum {
                part: Part::Section(index),
                expected,
                got,
            }),
        }
    }

    /// Checks the checksum of every section.
    ///
    /// # Errors
    ///
    /// Fails with the first damaged section.
    pub fn verify(&self) -> Result<(), FileError> {
        (0..self.header.sections.len()).try_for_each(|index| self.section(index).map(drop))
    }

    /// Decompresses section `index` of a file of zstd frames, after checking
    /// its checksum, to exactly its `raw_len` bytes.
    ///
    /// # Errors
    ///
    /// Fails if the section is damaged or decodes to another length.
    pub fn decompress(&self, index: usize) -> Result<Decoded, FileError> {
        let frame = self.section(index)?;
        let raw_len = self.header.sections[index].raw_len as usize;
        let decode = |reason: String| FileError::Decode {
            part: Part::Section(index),
            reason,
        };
        // `raw_len` is bounded by `MAX_SECTION_ENTRIES`, so the buffer is.
        let mut raw = Decoded::zeroed(raw_len);
        let mut decompressor =
            zstd::bulk::Decompressor::new().map_err(|e| decode(e.to_string()))?;
        let got = decompressor
            .decompress_to_buffer(frame, &mut raw[..])
            .map_err(|e| decode(e.to_string()))?;
        match got == raw_len {
            true => Ok(raw),
            false => Err(decode(format!("{got} bytes, expected {raw_len}"))),
        }
    }

    /// The bytes the file was read from.
    pub fn data(&self) -> &D {
        &self.data
    }
}

impl<D> fmt::Debug for RawFile<D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RawFile")
            .field("shape", &self.shape)
            .field("kind", &self.kind)
            .field("sections", &self.header.sections.len())
            .finish_non_exhaustive()
    }
}

/// Reads and checks the prefix and header; returns the header and where the
/// body starts.
fn read_header(bytes: &[u8]) -> Result<(Header, usize), FileError> {
    if bytes.is_empty() {
        return Err(FileError::Empty);
    }
    let truncated = |part, needed: usize| FileError::Truncated {
        part,
        needed: needed as u64,
        got: bytes.len() as u64,
    };
    if !bytes.starts_with(&MAGIC[..bytes.len().min(MAGIC.len())]) {
        return Err(FileError::NotOurs);
    }
    if bytes.len() < PREFIX_LEN {
        return Err(truncated(Part::Prefix, PREFIX_LEN));
    }
    let word = |at: usize| prefix::word(bytes, at).expect("the prefix is whole");
    let version = word(8);
    if version != FORMAT_VERSION {
        return Err(FileError::Version {
            expected: FORMAT_VERSION,
            got: version,
        });
    }
    let header_len = word(12) as usize;
    if header_len > MAX_HEADER_LEN {
        return Err(HeaderError::TooLong {
            got: header_len as u64,
        }
        .into());
    }
    let body_start = PREFIX_LEN + header_len;
    let header_bytes = bytes
        .get(PREFIX_LEN..body_start)
        .ok_or_else(|| truncated(Part::Header, body_start))?;
    let got = checksum(header_bytes);
    if got != word(16) {
        return Err(FileError::Checksum {
            part: Part::Header,
            expected: word(16),
            got,
        });
    }
    let config = bincode::config::standard().with_limit::<MAX_HEADER_LEN>();
    let (header, used): (Header, usize) = bincode::serde::decode_from_slice(header_bytes, config)
        .map_err(|e| HeaderError::Decode(e.to_string()))?;
    if used != header_len {
        return Err(HeaderError::TrailingBytes(header_len - used).into());
    }
    Ok((header, body_start))
}

/// A section's entries decoded into memory. From 1 MiB on they lie on whole
/// huge pages, aligned to 2 MiB and advised to use them (Linux) before
/// anything touches them, so that walks that read all over them miss the
/// address-translation cache less.
pub struct Decoded(Huge<u8>);

impl Decoded {
    /// `len` zero bytes.
    pub fn zeroed(len: usize) -> Decoded {
        Decoded(Huge::zeroed(len))
    }
}

impl std::ops::Deref for Decoded {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        &self.0
    }
}

impl std::ops::DerefMut for Decoded {
    fn deref_mut(&mut self) -> &mut [u8] {
        &mut self.0
    }
}

impl fmt::Debug for Decoded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Decoded")
            .field("len", &self.0.len())
            .finish_non_exhaustive()
    }
}

/// A section to write: everything [`Section`] says but where it goes, and its
/// bytes.
#[derive(Clone, Debug)]
pub struct NewSection<'a> {
    /// The goal.
    pub goal: Board,
    /// A pattern database's group of tiles; empty for next moves.
    pub tiles: Vec<u8>,
    /// The number of entries.
    pub entries: u64,
    /// The largest entry.
    pub max_depth: u32,
    /// The length of the entries once decoded.
    pub raw_len: u64,
    /// The section's bytes as stored.
    pub bytes: &'a [u8],
}

/// Writes a whole file: prefix, header and sections in order. The same
/// sections give the same bytes.
///
/// # Errors
///
/// Fails if `out` fails.
pub fn write(
    out: &mut impl Write,
    shape: Shape,
    rank: RankScheme,
    codec: Codec,
    sections: &[NewSection<'_>],
) -> io::Result<()> {
    let mut header = Header {
        rows: shape.rows() as u8,
        cols: shape.cols() as u8,
        rank,
        codec,
        sections: Vec::with_capacity(sections.len()),
        reserved: 0,
    };
    let mut offset = 0u64;
    for section in sections {
        header.sections.push(Section {
            goal: section.goal.cells().to_vec(),
            tiles: section.tiles.clone(),
            entries: section.entries,
            max_depth: section.max_depth,
            offset,
            len: section.bytes.len() as u64,
            raw_len: section.raw_len,
            crc32: checksum(section.bytes),
        });
        offset += section.bytes.len() as u64;
    }
    let header_bytes = bincode::serde::encode_to_vec(&header, bincode::config::standard())
        .expect("a header always encodes");
    out.write_all(&MAGIC)?;
    out.write_all(&FORMAT_VERSION.to_le_bytes())?;
    out.write_all(&(header_bytes.len() as u32).to_le_bytes())?;
    out.write_all(&checksum(&header_bytes).to_le_bytes())?;
    out.write_all(&header_bytes)?;
    for section in sections {
        out.write_all(section.bytes)?;
    }
    Ok(())
}

/// One zstd frame with a content checksum, compressed single-threaded so that
/// the bytes depend only on the input, the level and the zstd version.
pub fn compress(raw: &[u8], level: i32) -> Vec<u8> {
    let mut compressor = zstd::bulk::Compressor::new(level).expect("the zstd level is valid");
    compressor
        .set_parameter(zstd::zstd_safe::CParameter::ChecksumFlag(true))
        .expect("zstd accepts the checksum flag");
    compressor.compress(raw).expect("zstd compresses in memory")
}
