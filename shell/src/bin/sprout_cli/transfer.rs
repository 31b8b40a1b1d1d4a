//! The CLI's `--import FILE` and `--export FILE` (files in MongoDB's formats; see
//! `docs/sprout-shell.md`): their options, and reading and writing the files. The conversion
//! itself is `shell::transfer`, through the engine's transfer commands.
//!
//! ```text
//! sprout --import FILE [--type json|archive] [--collection C] [--db D] [--jsonArray] [--drop]
//!                      [--fromDb D] [--bypassDocumentValidation]
//! sprout --export FILE [--type json|archive] [--collection C] [--db D] [--jsonArray]
//!                      [--jsonFormat relaxed|canonical]
//! ```
//! `FILE` may be `-` (standard input or output). Without `--type`, a name ending in `.archive`
//! is an archive and anything else JSON. An import runs after `--dataset` and before any code;
//! an export runs after the code. The options apply to both when both are given.

use std::ffi::{OsStr, OsString};
use std::io::{Read, Write};
use std::path::PathBuf;

use shell::Shell;
use shell::transfer::{FileFormat, TransferOptions, export_bytes, import_bytes};

/// The transfer options of one command line.
#[derive(Debug, Default)]
pub struct TransferArgs {
    import: Option<OsString>,
    export: Option<OsString>,
    format: Option<FileFormat>,
    options: TransferOptions,
}

impl TransferArgs {
    /// Consumes `arg` (and its value from `rest`) when it is a transfer option; returns whether
    /// it was one.
    pub fn take<T: Into<OsString>>(
        &mut self,
        arg: &OsStr,
        rest: &mut dyn Iterator<Item = T>,
    ) -> Result<bool, String> {
        let Some(arg) = arg.to_str() else {
            return Ok(false);
        };
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n, Some(OsString::from(v))),
            _ => (arg, None),
        };
        let mut value = |what: &str| -> Result<OsString, String> {
            match inline.clone() {
                Some(v) => Ok(v),
                None => rest
                    .next()
                    .map(Into::into)
                    .ok_or_else(|| format!("{name} needs {what}")),
            }
        };
        let text = |v: OsString| -> Result<String, String> {
            v.into_string()
                .map_err(|v| format!("{name}: {} is not valid UTF-8", v.to_string_lossy()))
        };
        match name {
            "--import" => self.import = Some(value("a file")?),
            "--export" => self.export = Some(value("a file")?),
            "--type" => self.format = Some(FileFormat::parse(&text(value("json or archive")?)?)?),
            "--db" | "-d" => self.options.db = Some(text(value("a database name")?)?),
            "--collection" | "-c" => {
                self.options.collection = Some(text(value("a collection name")?)?)
            }
            "--jsonArray" => self.options.json_array = true,
            "--jsonFormat" => {
                let format = text(value("relaxed or canonical")?)?;
                if format != "relaxed" && format != "canonical" {
                    return Err(format!(
                        "unknown --jsonFormat '{format}': use 'relaxed' or 'canonical'"
                    ));
                }
                self.options.json_format = Some(format);
            }
            "--drop" => self.options.drop = true,
            "--fromDb" => self.options.from_db = Some(text(value("a database name")?)?),
            "--bypassDocumentValidation" => self.options.bypass_document_validation = true,
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// Whether the command line exports (then no interactive shell starts).
    pub fn exports(&self) -> bool {
        self.export.is_some()
    }

    fn format_of(&self, file: &OsStr) -> FileFormat {
        self.format
            .unwrap_or_else(|| FileFormat::of_path(&file.to_string_lossy()))
    }

    /// Runs the `--import`, if any; the summary goes to standard error.
    pub fn run_import(&self, shell: &mut Shell) -> Result<(), String> {
        let Some(file) = &self.import else {
            return Ok(());
        };
        let format = self.format_of(file);
        let bytes = read_input(file)?;
        let mut options = self.options.clone();
        if format == FileFormat::Json && options.collection.is_none() && file != "-" {
            // mongoimport's default: the file's name without its extension.
            options.collection = PathBuf::from(file)
                .file_stem()
                .and_then(OsStr::to_str)
                .map(str::to_string);
        }
        let summary = import_bytes(shell, bytes, format, &options)
            .map_err(|e| format!("cannot import {}: {e}", file.to_string_lossy()))?;
        eprintln!("sprout: {summary}");
        Ok(())
    }

    /// Runs the `--export`, if any.
    pub fn run_export(&self, shell: &mut Shell) -> Result<(), String> {
        let Some(file) = &self.export else {
            return Ok(());
        };
        let bytes = export_bytes(shell, self.format_of(file), &self.options)
            .map_err(|e| format!("cannot export {}: {e}", file.to_string_lossy()))?;
        if file == "-" {
            let mut out = std::io::stdout().lock();
            return out
                .write_all(&bytes)
                .and_then(|()| out.flush())
                .map_err(|e| format!("cannot write the export: {e}"));
        }
        std::fs::write(file, &bytes)
            .map_err(|e| format!("cannot write {}: {e}", file.to_string_lossy()))
    }
}

fn read_input(file: &OsStr) -> Result<Vec<u8>, String> {
    if file == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| format!("cannot read standard input: {e}"))?;
        return Ok(bytes);
    }
    std::fs::read(file).map_err(|e| format!("cannot read {}: {e}", file.to_string_lossy()))
}
