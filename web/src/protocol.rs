//! Messages between the page and the shell worker: typed Rust values that cross `postMessage`
//! (and the `BroadcastChannel` between workers) as JavaScript objects, through
//! `serde-wasm-bindgen` ([`to_js`], [`from_js`]): no JSON text in between, so an explain's plan
//! tree ([`lessons::ExplainPlan`]), the documents and the `more` flag arrive as the values the
//! worker built.
//!
//! The page sends [`Request`]s, each an `id` and a [`RequestBody`] (one variant per kind of
//! work: running shell input, and whatever else the page asks of the worker); the worker answers
//! each with a [`Response::Done`] carrying the text to show, the result in structured form when
//! it is documents, and what the sidebar needs, so the page never reads engine state directly.
//!
//! The shell workers of the pages that open one database talk over a `BroadcastChannel` in
//! [`ChannelMessage`]s: the owner of the database's engine runs the others' inputs and answers
//! them, and tells every page when the data changed (see `shell_worker`).

pub mod database_choice;
pub mod doc_text;
pub mod feedback;
pub mod page_coordination;
pub mod transfer;

use bson::Bson;
use lessons::ExplainPlan;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use wasm_bindgen::JsValue;

pub use crate::protocol::transfer::Transfer;

/// An index as the sidebar shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IndexSummary {
    pub name: String,
    /// The key pattern, e.g. `{"price": 1}` (relaxed Extended JSON).
    pub key: Value,
}

/// A collection as the sidebar shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CollectionSummary {
    pub db: String,
    pub name: String,
    pub count: usize,
    #[serde(default)]
    pub indexes: Vec<IndexSummary>,
    /// Field paths of the first documents, for completion inside filters and pipelines.
    #[serde(default)]
    pub fields: Vec<String>,
}

/// Page → worker: request `id`; the answer carries the same `id`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Request {
    pub id: u64,
    pub body: RequestBody,
}

/// What the page asks the worker to do. Add a variant per new kind of request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RequestBody {
    /// Run one shell input (a line or a multi-line block).
    Run { input: String },
    /// The page's language: `help` and the shell's notes follow it. Answered with no output.
    SetLanguage { chinese: bool },
    /// Replace the engine with a fresh lesson shell: lesson `lesson`'s dataset on the lessons'
    /// simulated clock and seed, then its first `replay` steps run silently. Its data is not
    /// written to IndexedDB. Answered with a line naming the collections loaded.
    OpenLesson { lesson: String, replay: usize },
    /// Back to the free playground: the engine reloaded from IndexedDB.
    CloseLesson,
    /// Check `answer` to exercise `exercise` (from 0) of lesson `lesson` in a fresh lesson shell
    /// (`lesson_runner::check_exercise`). Answered with the verdict's message as `output`,
    /// `is_error` true unless the answer passed, and for a wrong answer the comparison with the
    /// expected outcome as `result` (a document, see `protocol::feedback`).
    CheckExercise {
        lesson: String,
        exercise: usize,
        answer: String,
    },
    /// A lesson written by a course author (`<sprout-lesson src>`, docs/embedding.md): its
    /// Markdown, parsed in the worker and kept beside the built-in lessons under its id, so that
    /// `OpenLesson` and `CheckExercise` find it. Answered with the lesson's id, or the parse
    /// error naming the line.
    DefineLesson { file: String, markdown: String },
    /// Export or import a file in MongoDB's formats, in this page's session on the database's
    /// engine (through its owner, like an input). Answered with a summary line, and for an
    /// export the file's bytes (base64) in `file`.
    Transfer { transfer: Transfer },
    /// Stop waiting for the running input: when another page owns the database, ask it to stop
    /// the input there. Not queued behind the running input, and not answered itself: the
    /// running input's answer says how it ended.
    Stop,
}

/// What the database's owner runs for a page: shell input or a file transfer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Work {
    Input { input: String },
    Transfer { transfer: Transfer },
}

