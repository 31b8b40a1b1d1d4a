//! The Server Selection and Max Staleness specification tests
//! (`mongodb-specifications/source/server-selection/tests/` and `max-staleness/tests/`) through
//! `engine::replication::server_selection`, the code that routes reads in Sprout's simulated
//! replica set.
//!
//! - `server_selection/<Topology>/<read|write>/*.json` and `max-staleness/<Topology>/*.json`: a
//!   topology, an operation and a read preference; the suitable servers and the latency window
//!   must be exactly the expected ones (compared as sets of addresses), or selection must refuse
//!   the read preference when the file says `error: true`.
//! - `rtt/*.json`: the average round-trip time after one more sample.
//! - `in_window/*.json`: repeated selection within the latency window by operation count (the
//!   "power of two choices"), with a seeded generator; each server's frequency must be within
//!   the file's tolerance of the expected one.
//! - `logging/*.json` are unified-format tests of a driver's log messages: skipped (Sprout has
//!   no driver connection pool or logger).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use engine::replication::server_selection::{
    Operation, ReadPreference, ReadPreferenceMode, SelectionSettings, ServerDescription,
    ServerType, TagSet, TopologyDescription, TopologyType, average_rtt, choose_in_window,
    latency_window, suitable_servers,
};
use serde_json::Value;

use super::report::{Outcome, Report, catch_panic, quiet_panics};

/// Runs both suites and returns the report (call [`Report::finish`] on it).
pub fn run() -> Result<Report, String> {
    let specs = super::data_dir()?.join("mongodb-specifications/source");
    let selection = specs.join("server-selection/tests");
    let staleness = specs.join("max-staleness/tests");
    let mut report = Report::new(
        "server_selection",
        "Server selection and max staleness",
        "Data: `mongodb-specifications/source/server-selection/tests/` and \
         `max-staleness/tests/` (JSON) through `engine::replication::server_selection`. Areas \
         are the test folders; suitable servers and latency windows are compared as sets of \
         addresses.",
        &[],
    );
    let _quiet = quiet_panics();
    for (topology_dir, files) in json_files_by_folder(&selection.join("server_selection"))? {
        let area = format!("server_selection/{topology_dir}");
        for path in files {
            let id = format!("server_selection/{}", relative(&selection, &path));
            let outcome = load(&path)
                .and_then(|v| catch_panic(|| check_selection(&v, &path)).unwrap_or_else(Err));
            report.push(&id, &area, to_outcome(outcome));
        }
    }
    for (topology_dir, files) in json_files_by_folder(&staleness)? {
        let area = format!("max-staleness/{topology_dir}");
        for path in files {
            let id = format!("max-staleness/{}", relative(&staleness, &path));
            let outcome = load(&path)
                .and_then(|v| catch_panic(|| check_selection(&v, &path)).unwrap_or_else(Err));
            report.push(&id, &area, to_outcome(outcome));
        }
    }
    for path in super::list_files(&selection.join("rtt"), ".json")? {
        let id = format!("rtt/{}", super::file_name(&path));
        let outcome = load(&path).and_then(|v| check_rtt(&v));
        report.push(&id, "rtt", to_outcome(outcome));
    }
    for path in super::list_files(&selection.join("in_window"), ".json")? {
        let id = format!("in_window/{}", super::file_name(&path));
        let outcome =
            load(&path).and_then(|v| catch_panic(|| check_in_window(&v)).unwrap_or_else(Err));
        report.push(&id, "in_window", to_outcome(outcome));
    }
    for path in super::list_files(&selection.join("logging"), ".json")? {
        let id = format!("logging/{}", super::file_name(&path));
        report.push(
            &id,
            "logging",
            Outcome::Skip(
                "unified-format tests of a driver's server-selection log messages: Sprout has \
                 no driver logger or connection pool to observe"
                    .to_string(),
            ),
        );
    }
    if report.cases().is_empty() {
        return Err(format!(
            "no server selection tests under {}",
            specs.display()
        ));
    }
    Ok(report)
}

