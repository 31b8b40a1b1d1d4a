//! Files in and out of a [`Shell`]'s engine in MongoDB's formats: `mongoexport`/`mongoimport`
//! JSON (lines or `--jsonArray`) and `mongodump --archive`. The `sprout` CLI's `--import` and
//! `--export` read and write the files; this module turns their bytes into the engine's
//! transfer commands (`sproutImportJSON`, `sproutExportJSON`, `sproutImportArchive`,
//! `sproutExportArchive`), the same commands `sprout.importJSON()` and friends run.

use bson::spec::BinarySubtype;
use bson::{Binary, Bson, Document, doc};

use crate::Shell;

/// Which of MongoDB's formats a file is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileFormat {
    /// `mongoexport`/`mongoimport` JSON.
    Json,
    /// A `mongodump --archive` file.
    Archive,
}

impl FileFormat {
    /// `--type json|archive`.
    pub fn parse(name: &str) -> Result<FileFormat, String> {
        match name {
            "json" => Ok(FileFormat::Json),
            "archive" => Ok(FileFormat::Archive),
            other => Err(format!("unknown --type '{other}': use 'json' or 'archive'")),
        }
    }

    /// The format a file name suggests: `.archive` is an archive, anything else JSON.
    pub fn of_path(path: &str) -> FileFormat {
        if path.ends_with(".archive") {
            FileFormat::Archive
        } else {
            FileFormat::Json
        }
    }
}

/// What an import or export is asked to do (the CLI's options).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TransferOptions {
    /// The database (default: the shell's current one).
    pub db: Option<String>,
    /// The collection a JSON file is read into or exported from.
    pub collection: Option<String>,
    /// JSON as one array instead of one document per line.
    pub json_array: bool,
    /// `canonical` or `relaxed` (the default) Extended JSON on export.
    pub json_format: Option<String>,
    /// Drop each target collection before importing.
    pub drop: bool,
    /// The archive's database to import when it holds several.
    pub from_db: Option<String>,
    /// Insert without document validation.
    pub bypass_document_validation: bool,
}

/// Imports `bytes` in `format`; returns a one-line summary.
pub fn import_bytes(
    shell: &mut Shell,
    bytes: Vec<u8>,
    format: FileFormat,
    options: &TransferOptions,
) -> Result<String, String> {
    let db = database(shell, options);
    match format {
        FileFormat::Json => {
            let collection = json_collection(options, "importing")?;
            let text = String::from_utf8(bytes).map_err(|e| {
                format!(
                    "the JSON file is not UTF-8 text (byte {})",
                    e.utf8_error().valid_up_to()
                )
            })?;
            let mut command = doc! {
                "sproutImportJSON": collection.as_str(),
                "text": text,
                "jsonArray": options.json_array,
                "drop": options.drop,
            };
            bypass(&mut command, options);
            let reply = run(shell, &db, &command)?;
            Ok(format!(
                "{} document(s) imported into {db}.{collection}",
                count(&reply, "imported")
            ))
        }
        FileFormat::Archive => {
            let mut command = doc! {
                "sproutImportArchive": Binary { subtype: BinarySubtype::Generic, bytes },
                "drop": options.drop,
            };
            if let Some(from) = &options.from_db {
                command.insert("fromDb", from.as_str());
            }
            bypass(&mut command, options);
            let reply = run(shell, &db, &command)?;
            let collections = reply.get_array("collections").map_or(0, Vec::len);
            Ok(format!(
                "{} document(s) in {collections} collection(s) restored into {db}",
                count(&reply, "restored")
            ))
        }
    }
}

/// The bytes of an export in `format`.
pub fn export_bytes(
    shell: &mut Shell,
    format: FileFormat,
    options: &TransferOptions,
) -> Result<Vec<u8>, String> {
    let db = database(shell, options);
    match format {
        FileFormat::Json => {
            let collection = json_collection(options, "exporting")?;
            let mut command = doc! {
                "sproutExportJSON": collection.as_str(),
                "jsonArray": options.json_array,
            };
            if let Some(format) = &options.json_format {
                command.insert("jsonFormat", format.as_str());
            }
            let reply = run(shell, &db, &command)?;
            match reply.get("text") {
                Some(Bson::String(text)) => Ok(text.clone().into_bytes()),
                _ => Err("the export command returned no text".to_string()),
            }
        }
        FileFormat::Archive => {
            let mut command = doc! {"sproutExportArchive": 1};
            if let Some(collection) = &options.collection {
                command.insert("collections", vec![collection.as_str()]);
            }
            let reply = run(shell, &db, &command)?;
            match reply.get("archive") {
                Some(Bson::Binary(b)) => Ok(b.bytes.clone()),
                _ => Err("the export command returned no archive".to_string()),
            }
        }
    }
}

fn json_collection(options: &TransferOptions, doing: &str) -> Result<String, String> {
    options
        .collection
        .clone()
        .ok_or_else(|| format!("{doing} JSON needs --collection"))
}

fn database(shell: &mut Shell, options: &TransferOptions) -> String {
    options.db.clone().unwrap_or_else(|| shell.current_db())
}

fn bypass(command: &mut Document, options: &TransferOptions) {
    if options.bypass_document_validation {
        command.insert("bypassDocumentValidation", true);
    }
}

fn run(shell: &mut Shell, db: &str, command: &Document) -> Result<Document, String> {
    let reply = shell.with_engine(|e| e.run_command(db, command));
    if reply.get("ok").and_then(Bson::as_f64) == Some(1.0) {
        return Ok(reply);
    }
    let name = reply.get_str("codeName").unwrap_or("Error");
    let message = reply.get_str("errmsg").unwrap_or("the command failed");
    Err(format!("MongoServerError[{name}]: {message}"))
}

fn count(reply: &Document, field: &str) -> i64 {
    match reply.get(field) {
        Some(Bson::Int32(n)) => i64::from(*n),
        Some(Bson::Int64(n)) => *n,
        _ => 0,
    }
}