/// What the sidebar and prompt show after a command.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Catalog {
    pub collections: Vec<CollectionSummary>,
    pub current_db: String,
    /// The replica set the session is connected to (after `rs.initiate`), for the sidebar's
    /// topology panel; `None` for a standalone.
    #[serde(default)]
    pub topology: Option<Topology>,
    /// The sharded cluster the session is connected to through its router (after
    /// `new ShardingTest(...)`), for the sidebar's cluster panel; `None` otherwise.
    #[serde(default)]
    pub cluster: Option<ShardedCluster>,
    /// What the prompt shows before the database's name, as mongosh shows it: the set's name
    /// and the connected member's state (`rs1 [direct: primary] `), `[direct: mongos] ` through
    /// a router, empty for a standalone (`shell::Shell::prompt_prefix`).
    #[serde(default)]
    pub prompt_prefix: String,
}

impl Catalog {
    /// The prompt as mongosh writes it: `rs1 [direct: primary] test>`, `test>` for a standalone.
    pub fn prompt(&self) -> String {
        prompt_text(&self.prompt_prefix, &self.current_db)
    }
}

/// The prompt for a connection with `prefix` (see [`Catalog::prompt_prefix`]) on database `db`.
pub fn prompt_text(prefix: &str, db: &str) -> String {
    format!("{prefix}{db}>")
}

/// A sharded cluster as the sidebar's cluster panel shows it: read from the `config`
/// database through the router (`config.shards`, `config.collections`, `config.chunks`, as
/// `sh.status()` reads them), with where the last query went.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ShardedCluster {
    pub shards: Vec<ClusterShard>,
    /// The sharded collections, sorted by namespace.
    pub collections: Vec<ShardedCollection>,
    /// The last query sent through the router (`find`, `aggregate`, `count`, `distinct`, or
    /// an `explain` of one), if any.
    #[serde(default)]
    pub last_query: Option<QueryRouting>,
}

/// One shard of a [`ShardedCluster`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClusterShard {
    /// `shard0000`.
    pub id: String,
    /// `localhost:27018`, or `set/host1,host2,…` for a replica-set shard.
    pub host: String,
}

/// A sharded collection: its key and how many chunks each shard holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShardedCollection {
    /// `db.collection`.
    pub namespace: String,
    /// The shard key pattern as mongosh prints it (`{ name: 1 }`).
    pub key: String,
    /// Chunks per shard, one entry per shard of the cluster in its order (0 when a shard holds
    /// none).
    pub chunks: Vec<(String, usize)>,
}

/// Where the router sent a query.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QueryRouting {
    pub command: String,
    pub namespace: String,
    /// The shards the query went to.
    pub shards: Vec<String>,
    /// The shards that held the collection's data then (owning a chunk; the database's
    /// primary shard for an unsharded collection).
    pub owners: Vec<String>,
}

impl QueryRouting {
    /// A broadcast: sent to every shard holding the collection's data, more than one
    /// (MongoDB's "scatter-gather"); otherwise the router targeted the query.
    pub fn scatter_gather(&self) -> bool {
        self.shards.len() > 1 && self.owners.iter().all(|o| self.shards.contains(o))
    }
}

/// A replica set as the sidebar's topology panel shows it: read from `rs.status()`
/// (`replSetGetStatus`), with the member that served the session's last command.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Topology {
    /// The set's name (`rs1`).
    pub set: String,
    pub members: Vec<TopologyMember>,
    /// The host that served the last read (or write), when a command has been served.
    #[serde(default)]
    pub last_served: Option<String>,
}

/// One member of a [`Topology`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TopologyMember {
    /// `host:port` as the set's configuration names it.
    pub host: String,
    pub state: MemberStateView,
    /// How far the member's last applied operation is behind the primary's, in milliseconds
    /// (`rs.printSecondaryReplicationInfo()`'s measure); `None` for the primary, an arbiter, or
    /// when there is no primary to compare with.
    #[serde(default)]
    pub lag_ms: Option<i64>,
}

/// A member's state, from `rs.status()`'s `stateStr` (a stopped member has `health: 0`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MemberStateView {
    Primary,
    Secondary,
    Arbiter,
    /// Not reachable: Sprout's `sprout.replSet.stop(host)` (a real server that is down).
    Stopped,
    /// Any other state (`STARTUP2`, `RECOVERING`, …).
    Other,
}