/// The `.json` files below `root`, grouped by their first folder (`ReplicaSetWithPrimary`…),
/// both sorted.
fn json_files_by_folder(root: &Path) -> Result<BTreeMap<String, Vec<std::path::PathBuf>>, String> {
    let mut groups: BTreeMap<String, Vec<std::path::PathBuf>> = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let entries =
            std::fs::read_dir(&dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
        for entry in entries.filter_map(Result::ok) {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "json") {
                let rel = relative(root, &path);
                if let Some((first, _)) = rel.split_once('/') {
                    groups.entry(first.to_string()).or_default().push(path);
                }
            }
        }
    }
    for files in groups.values_mut() {
        files.sort();
    }
    Ok(groups)
}

fn relative(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .to_string_lossy()
        .replace('\\', "/")
}

fn load(path: &Path) -> Result<Value, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read: {e}"))?;
    serde_json::from_str(&text).map_err(|e| format!("malformed test file: {e}"))
}

fn to_outcome(result: Result<(), String>) -> Outcome {
    match result {
        Ok(()) => Outcome::Pass,
        Err(msg) => Outcome::Fail(msg),
    }
}

/// An integer written plainly or as `{"$numberLong": "…"}`.
fn int(value: &Value) -> Option<i64> {
    match value {
        Value::Number(n) => n.as_i64().or_else(|| n.as_f64().map(|f| f as i64)),
        Value::Object(map) => map.get("$numberLong")?.as_str()?.parse().ok(),
        _ => None,
    }
}

fn server(value: &Value) -> Result<ServerDescription, String> {
    let address = value
        .get("address")
        .and_then(Value::as_str)
        .ok_or("server without an address")?;
    let type_name = value.get("type").and_then(Value::as_str).unwrap_or("");
    let server_type =
        ServerType::parse(type_name).ok_or(format!("unknown server type {type_name:?}"))?;
    let tags = match value.get("tags") {
        Some(Value::Object(map)) => map
            .iter()
            .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string()))
            .collect(),
        _ => BTreeMap::new(),
    };
    Ok(ServerDescription {
        address: address.to_string(),
        server_type,
        avg_rtt_ms: value.get("avg_rtt_ms").and_then(Value::as_f64),
        tags,
        last_write_date_ms: value
            .get("lastWrite")
            .and_then(|w| w.get("lastWriteDate"))
            .and_then(int)
            .unwrap_or(0),
        last_update_time_ms: value.get("lastUpdateTime").and_then(int).unwrap_or(0),
    })
}

fn topology(test: &Value) -> Result<TopologyDescription, String> {
    let description = test
        .get("topology_description")
        .ok_or("no topology_description")?;
    let type_name = description
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or("");
    let topology_type =
        TopologyType::parse(type_name).ok_or(format!("unknown topology type {type_name:?}"))?;
    let servers = description
        .get("servers")
        .and_then(Value::as_array)
        .map(|list| list.iter().map(server).collect::<Result<Vec<_>, _>>())
        .transpose()?
        .unwrap_or_default();
    Ok(TopologyDescription {
        topology_type,
        servers,
    })
}

fn read_preference(test: &Value) -> Result<ReadPreference, String> {
    let Some(doc) = test.get("read_preference") else {
        return Ok(ReadPreference::new(ReadPreferenceMode::Primary));
    };
    let mode = match doc.get("mode").and_then(Value::as_str) {
        Some(name) => ReadPreferenceMode::parse(name).ok_or(format!("unknown mode {name:?}"))?,
        None => ReadPreferenceMode::Primary,
    };
    let mut rp = ReadPreference::new(mode);
    if let Some(sets) = doc.get("tag_sets").and_then(Value::as_array) {
        rp.tag_sets = sets
            .iter()
            .map(|set| {
                set.as_object()
                    .map(|m| {
                        m.iter()
                            .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string()))
                            .collect::<TagSet>()
                    })
                    .unwrap_or_default()
            })
            .collect();
    }
    rp.max_staleness_seconds = doc.get("maxStalenessSeconds").and_then(int);
    Ok(rp)
}

