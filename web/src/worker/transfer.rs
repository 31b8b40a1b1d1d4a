//! Runs a [`Transfer`] the page asked for in the asking page's shell session, through
//! `shell::transfer` (the code the `sprout` CLI's `--import`/`--export` run, which runs the
//! engine's `sproutExportJSON`/`sproutImportJSON`/`sproutExportArchive`/`sproutImportArchive`
//! commands).

use shell::Shell;
use shell::transfer::{FileFormat, TransferOptions, export_bytes, import_bytes};

use crate::protocol::transfer::{
    Transfer, TransferFormat, TransferOutcome, decode, encode, format_name,
};

/// Runs `transfer` in `shell` (whose engine is the database's). An import is all or nothing
/// (the engine's commands put back what they touched when they fail).
pub fn run(shell: &mut Shell, transfer: &Transfer) -> Result<TransferOutcome, String> {
    match transfer {
        Transfer::Export {
            db,
            collection,
            format,
        } => {
            let options = options(db, collection, *format);
            let bytes = export_bytes(shell, file_format(*format), &options)?;
            let what = match collection {
                Some(c) => format!("{db}.{c}"),
                None => format!("database {db}"),
            };
            Ok(TransferOutcome {
                summary: format!(
                    "exported {what} as {} ({} bytes)",
                    format_name(*format),
                    bytes.len()
                ),
                file: Some(encode(&bytes)),
            })
        }
        Transfer::Import {
            db,
            collection,
            format,
            data,
        } => {
            let bytes = decode(data)?;
            let summary = import_bytes(
                shell,
                bytes,
                file_format(*format),
                &options(db, collection, *format),
            )?;
            Ok(TransferOutcome {
                summary,
                file: None,
            })
        }
    }
}

fn options(db: &str, collection: &Option<String>, format: TransferFormat) -> TransferOptions {
    TransferOptions {
        db: Some(db.to_string()),
        collection: collection.clone(),
        json_array: format == TransferFormat::JsonArray,
        ..TransferOptions::default()
    }
}

fn file_format(format: TransferFormat) -> FileFormat {
    match format {
        TransferFormat::Archive => FileFormat::Archive,
        TransferFormat::JsonLines | TransferFormat::JsonArray => FileFormat::Json,
    }
}
#[cfg(test)]
mod tests {
    use bson::doc;
    use engine::Engine;
    use shell::ShellConfig;

    use super::*;
    use crate::protocol::transfer::detect_format;

    fn shell() -> Shell {
        Shell::new(Engine::new(), ShellConfig::default())
    }

    #[test]
    fn an_archive_goes_out_and_comes_back() {
        let mut from = shell();
        let _ = from.with_engine(|e| {
            e.run_command(
                "shop",
                &doc! {"insert": "orders", "documents": [{"_id": 1, "n": 2}]},
            )
        });
        let exported = run(
            &mut from,
            &Transfer::Export {
                db: "shop".into(),
                collection: None,
                format: TransferFormat::Archive,
            },
        )
        .unwrap();
        let data = exported.file.unwrap();
        assert_eq!(
            detect_format(&decode(&data).unwrap()),
            TransferFormat::Archive
        );
        let mut to = shell();
        let imported = run(
            &mut to,
            &Transfer::Import {
                db: "copy".into(),
                collection: None,
                format: TransferFormat::Archive,
                data,
            },
        )
        .unwrap();
        assert!(
            imported.summary.contains("1 document(s)"),
            "{}",
            imported.summary
        );
        let found = to.with_engine(|e| e.run_command("copy", &doc! {"count": "orders"}));
        assert_eq!(found.get_i32("n").ok(), Some(1), "{found}");
    }

    #[test]
    fn json_lines_export_as_mongoexport_writes_them() {
        let mut s = shell();
        let _ = s.with_engine(|e| {
            e.run_command(
                "test",
                &doc! {"insert": "p", "documents": [{"_id": 1}, {"_id": 2}]},
            )
        });
        let out = run(
            &mut s,
            &Transfer::Export {
                db: "test".into(),
                collection: Some("p".into()),
                format: TransferFormat::JsonLines,
            },
        )
        .unwrap();
        let text = String::from_utf8(decode(&out.file.unwrap()).unwrap()).unwrap();
        assert_eq!(text, "{\"_id\":1}\n{\"_id\":2}\n");
        let bad = run(
            &mut s,
            &Transfer::Import {
                db: "test".into(),
                collection: Some("q".into()),
                format: TransferFormat::JsonLines,
                data: encode(b"{\"a\": 1}\n{oops"),
            },
        );
        assert!(bad.is_err_and(|e| e.contains("line 2")));
    }
}