impl MemberStateView {
    /// MongoDB's name of the state (`stateStr`), as the panel shows it.
    pub fn label(self) -> &'static str {
        match self {
            MemberStateView::Primary => "PRIMARY",
            MemberStateView::Secondary => "SECONDARY",
            MemberStateView::Arbiter => "ARBITER",
            MemberStateView::Stopped => "stopped",
            MemberStateView::Other => "other",
        }
    }
}

/// A result that is documents, in relaxed Extended JSON (`{"$oid": …}`, `{"$date": …}`), for
/// the tree, table and explain views; an explain also as its typed plan tree. The text form
/// stays the mongosh text of `output`. Documents keep 64-bit integers as `{"$numberLong": …}`
/// (see [`display_json`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "shape", rename_all = "snake_case")]
pub enum StructuredResult {
    /// A cursor's first batch or an array of documents; `more` when the cursor has more (`it`
    /// shows them; `shell::Evaluation::more`).
    Documents { docs: Vec<Value>, more: bool },
    /// One document (a findOne, a command reply, a write result).
    Document { doc: Value },
    /// An explain reply (find's, or aggregate's with a `$cursor` stage): its plan tree, read
    /// once in the worker, and the reply itself for the tree view.
    Explain { plan: Box<ExplainPlan>, doc: Value },
}

impl StructuredResult {
    /// The structured form of a shell result, when it is documents; `more` says whether the
    /// cursor has more.
    pub fn of(value: &Bson, more: bool) -> Option<StructuredResult> {
        let explained = value.as_document().and_then(ExplainPlan::read);
        match value {
            Bson::Document(_) if explained.is_some() => Some(StructuredResult::Explain {
                plan: Box::new(explained?),
                doc: value.clone().into_relaxed_extjson(),
            }),
            Bson::Document(_) => Some(StructuredResult::Document {
                doc: display_json(value),
            }),
            Bson::Array(items) if items.iter().all(|i| matches!(i, Bson::Document(_))) => {
                Some(StructuredResult::Documents {
                    docs: items.iter().map(display_json).collect(),
                    more,
                })
            }
            _ => None,
        }
    }
}

/// Relaxed Extended JSON, except that a 64-bit integer stays `{"$numberLong": "…"}`: relaxed
/// JSON writes it as a plain number, and the tree and table would then show `Long('5')` as `5`,
/// unlike the text view (mongosh). 32-bit integers and doubles print alike in mongosh (`5`), so
/// the plain number is right for them.
fn display_json(value: &Bson) -> Value {
    engine::value::extjson::to_json_with(value, &|leaf| match leaf {
        Bson::Int64(n) => serde_json::json!({ "$numberLong": n.to_string() }),
        other => other.clone().into_relaxed_extjson(),
    })
}

/// A protocol value as a JavaScript object for `postMessage`. Maps (a document's fields) stay
/// JavaScript `Map`s, which keep their order (a plain object would put `"2"` before `"b"`);
/// 64-bit integers become `BigInt`s, so none is rounded or refused.
pub fn to_js<T: Serialize>(value: &T) -> Result<JsValue, String> {
    let serializer =
        serde_wasm_bindgen::Serializer::new().serialize_large_number_types_as_bigints(true);
    value.serialize(&serializer).map_err(|e| e.to_string())
}

/// A protocol value back from the JavaScript object [`to_js`] made.
pub fn from_js<T: DeserializeOwned>(value: JsValue) -> Result<T, String> {
    serde_wasm_bindgen::from_value(value).map_err(|e| e.to_string())
}

/// An error as the output shows it: the shell's error name (`MongoServerError[BadValue]`,
/// `TypeError`) and, for engine errors, MongoDB's code and codeName.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ErrorInfo {
    pub name: String,
    pub code: Option<i32>,
    pub code_name: Option<String>,
}

/// A named moment of the worker's start, as wall-clock time (`performance.timeOrigin +
/// performance.now()` in milliseconds) so that the page can place it on its own timeline.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Phase {
    pub name: String,
    pub at: f64,
}

/// Which database a page works on and how it is kept, for the status line.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct StorageInfo {
    /// The database's name (`?db=`; `playground` by default).
    pub database: String,
    /// The data lives in memory only (chosen with `?storage=memory`, or IndexedDB failed).
    pub in_memory: bool,
}

