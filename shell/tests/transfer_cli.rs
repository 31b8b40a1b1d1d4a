//! `sprout --import` / `--export` through the binary: every lesson dataset goes out as a
//! mongodump archive and as canonical mongoexport JSON, comes back in a new process, and reads
//! back identically; bad files exit with status 1 and name the line or byte.

use std::path::PathBuf;
use std::process::{Command, Output};

use shell::dataset::{DATASETS, dataset};

fn sprout(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sprout"))
        .args(args)
        .output()
        .expect("the sprout binary runs")
}

fn ok_stdout(args: &[&str]) -> String {
    let out = sprout(args);
    assert!(
        out.status.success(),
        "sprout {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn scratch_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sprout-transfer-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Prints every collection of `db` as canonical JSON with its indexes.
fn dump_script(db: &str) -> String {
    format!(
        "var d = db.getSiblingDB('{db}'); d.getCollectionNames().forEach(function (c) {{ \
           print(c); print(sprout.exportJSON(c, {{db: '{db}', jsonFormat: 'canonical'}})); \
           print(JSON.stringify(d.getCollection(c).getIndexes())); }})"
    )
}

#[test]
fn every_dataset_round_trips_through_cli_archives() {
    let dir = scratch_dir("archive");
    for (name, _) in DATASETS {
        let db = dataset(name).unwrap().db;
        let file = dir.join(format!("{name}.archive"));
        let file = file.to_str().unwrap();
        ok_stdout(&["--dataset", name, "--export", file]);
        let bytes = std::fs::read(file).unwrap();
        assert_eq!(
            &bytes[..4],
            &[0x6d, 0xe2, 0x99, 0x81],
            "{name}: magic number"
        );
        let script = dump_script(&db);
        let original = ok_stdout(&["--dataset", name, "--eval", &script]);
        let restored = ok_stdout(&["--import", file, "--db", &db, "--eval", &script]);
        assert!(original.len() > 100, "{name}: {original}");
        assert_eq!(original, restored, "{name}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_dataset_round_trips_through_cli_json() {
    let dir = scratch_dir("json");
    for (name, _) in DATASETS {
        let d = dataset(name).unwrap();
        for (coll, docs) in &d.collections {
            let file = dir.join(format!("{coll}.json"));
            let file = file.to_str().unwrap();
            ok_stdout(&[
                "--dataset",
                name,
                "--export",
                file,
                "--collection",
                coll,
                "--jsonFormat",
                "canonical",
            ]);
            let exported = std::fs::read_to_string(file).unwrap();
            assert_eq!(exported.lines().count(), docs.len(), "{name}.{coll}");
            // The collection defaults to the file's name, as mongoimport's does.
            let script = format!(
                "print(sprout.exportJSON('{coll}', {{db: '{}', jsonFormat: 'canonical'}}))",
                d.db
            );
            let reread = ok_stdout(&["--import", file, "--db", &d.db, "--eval", &script]);
            assert_eq!(reread, format!("{exported}\n"), "{name}.{coll}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn exports_go_to_standard_output_and_arrays_are_read_back() {
    let dir = scratch_dir("stdout");
    let array = ok_stdout(&[
        "--dataset",
        "b5-optimizing",
        "--export",
        "-",
        "--collection",
        "products",
        "--jsonArray",
    ]);
    assert!(
        array.starts_with("[{") && array.ends_with("}]\n"),
        "{array}"
    );
    let file = dir.join("p.json");
    std::fs::write(&file, &array).unwrap();
    let count = ok_stdout(&[
        "--import",
        file.to_str().unwrap(),
        "--collection",
        "items",
        "--jsonArray",
        "--eval",
        "db.items.countDocuments()",
    ]);
    assert_eq!(count.trim(), "10");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_files_exit_1_and_name_the_place() {
    let dir = scratch_dir("bad");
    let json = dir.join("bad.json");
    std::fs::write(&json, "{\"a\": 1}\n{\"a\": 2,}\n").unwrap();
    let out = sprout(&["--import", json.to_str().unwrap(), "--eval", "1"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("line 2") && err.contains("document #2"),
        "{err}"
    );

    let archive = dir.join("bad.archive");
    std::fs::write(&archive, b"not an archive").unwrap();
    let out = sprout(&["--import", archive.to_str().unwrap(), "--eval", "1"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("corrupt archive at byte 0"), "{err}");

    let out = sprout(&["--import", json.to_str().unwrap(), "--type", "csv"]);
    assert_eq!(out.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}
