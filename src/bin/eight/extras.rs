//! The manual pages of both programs and their shell completions, made
//! from the arguments' definitions themselves, so they are never out of
//! date.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::CommandFactory;
use clap_complete::Shell;

/// Writes the manual pages of `eight` and `eight-gen` and their completions
/// for bash, zsh and fish under `share` (such as `~/.local/share`), where
/// `man`, bash-completion and fish look: `man/man1/eight.1`,
/// `bash-completion/completions/eight`, `zsh/site-functions/_eight`,
/// `fish/vendor_completions.d/eight.fish`, and the same for `eight-gen`.
/// Returns the files written.
pub fn install(share: &Path) -> Result<Vec<PathBuf>> {
    let mut written = Vec::new();
    for command in [crate::command(), crate::gen_args::Args::command()] {
        let name = command.get_name().to_string();
        let mut page = Vec::new();
        clap_mangen::Man::new(command.clone())
            .render(&mut page)
            .context("cannot make the manual page")?;
        if name == "eight" {
            page.extend_from_slice(EIGHT_SECTIONS.as_bytes());
            let mut serve = Vec::new();
            clap_mangen::Man::new(crate::serve_command().name("eight-serve"))
                .render(&mut serve)
                .context("cannot make the manual page")?;
            written.push(put(&share.join("man/man1"), "eight-serve.1", &serve)?);
        }
        written.push(put(&share.join("man/man1"), &format!("{name}.1"), &page)?);
        for (shell, folder, file) in [
            (Shell::Bash, "bash-completion/completions", name.clone()),
            (Shell::Zsh, "zsh/site-functions", format!("_{name}")),
            (
                Shell::Fish,
                "fish/vendor_completions.d",
                format!("{name}.fish"),
            ),
        ] {
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut command.clone(), &name, &mut script);
            written.push(put(&share.join(folder), &file, &script)?);
        }
    }
    Ok(written)
}

/// The sections of `eight`'s manual page that its arguments do not tell.
const EIGHT_SECTIONS: &str = r#".SH EXAMPLES
.TP
\fBecho "2 3 4 1 5 x 7 6 8" | eight\fR
The shortest answer, the lexicographically smallest: dlurullddrurdllurdr.
.TP
\fBeight boards.txt\fR
Every board of a file, an answer a line; \fB\-\fR reads stdin.
.TP
\fBeight \-\-random 1000 \-\-seed 7 | eight \-\-length\fR
The lengths of 1,000 random 3x3 boards.
.TP
\fBecho "2 3 4 1 5 x 7 6 8 URDLDR2U2LDLUR2DLUL" | eight \-\-judge\fR
optimal: moves in any notation eight writes are judged.
.TP
\fBeight serve \-\-open\fR
The page to play and watch answers, on http://127.0.0.1:8088/.
.TP
\fBeight\-gen \-\-shape 4x4\fR
The 4x4 databases that answer five times faster than the built-in ones.
.SH ENVIRONMENT
.TP
\fBEIGHT_DATA\fR
The data folder, where eight\-gen writes and eight reads the data of shapes
not built in; else eight in the user's data folder (\fBeight \-\-where\fR
tells). \fB\-\-data\fR overrides it.
.SH EXIT STATUS
0 every board answered (unsolvable is an answer); 1 some board invalid; 2
bad arguments, a file that cannot be read, data missing, wrong or changed
during the run, or a stdout that cannot be written; 130 and 143 stopped by
SIGINT or SIGTERM, after every finished answer.
"#;

/// Puts `bytes` in `folder` as `name`: written under a name of its own,
/// then renamed into place.
fn put(folder: &Path, name: &str, bytes: &[u8]) -> Result<PathBuf> {
    let path = folder.join(name);
    let cannot = || format!("cannot write {}", path.display());
    std::fs::create_dir_all(folder).with_context(cannot)?;
    let mut file = tempfile::NamedTempFile::new_in(folder).with_context(cannot)?;
    file.write_all(bytes).with_context(cannot)?;
    // Readable by all, as installed files are (a temporary file is not).
    let readable = std::os::unix::fs::PermissionsExt::from_mode(0o644);
    file.as_file()
        .set_permissions(readable)
        .with_context(cannot)?;
    file.persist(&path).with_context(cannot)?;
    Ok(path)
}
