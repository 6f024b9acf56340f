//! Builds the list of files the program carries from `generated/`: every
//! committed table (`*.table`), copied into OUT_DIR, and `builtin.rs`, which
//! includes them by name (see `src/data.rs`). A missing folder builds an
//! empty list, so that the generator can still be built to make the files;
//! the program then says which file is missing. Writes only into OUT_DIR.

use std::path::PathBuf;
use std::{env, fs};

const FOLDER: &str = "generated";

/// The kinds of file built in; anything else in the folder (large files
/// made on request) is left out.
const EXTENSIONS: [&str; 2] = ["table", "pdbz"];

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
        fs::write(out.join(name), bytes).expect("OUT_DIR is writable");
        list +=
            &format!("    ({name:?}, include_bytes!(concat!(env!(\"OUT_DIR\"), \"/{name}\"))),\n");
    }
    list += "]\n";
    fs::write(out.join("builtin.rs"), list).expect("OUT_DIR is writable");
}
