//! Making the data offline, as `eight-gen` does: the tables of next moves,
//! by a reverse breadth-first search from each goal ([`generate`]), and the
//! pattern databases ([`PatternDb::generate`], written by
//! [`write_databases`]), each in the one file format. Generation is
//! deterministic: the same code makes the same bytes. [`make`] makes any
//! [`DataFile`](crate::data::DataFile) as `eight-gen` does, and [`publish`]
//! puts a file in place whole.
//!
//! # Example
//!
//! ```
//! use eight::generate;
//! use eight::{Board, Shape, Table};
//!
//! // The 2x3 table toward the goal with the blank in its last cell.
//! let shape: Shape = "2x3".parse()?;
//! let bytes = generate::generate(shape, &[5], |_step| {});
//! let table = Table::new(bytes)?;
//! table.verify()?;
//! let board = Board::parse(shape, b"1 2 3 4 x 5")?;
//! assert_eq!(table.solve(&board)?.to_string(), "r");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub use crate::bfs::{entries, generate};
pub use crate::file::Codec;
pub use crate::generate::make::{PublishError, make, make_until, publish};
pub use crate::mtm::{generate as generate_mtm, generate_databases as generate_mtm_databases};
pub use crate::pdb::{
    PartitionError, PatternDb, build_memory, parse_sizes, partition, write as write_databases,
};
pub use crate::progress::Step;
pub use crate::rank::placements;
pub use crate::trust::{holds as file_holds, record as record_proof};

mod make;
