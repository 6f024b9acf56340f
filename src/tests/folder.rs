//! Data-folder files whose checksums are right but whose contents are
//! wrong: refused by the proof before any answer, the file and the command
//! that makes it anew named.

use crate::bfs;
use crate::file::{self, Codec, NewSection, RankScheme};
use crate::generate;
use crate::pdb::{PatternDb, PdbTable};
use crate::{Board, Metric, Shape};

/// Tables of a data folder whose checksums are right but whose codes are
/// wrong (every code `d`) are refused before any answer, 10-cell and 12-cell
/// alike, with the command that makes them anew.
#[test]
fn wrong_tables_of_ten_and_twelve_cells_are_refused_before_any_answer() {
    for (shape, blank) in [("2x5", 9), ("3x4", 11)] {
        let shape: Shape = shape.parse().unwrap();
        let entries = bfs::entries(shape);
        let codes = file::compress(&vec![0; entries.div_ceil(4) as usize], 3);
        let section = NewSection {
            goal: Board::goal(shape),
            tiles: Vec::new(),
            entries,
            max_depth: shape.diameter_bound() - 2,
            raw_len: entries.div_ceil(4),
            bytes: &codes,
        };
        let mut bytes = Vec::new();
        let (rank, codec) = (RankScheme::LehmerHalf, Codec::Zstd2Bit);
        file::write(&mut bytes, shape, rank, codec, &[section]).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let name = crate::data::DataFile::usual(shape, Metric::Stm, blank).name();
        std::fs::write(dir.path().join(name), &bytes).unwrap();
        let data = crate::DataDir::at(dir.path());
        let Err(err) = crate::Solver::open(
            &Board::canonical(shape, blank),
            &crate::Options::new().with_data(Ok(data.clone())),
        ) else {
            panic!("{shape}: the wrong table is refused")
        };
        let err = err.to_string();
        let command = format!("make it anew with `eight-gen --shape {shape} --blank {blank}");
        assert!(
            err.contains("the table is wrong") && err.contains(&command),
            "{shape}: {err}"
        );
    }
}

/// Pattern databases of a data folder whose checksums are right but whose
/// entries are wrong (one group's raised, or a single entry) are refused by
/// the proof before any answer, the file and its command named.
#[test]
fn crafted_databases_of_a_data_folder_are_refused_by_the_proof() {
    let shape = Shape::FIFTEEN;
    let made = crate::data::DataFile::databases(shape, Metric::Stm, &[5, 5, 5], 0);
    let right = generate::make(&made, &crate::Stop::new(), |_| {})
        .unwrap()
        .unwrap();
    let table = PdbTable::new(&right[..]).unwrap();
    let goal = *table.goal();
    let rewritten = |change: &dyn Fn(usize, usize, u8) -> u8| {
        let dbs: Vec<PatternDb> = table
            .databases()
            .iter()
            .enumerate()
            .map(|(group, db)| {
                let entries = db.entries().iter().enumerate();
                let entries = entries.map(|(i, &e)| change(group, i, e)).collect();
                PatternDb::from_entries(&goal, db.tiles(), entries)
            })
            .collect();
        let mut out = Vec::new();
        crate::pdb::write(&goal, &dbs, Codec::Raw8, &mut out).unwrap();
        out
    };
    let inflated = rewritten(&|group, _, e| if group == 1 && e > 0 { e + 8 } else { e });
    let one = rewritten(&|group, i, e| if group == 2 && i == 777 { e + 2 } else { e });
    for (what, bytes) in [
        ("right", &right),
        ("inflated", &inflated),
        ("one entry", &one),
    ] {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(made.name()), bytes).unwrap();
        let data = crate::DataDir::at(dir.path());
        let loaded = crate::Solver::open(
            &Board::canonical(shape, 0),
            &crate::Options::new()
                .with_data(Ok(data.clone()))
                .with_partition(vec![5, 5, 5]),
        );
        match (what, loaded) {
            ("right", loaded) => assert!(loaded.is_ok(), "{what}"),
            (_, Ok(_)) => panic!("{what}: a wrong file answers"),
            (_, Err(err)) => {
                let err = err.to_string();
                assert!(err.contains("4x4-5-5-5-blank0.pdb"), "{what}: {err}");
                assert!(
                    err.contains("make it anew with `eight-gen --shape 4x4"),
                    "{what}: {err}"
                );
            }
        }
    }
}
