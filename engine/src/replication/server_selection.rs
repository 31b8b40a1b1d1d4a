//! Server selection as MongoDB's Server Selection specification says
//! (`mongodb-specifications/source/server-selection/server-selection.md`, with the staleness
//! rules of `max-staleness/max-staleness.md`): which servers of a topology are *suitable* for an
//! operation under a read preference (mode, then `maxStalenessSeconds`, then `tag_sets`), and
//! which of those lie in the *latency window* (the fastest suitable server's average round-trip
//! time plus `localThresholdMS`). Pure functions over descriptions: no I/O, no clock, and the
//! random choice inside the window takes its random numbers from the caller.

use std::collections::BTreeMap;

/// The spec's `idleWritePeriodMS`: an idle primary writes a no-op this often (max-staleness spec).
pub const IDLE_WRITE_PERIOD_MS: i64 = 10_000;
/// The spec's `smallestMaxStalenessSeconds` (max-staleness spec, "Smallest allowed value").
pub const SMALLEST_MAX_STALENESS_SECONDS: i64 = 90;
/// The default `heartbeatFrequencyMS` of multi-threaded drivers (SDAM spec).
pub const DEFAULT_HEARTBEAT_FREQUENCY_MS: i64 = 10_000;
/// The default `localThresholdMS` (server-selection spec, "localThresholdMS").
pub const DEFAULT_LOCAL_THRESHOLD_MS: f64 = 15.0;
/// The weighting factor of the average round-trip time (server-selection spec).
pub const RTT_ALPHA: f64 = 0.2;

/// The spec's TopologyType.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TopologyType {
    Unknown,
    Single,
    ReplicaSetNoPrimary,
    ReplicaSetWithPrimary,
    Sharded,
    LoadBalanced,
}

impl TopologyType {
    /// Parses the spec's spelling (`"ReplicaSetWithPrimary"`…).
    pub fn parse(name: &str) -> Option<TopologyType> {
        Some(match name {
            "Unknown" => TopologyType::Unknown,
            "Single" => TopologyType::Single,
            "ReplicaSetNoPrimary" => TopologyType::ReplicaSetNoPrimary,
            "ReplicaSetWithPrimary" => TopologyType::ReplicaSetWithPrimary,
            "Sharded" => TopologyType::Sharded,
            "LoadBalanced" => TopologyType::LoadBalanced,
            _ => return None,
        })
    }

    fn is_replica_set(self) -> bool {
        matches!(
            self,
            TopologyType::ReplicaSetNoPrimary | TopologyType::ReplicaSetWithPrimary
        )
    }
}

/// The SDAM spec's ServerType.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ServerType {
    Standalone,
    Mongos,
    PossiblePrimary,
    RsPrimary,
    RsSecondary,
    RsArbiter,
    RsOther,
    RsGhost,
    LoadBalancer,
    Unknown,
}

impl ServerType {
    /// Parses the spec's spelling (`"RSPrimary"`…).
    pub fn parse(name: &str) -> Option<ServerType> {
        Some(match name {
            "Standalone" => ServerType::Standalone,
            "Mongos" => ServerType::Mongos,
            "PossiblePrimary" => ServerType::PossiblePrimary,
            "RSPrimary" => ServerType::RsPrimary,
            "RSSecondary" => ServerType::RsSecondary,
            "RSArbiter" => ServerType::RsArbiter,
            "RSOther" => ServerType::RsOther,
            "RSGhost" => ServerType::RsGhost,
            "LoadBalancer" => ServerType::LoadBalancer,
            "Unknown" => ServerType::Unknown,
            _ => return None,
        })
    }
}

/// What a client knows of one server.
#[derive(Debug, Clone, PartialEq)]
pub struct ServerDescription {
    pub address: String,
    pub server_type: ServerType,
    /// The average round-trip time; `None` for a server never reached.
    pub avg_rtt_ms: Option<f64>,
    pub tags: BTreeMap<String, String>,
    /// `lastWrite.lastWriteDate` of its last `hello` reply, in milliseconds.
    pub last_write_date_ms: i64,
    /// When the client last checked the server, in milliseconds.
    pub last_update_time_ms: i64,
}

impl ServerDescription {
    /// A server of `server_type` at `address` with round-trip time `avg_rtt_ms` and no tags.
    pub fn new(address: &str, server_type: ServerType, avg_rtt_ms: f64) -> ServerDescription {
        ServerDescription {
            address: address.to_string(),
            server_type,
            avg_rtt_ms: Some(avg_rtt_ms),
            tags: BTreeMap::new(),
            last_write_date_ms: 0,
            last_update_time_ms: 0,
        }
    }
}

