//! The arguments of `eight-gen`, in a file of their own: `eight` reads them
//! too, to write eight-gen's manual page and completions with its own.

use std::path::PathBuf;

use eight::{Metric, Shape};

/// Makes the data `eight` answers from, the same bytes on every run.
///
/// Without --shape: every table built into `eight` (the shapes of up to 9
/// cells), into `generated/` of eight's source tree, where it must be run
/// (or into --out). With --shape: that shape's data, into the
/// data folder ($EIGHT_DATA, else the user's data folder; see --where):
/// tables of next moves for shapes of up to 12 cells (one file per goal's
/// blank cell), pattern databases for larger ones. With --metric mtm: the
/// tables of the multi-tile metric instead, and for larger shapes its
/// pattern databases (7-7-1 on 16 cells, groups of six tiles on 13 to 15,
/// of five on 17 to 25), which make its searches faster than those it
/// builds itself, and answer boards of more than 16 cells far from the
/// goal.
#[derive(clap::Parser, Debug)]
#[command(name = "eight-gen", version)]
pub struct Args {
    /// The shape to make data for, rows x columns (2x2 to 5x5, 2x12, 12x2).
    #[arg(long, value_name = "RxC")]
    pub shape: Option<Shape>,
    /// The same as --shape 4x4.
    #[arg(long, conflicts_with = "shape")]
    pub fifteen: bool,
    /// With --shape: the goal's blank cell (0 is the top left), or `all`.
    /// Defaults to the last cell, the usual goal; built-in tables have
    /// every cell.
    #[arg(long, value_name = "CELL")]
    pub blank: Option<String>,
    /// With --shape, for shapes of 14 to 25 cells: the sizes of the groups
    /// of tiles of the pattern databases, taken from the goal column by
    /// column on boards wider than tall (2x7, 3x5, 4x5), else row by row;
    /// four groups of six on 5x5 are Korf and Felner's pinwheel (default:
    /// the fewest groups of at most 600 million placements each, as even
    /// as can be, such as 7-8 for 4x4 and 6-6-6-6 for 5x5; 7-7-5 for 4x5).
    #[arg(long, value_name = "SIZES")]
    pub partition: Option<String>,
    /// With --shape 5x5: databases that know the blank's cell too, each
    /// placement with the cells of the blank its tiles wall in (two moves
    /// more each). Korf and Felner's 24-puzzle instances search 0.33 to
    /// 0.80 times the positions, at 0.5 to 0.75 times the rate; 2.55 GB
    /// against 510 MB, 7.5 GB of memory to make. The same file name: the
    /// search reads either.
    #[arg(long, conflicts_with = "metric")]
    pub walls: bool,
    /// The folder to write into (or check, with --check).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Make the data in memory and fail if the files differ; a data-folder
    /// file found equal has its proof recorded, as one just written does.
    #[arg(long)]
    pub check: bool,
    /// Print nothing but errors.
    #[arg(long, short)]
    pub quiet: bool,
    /// Print where the data folder is, then exit.
    #[arg(long = "where")]
    pub show_where: bool,
    /// The metric of the tables: `stm` or `mtm` (the multi-tile metric).
    /// With --shape, `stm` unless told; without, the built-in tables of
    /// both unless told.
    #[arg(long, value_name = "METRIC", conflicts_with = "partition")]
    pub metric: Option<Metric>,
}