/// What one shell input produced, as the page shows it; sent from the database's owner to the
/// page that asked (over the channel when that is another page).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Reply {
    pub output: String,
    pub is_error: bool,
    #[serde(default)]
    pub result: Option<StructuredResult>,
    #[serde(default)]
    pub error: Option<ErrorInfo>,
    pub catalog: Catalog,
    /// The shell's hints for a learner (`shell::Evaluation::notes`).
    #[serde(default)]
    pub notes: Vec<String>,
    /// For an aggregation: what each stage returns (empty otherwise).
    #[serde(default)]
    pub stages: Vec<StageView>,
    /// An exported file's bytes (base64).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
}

/// One stage of an aggregation the console ran: its name, the number of documents it returned
/// and the first few of them (relaxed Extended JSON), from `Engine::preview_pipeline`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StageView {
    pub stage: String,
    pub count: usize,
    pub sample: Vec<Value>,
}

impl StageView {
    /// The views of the stages `previews` describes.
    pub fn of(previews: &[engine::StagePreview]) -> Vec<StageView> {
        previews
            .iter()
            .map(|p| StageView {
                stage: p.stage.to_string(),
                count: p.count,
                sample: p
                    .sample
                    .iter()
                    .map(|d| display_json(&Bson::Document(d.clone())))
                    .collect(),
            })
            .collect()
    }
}

/// Between the shell workers of the pages that open one database (a `BroadcastChannel` named by
/// `DatabaseChoice::channel_name`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ChannelMessage {
    /// A page that does not own the engine asks the owner to run `work` in its shell session.
    /// `seq` grows with each of the client's inputs: the owner runs each (client, seq) once.
    Forward {
        client: String,
        seq: u64,
        work: Work,
    },
    /// The learner pressed Stop in the page that sent input `seq`: the owner drops it if it waits
    /// in the queue, and the owner's page terminates its worker if it is running; either way the
    /// input is answered (stopped, or completed when it had finished).
    Stop { client: String, seq: u64 },
    /// The owner's answer to a `Forward` (boxed: a reply is much larger than the other messages).
    Reply {
        client: String,
        seq: u64,
        reply: Box<Reply>,
    },
    /// The data changed (a command's changes were committed): the collections now.
    Changed { collections: Vec<CollectionSummary> },
    /// A page took the database over (the previous owner closed): inputs that waited for an
    /// answer are sent again (the new owner knows which were applied already).
    OwnerReady,
}

/// Worker → page.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Response {
    /// The worker has loaded the stored data and can take requests. `warning` says why data
    /// will not survive a reload (IndexedDB unavailable), if it will not.
    Ready {
        warning: Option<String>,
        #[serde(default)]
        storage: StorageInfo,
        catalog: Catalog,
        /// When the worker reached each phase of its start, for the page's performance
        /// timeline (the end-to-end test reports them).
        #[serde(default)]
        phases: Vec<Phase>,
    },
    /// The answer to request `id`.
    Done {
        id: u64,
        output: String,
        is_error: bool,
        catalog: Catalog,
        /// The result as documents, when it is documents.
        #[serde(default)]
        result: Option<StructuredResult>,
        /// The error's code, when the command failed.
        #[serde(default)]
        error: Option<ErrorInfo>,
        /// The shell's hints for a learner ("did you mean find?").
        #[serde(default)]
        notes: Vec<String>,
        /// For an aggregation: what each stage returns.
        #[serde(default)]
        stages: Vec<StageView>,
        /// An exported file's bytes (base64).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        file: Option<String>,
    },
    /// Another page changed the data: the sidebar shows these collections now.
    Changed { collections: Vec<CollectionSummary> },
    /// Something about the storage the page should say (another page upgrades the database,
    /// this page took the database over…).
    Notice { message: String },
    /// Whether this page's worker now owns the database's engine (runs the commands of every
    /// page of the database) or forwards its commands to the page that does.
    Role { owner: bool },
    /// As owner: the worker starts running another page's input `seq` of `client` (`None`: it
    /// finished). The page terminates its worker when that page asks to stop it.
    Running { job: Option<(String, u64)> },
    /// The worker hit an error it cannot recover from (an exhausted memory, an aborted wasm
    /// instance); sent by `static/worker.js`, not by Rust code, which may no longer run. The
    /// page replaces the worker.
    Crashed { message: String },
}