/// A topology: its type and its servers.
#[derive(Debug, Clone, PartialEq)]
pub struct TopologyDescription {
    pub topology_type: TopologyType,
    pub servers: Vec<ServerDescription>,
}

/// The five read preference modes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadPreferenceMode {
    Primary,
    PrimaryPreferred,
    Secondary,
    SecondaryPreferred,
    Nearest,
}

impl ReadPreferenceMode {
    /// Parses a mode as the server and the shell spell it (`"secondaryPreferred"`); the spec's
    /// tests capitalise the first letter, which is accepted too.
    pub fn parse(name: &str) -> Option<ReadPreferenceMode> {
        let mut chars = name.chars();
        let first = chars.next()?.to_ascii_lowercase();
        let canonical: String = std::iter::once(first).chain(chars).collect();
        Some(match canonical.as_str() {
            "primary" => ReadPreferenceMode::Primary,
            "primaryPreferred" => ReadPreferenceMode::PrimaryPreferred,
            "secondary" => ReadPreferenceMode::Secondary,
            "secondaryPreferred" => ReadPreferenceMode::SecondaryPreferred,
            "nearest" => ReadPreferenceMode::Nearest,
            _ => return None,
        })
    }

    /// The mode as the server spells it.
    pub fn name(self) -> &'static str {
        match self {
            ReadPreferenceMode::Primary => "primary",
            ReadPreferenceMode::PrimaryPreferred => "primaryPreferred",
            ReadPreferenceMode::Secondary => "secondary",
            ReadPreferenceMode::SecondaryPreferred => "secondaryPreferred",
            ReadPreferenceMode::Nearest => "nearest",
        }
    }
}

/// One read preference tag set: every pair must be among a server's tags.
pub type TagSet = BTreeMap<String, String>;

/// A read preference: mode, ordered tag sets and `maxStalenessSeconds` (`None` or -1: no
/// maximum).
#[derive(Debug, Clone, PartialEq)]
pub struct ReadPreference {
    pub mode: ReadPreferenceMode,
    pub tag_sets: Vec<TagSet>,
    pub max_staleness_seconds: Option<i64>,
}

impl ReadPreference {
    /// `mode` with the default tag sets (`[{}]`) and no maximum staleness.
    pub fn new(mode: ReadPreferenceMode) -> ReadPreference {
        ReadPreference {
            mode,
            tag_sets: vec![TagSet::new()],
            max_staleness_seconds: None,
        }
    }

    /// The maximum staleness when one is set (-1 means none, as the spec says).
    fn max_staleness(&self) -> Option<i64> {
        self.max_staleness_seconds.filter(|&s| s != -1)
    }
}

/// Whether the operation reads or writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operation {
    Read,
    Write,
}

/// The client settings selection depends on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SelectionSettings {
    pub heartbeat_frequency_ms: i64,
    pub local_threshold_ms: f64,
}

impl Default for SelectionSettings {
    fn default() -> Self {
        SelectionSettings {
            heartbeat_frequency_ms: DEFAULT_HEARTBEAT_FREQUENCY_MS,
            local_threshold_ms: DEFAULT_LOCAL_THRESHOLD_MS,
        }
    }
}

/// A read preference the spec says a client must refuse.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SelectionError {
    /// `maxStalenessSeconds` with mode `primary`.
    MaxStalenessWithPrimary,
    /// A non-empty tag set with mode `primary`.
    TagSetsWithPrimary,
    /// `maxStalenessSeconds` below `heartbeatFrequencyMS + idleWritePeriodMS` or below 90 s.
    MaxStalenessTooSmall {
        max_staleness_seconds: i64,
        smallest_seconds: i64,
    },
}

impl SelectionError {
    /// MongoDB's error code for the refusal: 160 (SERVER-24421) for a maximum staleness too
    /// small, 2 (BadValue) for the combinations with mode `primary`.
    pub fn code(&self) -> i32 {
        match self {
            SelectionError::MaxStalenessTooSmall { .. } => 160,
            _ => 2,
        }
    }
}

/// The server's wording (mongo's `src/mongo/client/read_preference.cpp`).
impl std::fmt::Display for SelectionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SelectionError::MaxStalenessWithPrimary => {
                write!(f, "maxStalenessSeconds can not be set for the primary mode")
            }
            SelectionError::TagSetsWithPrimary => {
                write!(
                    f,
                    "Only empty tags are allowed with primary read preference"
                )
            }
            SelectionError::MaxStalenessTooSmall {
                smallest_seconds, ..
            } => write!(
                f,
                "maxStalenessSeconds value can not be less than {smallest_seconds}"
            ),
        }
    }
}

