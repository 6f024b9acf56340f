//! An answer packed in a `u64`, 2 bits a move, and its letters written
//! four at a time.

/// The most moves an answer packed in a `u64` holds: 2 bits each over a
/// marker bit.
pub(crate) const MAX_PACKED: u32 = 31;

/// The letters of each byte of four 2-bit codes ([`Move::code`](crate::shape::Move::code)), the
/// lowest first, as the bytes of a word.
pub(crate) const SPELLING: [u32; 256] = {
    let mut table = [0u32; 256];
    let mut byte = 0;
    while byte < 256 {
        let mut i = 0;
        while i < 4 {
            table[byte] |= (b"dlru"[(byte >> (2 * i)) & 3] as u32) << (8 * i);
            i += 1;
        }
        byte += 1;
    }
    table
};

/// Appends the letters of a packed answer to `out`, four a step, and a
/// newline after them if `line`; returns its length. An answer never
/// derived (0) is empty.
#[inline(always)]
pub(crate) fn spell(answer: u64, line: bool, out: &mut Vec<u8>) -> usize {
    let len = Packed(answer).len();
    // Every letter the word may hold, eight a word, then the answer's
    // length kept: the words go out whole, with no buffer read back and no
    // copy of variable length (a call) a board.
    let start = out.len();
    out.reserve(4 * 8 + 1);
    for k in 0..4 {
        let byte = |i: usize| ((answer >> (8 * (2 * k + i))) & 0xFF) as usize;
        let word = u64::from(SPELLING[byte(0)]) | u64::from(SPELLING[byte(1)]) << 32;
        out.extend_from_slice(&word.to_le_bytes());
    }
    out.truncate(start + len);
    if line {
        out.push(b'\n');
    }
    len
}

/// An answer packed in a `u64`: 2 bits a move ([`Move::code`](crate::shape::Move::code)), the first
/// lowest, over a marker bit that tells the length. Every answer of up to
/// 31 moves fits, every 3x3 answer among them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Packed(pub(crate) u64);

impl Packed {
    /// The number of moves.
    pub fn len(self) -> usize {
        (63 - self.0.max(1).leading_zeros() as usize) / 2
    }

    /// The moves, in order.
    pub fn moves(self) -> impl Iterator<Item = crate::shape::Move> {
        (0..self.len()).map(move |i| crate::shape::Move::from_code((self.0 >> (2 * i)) as u8))
    }

    /// The answer as a derived answer's word.
    pub(crate) fn word(self) -> u64 {
        self.0
    }

    /// Appends the letters of the moves to `out`.
    #[cfg(test)]
    pub fn write(self, out: &mut Vec<u8>) {
        spell(self.0, false, out);
    }
}
