//! Where an example writes its pictures: `out/<example>/` by default, or `--out DIR`.

use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};

/// The `--out DIR` option shared by every example (flatten it into the example's clap parser).
#[derive(clap::Args, Debug, Clone)]
pub struct OutArgs {
    /// Folder for the pictures (created if missing) (default: `out/<example>`).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

/// The output folder could not be made ready.
#[derive(Debug)]
pub struct OutDirError {
    dir: PathBuf,
    cause: std::io::Error,
}

impl fmt::Display for OutDirError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot write into the output folder {}: {} (choose another with --out DIR)",
            self.dir.display(),
            self.cause
        )
    }
}

impl std::error::Error for OutDirError {}

/// Creates the output folder (`requested`, or `out/<example>` when `None`) and checks that a
/// file can be written in it; returns its path.
pub fn out_dir(example: &str, requested: Option<&Path>) -> Result<PathBuf, OutDirError> {
    let dir = requested.map_or_else(|| Path::new("out").join(example), Path::to_path_buf);
    let fail = |cause| OutDirError {
        dir: dir.clone(),
        cause,
    };
    fs::create_dir_all(&dir).map_err(fail)?;
    let probe = dir.join(".tumble-write-probe");
    fs::write(&probe, b"").map_err(fail)?;
    let _ = fs::remove_file(&probe);
    Ok(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_in_place_of_the_folder_is_a_clear_error() {
        let base = std::env::temp_dir().join(format!("tumble-out-test-{}", std::process::id()));
        fs::create_dir_all(&base).unwrap();
        let file = base.join("not-a-folder");
        fs::write(&file, b"x").unwrap();
        let err = out_dir("x", Some(&file.join("sub")))
            .unwrap_err()
            .to_string();
        assert!(err.contains("cannot write into the output folder"), "{err}");
        let ok = out_dir("x", Some(&base.join("fine"))).unwrap();
        assert!(ok.is_dir());
        let _ = fs::remove_dir_all(&base);
    }
}