impl std::error::Error for SelectionError {}

/// Checks a read preference against the topology as the spec requires (before any selection).
pub fn validate(
    topology_type: TopologyType,
    read_preference: &ReadPreference,
    settings: &SelectionSettings,
) -> Result<(), SelectionError> {
    let max_staleness = read_preference.max_staleness();
    if read_preference.mode == ReadPreferenceMode::Primary {
        if max_staleness.is_some() {
            return Err(SelectionError::MaxStalenessWithPrimary);
        }
        if read_preference.tag_sets.iter().any(|t| !t.is_empty()) {
            return Err(SelectionError::TagSetsWithPrimary);
        }
    }
    if let Some(seconds) = max_staleness
        && topology_type.is_replica_set()
    {
        let floor_ms = settings.heartbeat_frequency_ms + IDLE_WRITE_PERIOD_MS;
        let smallest = SMALLEST_MAX_STALENESS_SECONDS.max((floor_ms + 999) / 1000);
        if seconds.saturating_mul(1000) < floor_ms || seconds < SMALLEST_MAX_STALENESS_SECONDS {
            return Err(SelectionError::MaxStalenessTooSmall {
                max_staleness_seconds: seconds,
                smallest_seconds: smallest,
            });
        }
    }
    Ok(())
}

/// The suitable servers for `operation` under `read_preference`, in topology order.
///
/// `deprioritized` lists addresses to avoid (a retry after a failure): they are left out first,
/// and selection runs again with them only if nothing else is suitable (spec, "Server Selection
/// Algorithm", step 3).
pub fn suitable_servers<'a>(
    topology: &'a TopologyDescription,
    operation: Operation,
    read_preference: &ReadPreference,
    settings: &SelectionSettings,
    deprioritized: &[&str],
) -> Result<Vec<&'a ServerDescription>, SelectionError> {
    validate(topology.topology_type, read_preference, settings)?;
    let preferred: Vec<&ServerDescription> = topology
        .servers
        .iter()
        .filter(|s| !deprioritized.contains(&s.address.as_str()))
        .collect();
    let found = suitable_among(topology, &preferred, operation, read_preference, settings);
    if !found.is_empty() || deprioritized.is_empty() {
        return Ok(found);
    }
    let all: Vec<&ServerDescription> = topology.servers.iter().collect();
    Ok(suitable_among(
        topology,
        &all,
        operation,
        read_preference,
        settings,
    ))
}

/// Suitable servers among `servers` (a subset of the topology's).
fn suitable_among<'a>(
    topology: &'a TopologyDescription,
    servers: &[&'a ServerDescription],
    operation: Operation,
    read_preference: &ReadPreference,
    settings: &SelectionSettings,
) -> Vec<&'a ServerDescription> {
    let of_type = |t: ServerType| -> Vec<&'a ServerDescription> {
        servers
            .iter()
            .copied()
            .filter(|s| s.server_type == t)
            .collect()
    };
    match topology.topology_type {
        TopologyType::Unknown => Vec::new(),
        TopologyType::Single => servers
            .iter()
            .copied()
            .filter(|s| s.server_type != ServerType::Unknown)
            .collect(),
        TopologyType::LoadBalanced => of_type(ServerType::LoadBalancer),
        TopologyType::Sharded => of_type(ServerType::Mongos),
        TopologyType::ReplicaSetNoPrimary | TopologyType::ReplicaSetWithPrimary => {
            let primaries = of_type(ServerType::RsPrimary);
            if operation == Operation::Write {
                return primaries;
            }
            let secondaries = || {
                let candidates = of_type(ServerType::RsSecondary);
                eligible(topology, candidates, read_preference, settings)
            };
            match read_preference.mode {
                ReadPreferenceMode::Primary => primaries,
                ReadPreferenceMode::PrimaryPreferred => {
                    if primaries.is_empty() {
                        secondaries()
                    } else {
                        primaries
                    }
                }
                ReadPreferenceMode::Secondary => secondaries(),
                ReadPreferenceMode::SecondaryPreferred => {
                    let found = secondaries();
                    if found.is_empty() { primaries } else { found }
                }
                ReadPreferenceMode::Nearest => {
                    let candidates = servers
                        .iter()
                        .copied()
                        .filter(|s| {
                            matches!(
                                s.server_type,
                                ServerType::RsPrimary | ServerType::RsSecondary
                            )
                        })
                        .collect();
                    eligible(topology, candidates, read_preference, settings)
                }
            }
        }
    }
}