/// What the page tells the learner when the worker died with `message` (the trap's text). A
/// stack overflow says so (V8: `RangeError: Maximum call stack size exceeded`, Firefox:
/// `InternalError: too much recursion`; wasm's shadow stack overflowing shows as an out-of-bounds
/// memory access); anything else is most likely exhausted memory (an allocation failure aborts
/// with `unreachable`).
pub fn crash_explanation(message: &str) -> String {
    let lower = message.to_ascii_lowercase();
    let cause = if lower.contains("maximum call stack") || lower.contains("too much recursion") {
        "the stack overflowed: the code nests or recurses too deeply"
    } else if lower.contains("memory access out of bounds") {
        "the stack overflowed or memory was corrupted: the code most likely nests or recurses too deeply"
    } else {
        "it most likely ran out of memory"
    };
    format!(
        "The shell stopped ({message}): {cause}. A fresh shell was started: variables are gone; \
         the data is as it was after the last completed command."
    )
}

#[cfg(test)]
mod tests {
    use bson::{doc, oid::ObjectId};

    use super::*;

    #[test]
    fn documents_keep_their_64_bit_integers_apart() {
        let value = Bson::Array(vec![Bson::Document(doc! {
            "i": 5_i32, "l": 5_i64, "d": 5.5, "nested": { "l": [7_i64] }
        })]);
        let Some(StructuredResult::Documents { docs, .. }) = StructuredResult::of(&value, false)
        else {
            panic!("documents expected");
        };
        assert_eq!(
            docs[0],
            serde_json::json!({
                "i": 5, "l": {"$numberLong": "5"}, "d": 5.5,
                "nested": {"l": [{"$numberLong": "7"}]}
            })
        );
        assert_eq!(
            crate::protocol::doc_text::leaf_text(&docs[0]["l"]).as_deref(),
            Some("Long('5')")
        );
    }

    #[test]
    fn requests_round_trip_through_json() {
        let r = Request {
            id: 3,
            body: RequestBody::Run {
                input: "db.c.find()".into(),
            },
        };
        let text = serde_json::to_string(&r).unwrap();
        assert_eq!(
            text,
            r#"{"id":3,"body":{"kind":"run","input":"db.c.find()"}}"#
        );
        let back: Request = serde_json::from_str(&text).unwrap();
        assert!(matches!(back.body, RequestBody::Run { input } if input == "db.c.find()"));
    }

