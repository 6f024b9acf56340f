//! The fixed prefix of every file, before its header: what tells a file of
//! ours, of this version, apart, and where its body starts.
//!
//! It uses nothing from the rest of the crate, so that the build script
//! (`build.rs`) finds the body of the built-in tables by the same rules.

/// The first eight bytes of every file.
pub const MAGIC: [u8; 8] = *b"EIGHTTBL";

/// The version of the layout this crate reads and writes.
pub const FORMAT_VERSION: u32 = 4;

/// Bytes before the header: magic, version, header length, header checksum.
pub const PREFIX_LEN: usize = 20;

/// The largest header this crate accepts.
pub const MAX_HEADER_LEN: usize = 64 * 1024;

/// The little-endian `u32` of the prefix at byte `at` (8 for the version, 12
/// for the header's length, 16 for its checksum); `None` past the end.
pub fn word(bytes: &[u8], at: usize) -> Option<u32> {
    let word = bytes.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes(word.try_into().ok()?))
}