/// Candidates filtered by `maxStalenessSeconds`, then by the first tag set that matches any.
fn eligible<'a>(
    topology: &TopologyDescription,
    candidates: Vec<&'a ServerDescription>,
    read_preference: &ReadPreference,
    settings: &SelectionSettings,
) -> Vec<&'a ServerDescription> {
    let fresh: Vec<&ServerDescription> = match read_preference.max_staleness() {
        Some(seconds) if seconds > 0 => candidates
            .into_iter()
            .filter(|s| staleness_ms(topology, s, settings) <= seconds.saturating_mul(1000))
            .collect(),
        _ => candidates,
    };
    if read_preference.tag_sets.is_empty() {
        return fresh;
    }
    for tag_set in &read_preference.tag_sets {
        let matching: Vec<&ServerDescription> = fresh
            .iter()
            .copied()
            .filter(|s| tag_set.iter().all(|(k, v)| s.tags.get(k) == Some(v)))
            .collect();
        if !matching.is_empty() {
            return matching;
        }
    }
    Vec::new()
}

/// A server's estimated staleness in milliseconds (spec, "maxStalenessSeconds"): zero for a
/// non-secondary; against the primary in a set with one, else against the freshest secondary.
pub fn staleness_ms(
    topology: &TopologyDescription,
    server: &ServerDescription,
    settings: &SelectionSettings,
) -> i64 {
    if server.server_type != ServerType::RsSecondary {
        return 0;
    }
    let heartbeat = settings.heartbeat_frequency_ms;
    let primary = topology
        .servers
        .iter()
        .find(|s| s.server_type == ServerType::RsPrimary);
    match (topology.topology_type, primary) {
        (TopologyType::ReplicaSetWithPrimary, Some(p)) => {
            (server.last_update_time_ms - server.last_write_date_ms)
                - (p.last_update_time_ms - p.last_write_date_ms)
                + heartbeat
        }
        _ => {
            let freshest = topology
                .servers
                .iter()
                .filter(|s| s.server_type == ServerType::RsSecondary)
                .map(|s| s.last_write_date_ms)
                .max()
                .unwrap_or(server.last_write_date_ms);
            freshest - server.last_write_date_ms + heartbeat
        }
    }
}

/// The suitable servers whose average round-trip time is within `localThresholdMS` of the
/// fastest one's (spec, "Filtering suitable servers based on the latency window").
pub fn latency_window<'a>(
    suitable: &[&'a ServerDescription],
    settings: &SelectionSettings,
) -> Vec<&'a ServerDescription> {
    let rtt = |s: &ServerDescription| s.avg_rtt_ms.unwrap_or(0.0);
    let Some(fastest) = suitable.iter().map(|s| rtt(s)).reduce(f64::min) else {
        return Vec::new();
    };
    let edge = fastest + settings.local_threshold_ms;
    suitable
        .iter()
        .copied()
        .filter(|s| rtt(s) <= edge)
        .collect()
}

/// The new average round-trip time after measuring `sample_ms` (spec, "Calculation of Average
/// Round Trip Times"): the first sample, then an exponentially weighted moving average.
pub fn average_rtt(previous_ms: Option<f64>, sample_ms: f64) -> f64 {
    match previous_ms {
        None => sample_ms,
        Some(old) => RTT_ALPHA * sample_ms + (1.0 - RTT_ALPHA) * old,
    }
}