    #[test]
    fn lesson_requests_round_trip_through_json() {
        let r = Request {
            id: 4,
            body: RequestBody::CheckExercise {
                lesson: "b5-optimizing".into(),
                exercise: 0,
                answer: "db.c.createIndex({a: 1})".into(),
            },
        };
        let text = serde_json::to_string(&r).unwrap();
        assert!(text.contains(r#""kind":"check_exercise""#), "{text}");
        let back: Request = serde_json::from_str(&text).unwrap();
        assert_eq!(back.body, r.body);
        let open: RequestBody =
            serde_json::from_str(r#"{"kind":"open_lesson","lesson":"b4-indexes","replay":2}"#)
                .unwrap();
        assert_eq!(
            open,
            RequestBody::OpenLesson {
                lesson: "b4-indexes".into(),
                replay: 2
            }
        );
    }

    #[test]
    fn responses_round_trip_through_json() {
        let r = Response::Done {
            id: 7,
            output: "{ acknowledged: true }".into(),
            is_error: false,
            catalog: Catalog {
                collections: vec![CollectionSummary {
                    db: "test".into(),
                    name: "c".into(),
                    count: 1,
                    indexes: vec![IndexSummary {
                        name: "_id_".into(),
                        key: serde_json::json!({"_id": 1}),
                    }],
                    fields: vec!["_id".into()],
                }],
                current_db: "test".into(),
                topology: Some(Topology {
                    set: "rs1".into(),
                    members: vec![TopologyMember {
                        host: "172.17.0.7:27017".into(),
                        state: MemberStateView::Stopped,
                        lag_ms: Some(1500),
                    }],
                    last_served: Some("172.17.0.5:27017".into()),
                }),
                cluster: Some(ShardedCluster {
                    shards: vec![ClusterShard {
                        id: "shard0000".into(),
                        host: "localhost:27018".into(),
                    }],
                    collections: vec![ShardedCollection {
                        namespace: "shop.users".into(),
                        key: "{ name: 1 }".into(),
                        chunks: vec![("shard0000".into(), 2)],
                    }],
                    last_query: Some(QueryRouting {
                        command: "find".into(),
                        namespace: "shop.users".into(),
                        shards: vec!["shard0000".into()],
                        owners: vec!["shard0000".into()],
                    }),
                }),
                prompt_prefix: "rs1 [direct: primary] ".into(),
            },
            result: StructuredResult::of(&Bson::Document(doc! {"acknowledged": true}), false),
            error: Some(ErrorInfo {
                name: "MongoServerError[BadValue]".into(),
                code: Some(2),
                code_name: Some("BadValue".into()),
            }),
            notes: vec!["Did you mean find?".into()],
            stages: Vec::new(),
            file: None,
        };
        let text = serde_json::to_string(&r).unwrap();
        assert!(text.starts_with(r#"{"kind":"done","id":7"#), "{text}");
        match serde_json::from_str::<Response>(&text).unwrap() {
            Response::Done {
                id,
                catalog,
                result,
                error,
                notes,
                ..
            } => {
                assert_eq!(id, 7);
                assert_eq!(notes, ["Did you mean find?"]);
                assert_eq!(catalog.collections[0].name, "c");
                assert_eq!(catalog.prompt(), "rs1 [direct: primary] test>");
                let cluster = catalog.cluster.unwrap();
                assert_eq!(cluster.collections[0].chunks, [("shard0000".into(), 2)]);
                assert_eq!(cluster.last_query.unwrap().shards, ["shard0000"]);
                assert_eq!(
                    catalog.collections[0].indexes[0].key,
                    serde_json::json!({"_id": 1})
                );
                assert_eq!(
                    result,
                    Some(StructuredResult::Document {
                        doc: serde_json::json!({"acknowledged": true})
                    })
                );
                assert_eq!(error.unwrap().code_name.as_deref(), Some("BadValue"));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn an_answer_without_the_new_fields_still_reads() {
        let text = r#"{"kind":"done","id":1,"output":"1","is_error":false,
            "catalog":{"collections":[{"db":"test","name":"c","count":1}],"current_db":"test"}}"#;
        match serde_json::from_str::<Response>(text).unwrap() {
            Response::Done {
                result,
                error,
                catalog,
                ..
            } => {
                assert!(result.is_none() && error.is_none());
                assert!(catalog.collections[0].indexes.is_empty());
                assert!(catalog.cluster.is_none());
                assert_eq!(catalog.prompt(), "test>");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn channel_messages_round_trip_through_json() {
        let forward = ChannelMessage::Forward {
            client: "c1".into(),
            seq: 4,
            work: Work::Input {
                input: "db.t.find()".into(),
            },
        };
        let text = serde_json::to_string(&forward).unwrap();
        assert!(text.starts_with(r#"{"kind":"forward""#), "{text}");
        assert_eq!(
            serde_json::from_str::<ChannelMessage>(&text).unwrap(),
            forward
        );
        let reply = ChannelMessage::Reply {
            client: "c1".into(),
            seq: 4,
            reply: Box::new(Reply {
                output: "[]".into(),
                is_error: false,
                result: None,
                error: None,
                catalog: Catalog::default(),
                notes: Vec::new(),
                stages: Vec::new(),
                file: None,
            }),
        };
        let text = serde_json::to_string(&reply).unwrap();
        assert_eq!(
            serde_json::from_str::<ChannelMessage>(&text).unwrap(),
            reply
        );
        assert_eq!(
            serde_json::from_str::<ChannelMessage>(r#"{"kind":"owner_ready"}"#).unwrap(),
            ChannelMessage::OwnerReady
        );
        let stop = ChannelMessage::Stop {
            client: "c1".into(),
            seq: 5,
        };
        let text = serde_json::to_string(&stop).unwrap();
        assert_eq!(text, r#"{"kind":"stop","client":"c1","seq":5}"#);
        let import = ChannelMessage::Forward {
            client: "c1".into(),
            seq: 6,
            work: Work::Transfer {
                transfer: Transfer::Import {
                    db: "test".into(),
                    collection: Some("people".into()),
                    format: crate::protocol::transfer::TransferFormat::JsonArray,
                    data: "W10=".into(),
                },
            },
        };
        let text = serde_json::to_string(&import).unwrap();
        assert!(text.contains(r#""format":"json_array""#), "{text}");
        assert_eq!(
            serde_json::from_str::<ChannelMessage>(&text).unwrap(),
            import
        );
    }

    #[test]
    fn a_query_to_every_shard_holding_data_is_a_scatter_gather() {
        let routing = |shards: &[&str], owners: &[&str]| QueryRouting {
            command: "find".into(),
            namespace: "shop.users".into(),
            shards: shards.iter().map(|s| s.to_string()).collect(),
            owners: owners.iter().map(|s| s.to_string()).collect(),
        };
        assert!(routing(&["s0", "s1"], &["s0", "s1"]).scatter_gather());
        assert!(!routing(&["s1"], &["s0", "s1"]).scatter_gather());
        assert!(!routing(&["s0", "s1"], &["s0", "s1", "s2"]).scatter_gather());
        // One shard holds everything: the router sends the query there, a single shard.
        assert!(!routing(&["s0"], &["s0"]).scatter_gather());
    }

    #[test]
    fn a_stack_overflow_is_reported_as_one() {
        let text = crash_explanation("RangeError: Maximum call stack size exceeded");
        assert!(text.contains("the stack overflowed"), "{text}");
        assert!(!text.contains("memory"), "{text}");
        let text = crash_explanation("InternalError: too much recursion");
        assert!(text.contains("the stack overflowed"), "{text}");
        let text = crash_explanation("RuntimeError: unreachable");
        assert!(text.contains("ran out of memory"), "{text}");
    }

    #[test]
    fn the_crash_notice_of_worker_js_reads() {
        // static/worker.js writes this by hand: keep the two in step.
        let text = r#"{"kind":"crashed","message":"RuntimeError: unreachable"}"#;
        assert!(matches!(
            serde_json::from_str::<Response>(text).unwrap(),
            Response::Crashed { message } if message == "RuntimeError: unreachable"
        ));
    }

    #[test]
    fn documents_become_relaxed_extended_json() {
        let id = ObjectId::parse_str("64b7f0c2a1b2c3d4e5f60718").unwrap();
        let batch = Bson::Array(vec![
            Bson::Document(doc! {"_id": id, "price": 10, "big": {"$numberLong": "5000000000"}}),
            Bson::Document(doc! {"_id": 2, "tags": ["a"]}),
        ]);
        assert_eq!(
            StructuredResult::of(&batch, true),
            Some(StructuredResult::Documents {
                docs: vec![
                    serde_json::json!({"_id": {"$oid": "64b7f0c2a1b2c3d4e5f60718"}, "price": 10, "big": {"$numberLong": "5000000000"}}),
                    serde_json::json!({"_id": 2, "tags": ["a"]}),
                ],
                more: true,
            })
        );
        // Not documents: no structured form (the text says it all).
        assert_eq!(StructuredResult::of(&Bson::Int32(1), false), None);
        assert_eq!(
            StructuredResult::of(&Bson::Array(vec![Bson::String("c".into())]), false),
            None
        );
    }

    #[test]
    fn explain_replies_carry_their_plan_tree() {
        let find =
            doc! {"explainVersion": "1", "queryPlanner": {"winningPlan": {"stage": "COLLSCAN"}}};
        let Some(StructuredResult::Explain { plan, doc }) =
            StructuredResult::of(&Bson::Document(find), false)
        else {
            panic!("an explain expected");
        };
        assert_eq!(plan.winning.stage, "COLLSCAN");
        assert_eq!(doc["explainVersion"], "1");
        let aggregate = doc! {"stages": [{"$cursor": {"queryPlanner": {"winningPlan": {"stage": "COLLSCAN"}}}}]};
        assert!(matches!(
            StructuredResult::of(&Bson::Document(aggregate), false),
            Some(StructuredResult::Explain { .. })
        ));
        assert!(matches!(
            StructuredResult::of(&Bson::Document(doc! {"stages": [{"$match": {}}]}), false),
            Some(StructuredResult::Document { .. })
        ));
    }
}
