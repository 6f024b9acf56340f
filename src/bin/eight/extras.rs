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
    for command in [crate::Args::command(), crate::gen_args::Args::command()] {
        let name = command.get_name().to_string();
        let mut page = Vec::new();
        clap_mangen::Man::new(command.clone())
            .render(&mut page)
            .context("cannot make the manual page")?;
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