/// Picks one server of the latency window as multi-threaded drivers do (spec, "Server
/// Selection Algorithm", steps 6–7): two distinct servers at random, the one with fewer
/// operations in progress (`operation_count` of its address), ties broken at random.
/// `random(n)` returns a number in `0..n`.
pub fn choose_in_window<'a>(
    window: &[&'a ServerDescription],
    operation_count: impl Fn(&str) -> u64,
    mut random: impl FnMut(usize) -> usize,
) -> Option<&'a ServerDescription> {
    match window.len() {
        0 => None,
        1 => Some(window[0]),
        n => {
            let first = random(n) % n;
            let mut second = random(n - 1) % (n - 1);
            if second >= first {
                second += 1;
            }
            let (a, b) = (window[first], window[second]);
            let (count_a, count_b) = (operation_count(&a.address), operation_count(&b.address));
            Some(if count_a < count_b {
                a
            } else if count_b < count_a {
                b
            } else if random(2).is_multiple_of(2) {
                a
            } else {
                b
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn server(address: &str, t: ServerType, rtt: f64, tags: &[(&str, &str)]) -> ServerDescription {
        let mut s = ServerDescription::new(address, t, rtt);
        s.tags = tags
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        s
    }

    fn set_with_primary() -> TopologyDescription {
        TopologyDescription {
            topology_type: TopologyType::ReplicaSetWithPrimary,
            servers: vec![
                server("a:27017", ServerType::RsPrimary, 5.0, &[("dc", "ny")]),
                server("b:27017", ServerType::RsSecondary, 5.0, &[("dc", "sf")]),
                server("c:27017", ServerType::RsSecondary, 30.0, &[("dc", "ny")]),
            ],
        }
    }

    fn addresses(servers: &[&ServerDescription]) -> Vec<String> {
        servers.iter().map(|s| s.address.clone()).collect()
    }

    #[test]
    fn secondary_mode_takes_the_first_matching_tag_set() {
        let topology = set_with_primary();
        let mut rp = ReadPreference::new(ReadPreferenceMode::Secondary);
        rp.tag_sets = vec![
            [("dc".to_string(), "la".to_string())].into(),
            [("dc".to_string(), "ny".to_string())].into(),
        ];
        let settings = SelectionSettings::default();
        let found = suitable_servers(&topology, Operation::Read, &rp, &settings, &[]).unwrap();
        assert_eq!(addresses(&found), ["c:27017"]);
    }

    #[test]
    fn secondary_preferred_falls_back_to_the_primary() {
        let topology = set_with_primary();
        let mut rp = ReadPreference::new(ReadPreferenceMode::SecondaryPreferred);
        rp.tag_sets = vec![[("dc".to_string(), "la".to_string())].into()];
        let settings = SelectionSettings::default();
        let found = suitable_servers(&topology, Operation::Read, &rp, &settings, &[]).unwrap();
        assert_eq!(addresses(&found), ["a:27017"]);
    }

    #[test]
    fn the_latency_window_keeps_servers_within_the_threshold() {
        let topology = set_with_primary();
        let rp = ReadPreference::new(ReadPreferenceMode::Nearest);
        let settings = SelectionSettings::default();
        let found = suitable_servers(&topology, Operation::Read, &rp, &settings, &[]).unwrap();
        assert_eq!(found.len(), 3);
        assert_eq!(
            addresses(&latency_window(&found, &settings)),
            ["a:27017", "b:27017"]
        );
    }

    #[test]
    fn primary_with_max_staleness_is_refused() {
        let mut rp = ReadPreference::new(ReadPreferenceMode::Primary);
        rp.max_staleness_seconds = Some(120);
        let settings = SelectionSettings::default();
        let err = validate(TopologyType::ReplicaSetWithPrimary, &rp, &settings).unwrap_err();
        assert_eq!(err, SelectionError::MaxStalenessWithPrimary);
    }

    #[test]
    fn max_staleness_below_ninety_seconds_is_refused_in_a_replica_set_only() {
        let mut rp = ReadPreference::new(ReadPreferenceMode::Nearest);
        rp.max_staleness_seconds = Some(89);
        let settings = SelectionSettings::default();
        let err = validate(TopologyType::ReplicaSetNoPrimary, &rp, &settings).unwrap_err();
        assert_eq!(err.code(), 160);
        assert!(validate(TopologyType::Sharded, &rp, &settings).is_ok());
    }

    #[test]
    fn a_lagging_secondary_is_too_stale() {
        let mut topology = set_with_primary();
        topology.servers[0].last_write_date_ms = 200_000;
        topology.servers[1].last_write_date_ms = 200_000;
        topology.servers[2].last_write_date_ms = 50_000;
        let mut rp = ReadPreference::new(ReadPreferenceMode::Secondary);
        rp.max_staleness_seconds = Some(90);
        let settings = SelectionSettings::default();
        let found = suitable_servers(&topology, Operation::Read, &rp, &settings, &[]).unwrap();
        assert_eq!(addresses(&found), ["b:27017"]);
    }

    #[test]
    fn the_average_round_trip_time_is_weighted() {
        assert_eq!(average_rtt(None, 10.0), 10.0);
        assert!((average_rtt(Some(10.0), 20.0) - 12.0).abs() < 1e-9);
    }

    #[test]
    fn of_two_choices_the_less_busy_server_wins() {
        let topology = set_with_primary();
        let window: Vec<&ServerDescription> = topology.servers.iter().take(2).collect();
        let busy = |a: &str| if a == "a:27017" { 9 } else { 1 };
        let chosen = choose_in_window(&window, busy, |_| 0).unwrap();
        assert_eq!(chosen.address, "b:27017");
    }
}
