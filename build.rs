//! Builds the list of files the program carries from `generated/`: every
//! committed table (`*.table`) and compact database set (`*.pdbz`), copied
//! into OUT_DIR, and `builtin.rs`, which includes them by name (see
//! `src/data.rs`). A missing folder builds an empty list, so that the
//! generator can still be built to make the files; the program then says
//! which file is missing. Writes only into OUT_DIR.
//!
//! A table's sections are also decoded here, once, and built in decoded: a
//! walk reads them in place, and a query pays for no decompression (a 3x3
//! goal's cost a quarter of a millisecond, as much as the rest of answering
//! one board). zstd checks each frame's content checksum as it decodes; a
//! file that does not decode gets no decoded copy, and the program decodes
//! it, and says what is wrong with it, at run time.

use std::path::PathBuf;
use std::{env, fs};

#[path = "src/file/prefix.rs"]
#[allow(dead_code)]
mod prefix;

const FOLDER: &str = "generated";

/// The kinds of file built in; anything else in the folder (large files
/// made on request) is left out.
const EXTENSIONS: [&str; 2] = ["table", "pdbz"];

/// The most bytes a table decodes to: a 3x3 table is 408 KB.
const MOST_DECODED: u64 = 1 << 20;

fn main() {
    println!("cargo::rerun-if-changed={FOLDER}");
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let mut names: Vec<String> = fs::read_dir(FOLDER)
        .map(|entries| {
            entries
                .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
                .filter(|name| {
                    EXTENSIONS
                        .iter()
                        .any(|ext| name.strip_suffix(ext).is_some_and(|s| s.ends_with('.')))
                })
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    let mut list = String::from("&[\n");
    for name in &names {
        println!("cargo::rerun-if-changed={FOLDER}/{name}");
        let bytes = fs::read(format!("{FOLDER}/{name}")).expect("a listed file reads");
        let decoded = match name.ends_with(".table") {
            true => decode_sections(&bytes).unwrap_or_default(),
            false => Vec::new(),
        };
        fs::write(out.join(name), bytes).expect("OUT_DIR is writable");
        fs::write(out.join(format!("{name}.decoded")), decoded).expect("OUT_DIR is writable");
        list += &format!(
            "    ({name:?}, include_bytes!(concat!(env!(\"OUT_DIR\"), \"/{name}\")), \
             include_bytes!(concat!(env!(\"OUT_DIR\"), \"/{name}.decoded\"))),\n"
        );
    }
    list += "]\n";
    fs::write(out.join("builtin.rs"), list).expect("OUT_DIR is writable");
}

/// The sections of a table decoded back to back: its body is one zstd frame
/// a section, in order. `None` if any part does not decode.
fn decode_sections(bytes: &[u8]) -> Option<Vec<u8>> {
    if !bytes.starts_with(&prefix::MAGIC)
        || prefix::word(bytes, 8)? != prefix::FORMAT_VERSION
        || prefix::word(bytes, 12)? as usize > prefix::MAX_HEADER_LEN
    {
        return None;
    }
    let mut body = bytes.get(prefix::PREFIX_LEN + prefix::word(bytes, 12)? as usize..)?;
    let mut decoded = Vec::new();
    while !body.is_empty() {
        let len = zstd::zstd_safe::find_frame_compressed_size(body).ok()?;
        let (frame, rest) = body.split_at(len);
        let size = zstd::zstd_safe::get_frame_content_size(frame).ok()??;
        if decoded.len() as u64 + size > MOST_DECODED {
            return None;
        }
        let section = zstd::bulk::decompress(frame, size as usize).ok()?;
        if section.len() as u64 != size {
            return None;
        }
        decoded.extend_from_slice(&section);
        body = rest;
    }
    Some(decoded)
}
