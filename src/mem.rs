//! Memory and the cache: arrays on huge pages, for the tables and answers
//! read all over, and loads asked for ahead of their use.

/// A value whose bytes may all be zero.
///
/// # Safety
///
/// All-zero bytes must be a valid value of the type.
pub(crate) unsafe trait Zero: Copy {}

// SAFETY: every byte is a `u8`, every 8 bytes a `u64`.
unsafe impl Zero for u8 {}
// SAFETY: as above.
unsafe impl Zero for u64 {}

/// Values, all zero at first, on memory of their own. From half a huge page
/// (1 MiB) on, the memory is whole huge pages aligned to 2 MiB and advised
/// to use them (Linux) before anything touches it: an array of a few
/// megabytes read at random then costs a few faults of the kernel instead
/// of hundreds of small ones (about 2 µs each on the development machine),
/// and misses the address-translation cache less.
pub(crate) struct Huge<T: Zero> {
    items: std::ptr::NonNull<T>,
    len: usize,
}

// SAFETY: the values are owned, as a `Box<[T]>` owns them.
unsafe impl<T: Zero + Send> Send for Huge<T> {}
// SAFETY: as above.
unsafe impl<T: Zero + Sync> Sync for Huge<T> {}

impl<T: Zero> Huge<T> {
    /// The size of a huge page, and the alignment of large arrays.
    pub(crate) const PAGE: usize = 2 << 20;

    /// `len` zero values.
    pub(crate) fn zeroed(len: usize) -> Huge<T> {
        let (layout, huge) = Huge::<T>::layout(len);
        // SAFETY: the layout is not empty (at least one value, or aligned
        // to a huge page).
        let block = unsafe { std::alloc::alloc(layout) };
        let Some(items) = std::ptr::NonNull::new(block.cast::<T>()) else {
            std::alloc::handle_alloc_error(layout);
        };
        if huge {
            advise_huge(block, layout.size());
        }
        // SAFETY: the block holds `len` values; zero bytes make each a
        // valid one (`T: Zero`).
        unsafe { std::ptr::write_bytes(items.as_ptr(), 0, len) };
        Huge { items, len }
    }

    /// The layout of `len` values, and whether it is of huge pages.
    fn layout(len: usize) -> (std::alloc::Layout, bool) {
        let size = std::mem::size_of::<T>().checked_mul(len.max(1));
        let huge = size.is_some_and(|size| size >= Huge::<T>::PAGE / 2);
        // Whole huge pages: the kernel backs no part of one with a huge
        // page.
        let layout = match huge {
            true => size
                .and_then(|size| size.checked_next_multiple_of(Huge::<T>::PAGE))
                .map(|size| std::alloc::Layout::from_size_align(size, Huge::<T>::PAGE)),
            false => size
                .map(|size| std::alloc::Layout::from_size_align(size, std::mem::align_of::<T>())),
        };
        match layout {
            Some(Ok(layout)) => (layout, huge),
            _ => panic!("{len} values do not fit in memory"),
        }
    }
}

impl Huge<u64> {
    /// The words as atomics, for threads that share the writing.
    pub(crate) fn atomics(&mut self) -> &[std::sync::atomic::AtomicU64] {
        // SAFETY: an `AtomicU64` is a `u64` in memory, aligned to 8 bytes
        // (as the block is); the words are borrowed mutably, so nothing
        // else reads them as plain words meanwhile.
        unsafe { std::slice::from_raw_parts(self.items.as_ptr().cast(), self.len) }
    }
}

impl<T: Zero> std::ops::Deref for Huge<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        // SAFETY: `len` valid values, owned.
        unsafe { std::slice::from_raw_parts(self.items.as_ptr(), self.len) }
    }
}

impl<T: Zero> std::ops::DerefMut for Huge<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: `len` valid values, owned and borrowed mutably.
        unsafe { std::slice::from_raw_parts_mut(self.items.as_ptr(), self.len) }
    }
}

impl<T: Zero> Drop for Huge<T> {
    fn drop(&mut self) {
        // SAFETY: the block was allocated with this layout.
        unsafe { std::alloc::dealloc(self.items.as_ptr().cast(), Huge::<T>::layout(self.len).0) };
    }
}

/// Asks Linux to back the memory of `buffer`'s capacity with huge pages,
/// before anything touches it: large arrays read at random then cost a
/// fraction of the trips through the page tables. Elsewhere, and if the
/// kernel declines, nothing changes.
pub(crate) fn advise_huge_pages<T>(buffer: &mut Vec<T>) {
    let bytes = buffer.capacity() * std::mem::size_of::<T>();
    advise_huge(buffer.as_mut_ptr().cast(), bytes);
}

/// Asks Linux to back the whole 4 KB pages among the `len` bytes from
/// `block`, all of one allocation this process owns, with huge pages.
fn advise_huge(block: *mut u8, len: usize) {
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        let base = block as usize;
        let start = base.next_multiple_of(PAGE);
        let end = (base + len) / PAGE * PAGE;
        if end > start {
            // SAFETY: the range lies inside the allocation; the advice
            // only changes how its pages are backed, never what they hold,
            // and failing to take it is harmless.
            unsafe {
                libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (block, len);
}

/// Asks for `items[at]` to be brought into the cache, ahead of its use.
/// An `at` past the end asks for nothing useful, but harms nothing: no
/// branch checks it.
#[inline(always)]
pub(crate) fn prefetch<T>(items: &[T], at: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        let item = items.as_ptr().wrapping_add(at);
        // SAFETY: SSE, which prefetching needs, is part of every x86-64; a
        // prefetch reads nothing and cannot fault, whatever the address.
        unsafe {
            core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(item.cast())
        };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (items, at);
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::Ordering;

    use super::*;

    /// Small and large arrays alike start all zero and hold what is
    /// written; the large ones are whole huge pages, aligned to one.
    #[test]
    fn huge_arrays_start_zero_and_keep_what_is_written() {
        for len in [
            0,
            1,
            1000,
            Huge::<u8>::PAGE / 2 - 1,
            Huge::<u8>::PAGE / 2,
            3 << 20,
        ] {
            let mut bytes = Huge::<u8>::zeroed(len);
            assert_eq!(bytes.len(), len);
            assert!(bytes.iter().all(|&b| b == 0));
            if len >= Huge::<u8>::PAGE / 2 {
                assert_eq!(bytes.as_ptr() as usize % Huge::<u8>::PAGE, 0);
            }
            for (i, b) in bytes.iter_mut().enumerate() {
                *b = i as u8;
            }
            assert!(bytes.iter().enumerate().all(|(i, &b)| b == i as u8));
        }
        let mut words = Huge::<u64>::zeroed(181_440);
        assert_eq!(words.as_ptr() as usize % Huge::<u64>::PAGE, 0);
        for (i, word) in words.atomics().iter().enumerate() {
            word.store(i as u64 * 3, Ordering::Relaxed);
        }
        assert!(words.iter().enumerate().all(|(i, &w)| w == i as u64 * 3));
    }
}
