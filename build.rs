//! Copies the committed table into OUT_DIR, where `Table::builtin` includes
//! it. A missing table becomes an empty one, so that the generator can still
//! be built to make it; the built-in table then refuses to load and says how
//! to regenerate it.

use std::path::{Path, PathBuf};
use std::{env, fs};

const TABLE: &str = "generated/eight.table";

fn main() {
    println!("cargo::rerun-if-changed={TABLE}");
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let bytes = fs::read(Path::new(TABLE)).unwrap_or_else(|_| {
        println!(
            "cargo::warning={TABLE} is missing; run `cargo run --release --bin eight-gen` to make it"
        );
        Vec::new()
    });
    fs::write(out.join("eight.table"), bytes).expect("OUT_DIR is writable");
}