fn addresses_of(list: Option<&Value>) -> BTreeSet<String> {
    list.and_then(Value::as_array)
        .map(|l| {
            l.iter()
                .filter_map(|s| s.get("address").and_then(Value::as_str))
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

fn check_selection(test: &Value, path: &Path) -> Result<(), String> {
    let topology = topology(test)?;
    let rp = read_preference(test)?;
    // Max-staleness files have no `operation`: they are reads.
    let operation = match test.get("operation").and_then(Value::as_str) {
        Some("write") => Operation::Write,
        _ => Operation::Read,
    };
    let mut settings = SelectionSettings::default();
    if let Some(ms) = test.get("heartbeatFrequencyMS").and_then(int) {
        settings.heartbeat_frequency_ms = ms;
    }
    let deprioritized: Vec<String> = addresses_of(test.get("deprioritized_servers"))
        .into_iter()
        .collect();
    let deprioritized: Vec<&str> = deprioritized.iter().map(String::as_str).collect();
    let result = suitable_servers(&topology, operation, &rp, &settings, &deprioritized);
    if test.get("error").and_then(Value::as_bool) == Some(true) {
        return match result {
            Err(_) => Ok(()),
            Ok(found) => Err(format!(
                "expected an error, selected {:?}",
                found.iter().map(|s| &s.address).collect::<Vec<_>>()
            )),
        };
    }
    let suitable = result.map_err(|e| format!("unexpected error: {e}"))?;
    let got: BTreeSet<String> = suitable.iter().map(|s| s.address.clone()).collect();
    let want = addresses_of(test.get("suitable_servers"));
    if got != want {
        return Err(format!(
            "{}: suitable servers {got:?}, expected {want:?}",
            path.display()
        ));
    }
    let window: BTreeSet<String> = latency_window(&suitable, &settings)
        .iter()
        .map(|s| s.address.clone())
        .collect();
    let want_window = addresses_of(test.get("in_latency_window"));
    if window != want_window {
        return Err(format!(
            "latency window {window:?}, expected {want_window:?}"
        ));
    }
    Ok(())
}

fn check_rtt(test: &Value) -> Result<(), String> {
    let previous = test.get("avg_rtt_ms").and_then(Value::as_f64);
    let sample = test
        .get("new_rtt_ms")
        .and_then(Value::as_f64)
        .ok_or("no new_rtt_ms")?;
    let want = test
        .get("new_avg_rtt")
        .and_then(Value::as_f64)
        .ok_or("no new_avg_rtt")?;
    let got = average_rtt(previous, sample);
    if (got - want).abs() > 1e-9 {
        return Err(format!("average {got}, expected {want}"));
    }
    Ok(())
}

/// A small deterministic generator (SplitMix64) for the random choices of `in_window` tests.
struct SplitMix(u64);

impl SplitMix {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z % n.max(1) as u64) as usize
    }
}

fn check_in_window(test: &Value) -> Result<(), String> {
    let topology = topology(test)?;
    let counts: BTreeMap<String, u64> = test
        .get("mocked_topology_state")
        .and_then(Value::as_array)
        .map(|l| {
            l.iter()
                .filter_map(|s| {
                    Some((
                        s.get("address")?.as_str()?.to_string(),
                        s.get("operation_count")?.as_u64()?,
                    ))
                })
                .collect()
        })
        .unwrap_or_default();
    let iterations = test
        .get("iterations")
        .and_then(Value::as_u64)
        .ok_or("no iterations")?;
    let outcome = test.get("outcome").ok_or("no outcome")?;
    let tolerance = outcome
        .get("tolerance")
        .and_then(Value::as_f64)
        .unwrap_or(0.0);
    let settings = SelectionSettings::default();
    let rp = ReadPreference::new(ReadPreferenceMode::Nearest);
    let suitable = suitable_servers(&topology, Operation::Read, &rp, &settings, &[])
        .map_err(|e| format!("unexpected error: {e}"))?;
    let window = latency_window(&suitable, &settings);
    let mut random = SplitMix(17);
    let mut chosen: BTreeMap<String, u64> = BTreeMap::new();
    for _ in 0..iterations {
        let server = choose_in_window(
            &window,
            |a| counts.get(a).copied().unwrap_or(0),
            |n| random.below(n),
        )
        .ok_or("nothing selected")?;
        *chosen.entry(server.address.clone()).or_default() += 1;
    }
    let expected = outcome
        .get("expected_frequencies")
        .and_then(Value::as_object)
        .ok_or("no expected_frequencies")?;
    for (address, want) in expected {
        let want = want.as_f64().unwrap_or(0.0);
        let got = chosen.get(address).copied().unwrap_or(0) as f64 / iterations as f64;
        let exact = want == 0.0 || want == 1.0;
        if (exact && got != want) || (!exact && (got - want).abs() > tolerance) {
            return Err(format!(
                "{address} chosen with frequency {got}, expected {want} ± {tolerance}"
            ));
        }
    }
    Ok(())
}
