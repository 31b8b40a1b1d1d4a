//! The owner's side of a shared database: one [`Engine`] that every page of the database uses,
//! a shell session per page over it, and the IndexedDB store its commits go to.
//!
//! Shell state (variables, `use db`, cursors for `it`) belongs to a page, the data to everyone:
//! each page (client) has its own [`Shell`], and the one engine is lent to that shell for the time
//! of one input ([`Shell::replace_engine`] swaps it in and out). Inputs run one at a time, in the
//! order they arrived; each input's changes are committed in one IndexedDB transaction, marked
//! with the (client, seq) of the input, before its answer goes out. So an acknowledged write is
//! stored, and a page that takes the database over after the owner died knows from the marks
//! whether an input that never got its answer was applied.

use std::collections::HashMap;

use engine::Engine;
use engine::storage::{Change, ChangeBatch, document_key};
use shell::{Evaluation, Shell, ShellConfig};

use crate::protocol::{Catalog, CollectionSummary, ErrorInfo, Reply, StructuredResult, Work};
use crate::worker::idb_store::{IdbStore, StorageError};
use crate::worker::record_packs::{PACK_DOCUMENTS, encode_pack};
use crate::worker::sharded_cluster::cluster_of;
use crate::worker::sidebar::{collections_of, collections_seen_by, topology_of};
use crate::worker::transfer;

/// Shell sessions kept for other pages; the least recently used is dropped beyond this (its page
/// then starts a fresh session: its variables are gone, the data is not).
const MAX_SESSIONS: usize = 16;

/// Change records the store may hold before its documents are rewritten as packs.
const COMPACT_AFTER: usize = 4096;

/// MongoDB's code for a write that found no room (`OutOfDiskSpace` in the server's
/// `src/mongo/base/error_codes.yml`); a full browser quota is the page's version of it.
const OUT_OF_DISK_SPACE: i32 = 14031;

/// A fresh engine on the browser's clock.
pub fn new_engine() -> Engine {
    Engine::with_clock(
        Box::new(crate::worker::shell_worker::BrowserClock),
        random_seed(),
    )
}

/// A fresh shell over a placeholder engine (the shared one is lent to it for each input).
pub fn new_shell() -> Shell {
    Shell::new(
        new_engine(),
        ShellConfig {
            seed: random_seed(),
            ..ShellConfig::default()
        },
    )
}

fn random_seed() -> u64 {
    (js_sys::Math::random() * 9_007_199_254_740_991.0) as u64
}

/// The engine of one database and the sessions of the pages that use it.
pub struct SharedEngine {
    /// `None` only while lent to a session's shell.
    engine: Option<Engine>,
    /// Client id → its shell, most recently used last.
    sessions: Vec<(String, Shell)>,
    /// `None`: in memory only.
    store: Option<IdbStore>,
    /// The last stored input of each client (from IndexedDB at takeover, then kept up to date).
    marks: HashMap<String, u64>,
    /// Per-document change records in the store since its packs were written.
    change_records: usize,
}

impl SharedEngine {
    /// The database's engine (loaded with [`load_store`], which counts the store's
    /// `change_records`), committing to `store`; `own` is the owner page's session, already built.
    pub fn new(
        (engine, change_records): (Engine, usize),
        store: Option<IdbStore>,
        marks: HashMap<String, u64>,
        own: Option<(String, Shell)>,
    ) -> SharedEngine {
        SharedEngine {
            engine: Some(engine),
            sessions: own.into_iter().collect(),
            store,
            marks,
            change_records,
        }
    }

    /// When the store holds more than [`COMPACT_AFTER`] change records, rewrites its documents
    /// as packs (the engine holds exactly what is stored: this runs between commands).
    pub async fn compact_if_due(this: &std::cell::RefCell<Option<SharedEngine>>) {
        // The packs are made only when due (`Option::zip` made them, every document written
        // out as BSON, after every command and before the first answer of a page's start).
        let due = this.borrow().as_ref().and_then(|s| {
            if s.change_records <= COMPACT_AFTER {
                return None;
            }
            Some((s.store.clone()?, packs_of(s.engine.as_ref()?)))
        });
        let Some((store, packs)) = due else {
            return;
        };
        match store.compact(&packs).await {
            Ok(()) => {
                if let Some(shared) = this.borrow_mut().as_mut() {
                    shared.change_records = 0;
                }
            }
            // The change records stay valid: the next commit tries again.
            Err(e) => web_sys::console::warn_1(&format!("compaction failed: {e}").into()),
        }
    }

    pub fn store(&self) -> Option<&IdbStore> {
        self.store.as_ref()
    }

    /// Forgets the store (its connection was closed for another page's upgrade).
    pub fn drop_store(&mut self) {
        self.store = None;
    }

    /// Whether `client`'s input `seq` is stored already (run by an owner that died before
    /// answering).
    pub fn applied(&self, client: &str, seq: u64) -> bool {
        self.marks.get(client).is_some_and(|&last| last >= seq)
    }

    /// Runs `work` (shell input or a file transfer) in `client`'s session over the shared
    /// engine; returns the reply (its catalogue included) and the changes to commit.
    pub fn evaluate(&mut self, client: &str, work: &Work) -> (Reply, ChangeBatch) {
        let Some(engine) = self.engine.take() else {
            return (
                failure("the database engine is busy"),
                ChangeBatch::default(),
            );
        };
        let at = match self.sessions.iter().position(|(c, _)| c == client) {
            Some(at) => at,
            None => {
                if self.sessions.len() >= MAX_SESSIONS {
                    self.sessions.remove(0);
                }
                self.sessions.push((client.to_string(), new_shell()));
                self.sessions.len() - 1
            }
        };
        let (name, mut shell) = self.sessions.remove(at);
        let placeholder = shell.replace_engine(engine);
        shell.set_language(chinese());
        let reply = match work {
            Work::Input { input } => {
                let evaluation = shell.eval(input);
                let stages = stage_views(&mut shell, &evaluation);
                Reply {
                    stages,
                    ..reply_of(&evaluation, Catalog::default())
                }
            }
            Work::Transfer { transfer } => match transfer::run(&mut shell, transfer) {
                Ok(done) => Reply {
                    file: done.file,
                    ..text_reply(done.summary, false)
                },
                Err(why) => text_reply(why, true),
            },
        };
        let batch = shell.with_engine(|e| e.take_changes());
        let catalog = catalog_of(&mut shell);
        self.engine = Some(shell.replace_engine(placeholder));
        self.sessions.push((name, shell));
        (Reply { catalog, ..reply }, batch)
    }

    /// Commits `batch` as `client`'s input `seq`. When IndexedDB refuses, the engine is rebuilt
    /// from what is stored (the command's changes are undone, in memory as on disk) and the
    /// error says why.
    pub async fn commit(
        this: &std::cell::RefCell<Option<SharedEngine>>,
        batch: &ChangeBatch,
        client: &str,
        seq: u64,
    ) -> Result<(), Reply> {
        let store = this.borrow().as_ref().and_then(|s| s.store.clone());
        let Some(store) = store else {
            return Ok(());
        };
        if batch.is_empty() {
            return Ok(());
        }
        match store.commit_marked(batch, Some((client, seq))).await {
            Ok(()) => {
                if let Some(shared) = this.borrow_mut().as_mut() {
                    shared.marks.insert(client.to_string(), seq);
                    shared.change_records += batch
                        .changes
                        .iter()
                        .filter(|c| {
                            matches!(
                                c,
                                Change::PutDocument { .. } | Change::DeleteDocument { .. }
                            )
                        })
                        .count();
                }
                Ok(())
            }
            Err(e) => {
                let reloaded = load_store(&store).await;
                let mut message = storage_failure(&e);
                if let Some(shared) = this.borrow_mut().as_mut() {
                    match reloaded {
                        Ok((engine, records)) => {
                            shared.engine = Some(engine);
                            shared.change_records = records;
                        }
                        Err(why) => message.output.push_str(&format!(
                            "\nThe data in memory may differ from the stored data ({why}): reload the page."
                        )),
                    }
                    message.catalog = shared.catalog_for(client);
                }
                Err(message)
            }
        }
    }

    /// What `client`'s sidebar shows: what its session's connection sees (the database, or the
    /// replica set or cluster it started), its current database and prompt.
    pub fn catalog_for(&mut self, client: &str) -> Catalog {
        let Some(mut engine) = self.engine.take() else {
            return Catalog::default();
        };
        let catalog = match self.sessions.iter_mut().find(|(c, _)| c == client) {
            Some((_, shell)) => {
                let placeholder = shell.replace_engine(engine);
                let catalog = catalog_of(shell);
                engine = shell.replace_engine(placeholder);
                catalog
            }
            None => Catalog {
                collections: collections_of(&mut engine),
                current_db: "test".into(),
                ..Catalog::default()
            },
        };
        self.engine = Some(engine);
        catalog
    }

    /// The collections with counts and indexes (for the change notice to other pages).
    pub fn collections(&mut self) -> Vec<CollectionSummary> {
        self.engine.as_mut().map(collections_of).unwrap_or_default()
    }
}

/// A fresh engine with what `store` holds, and how many change records the store has.
pub async fn load_store(store: &IdbStore) -> Result<(Engine, usize), String> {
    let (snapshot, change_records) = store.load().await.map_err(|e| e.to_string())?;
    Ok((engine_of(snapshot)?, change_records))
}

/// A fresh engine holding what a store read back.
pub fn engine_of(snapshot: engine::storage::Snapshot) -> Result<Engine, String> {
    new_engine()
        .load(snapshot)
        .map_err(|e| format!("stored data could not be loaded: {e}"))
}

/// Every document of the engine in packs of [`PACK_DOCUMENTS`], keyed by their first record id.
pub fn packs_of(engine: &Engine) -> Vec<(String, Vec<u8>)> {
    let cat = engine.catalog();
    let mut packs = Vec::new();
    for db in cat.database_names() {
        for (name, coll) in cat.collections(db) {
            let ns = engine::catalog::Namespace::new(db, name);
            let documents: Vec<(u64, Vec<u8>)> = coll
                .iter()
                .map(|(record_id, doc)| (record_id, doc.to_vec().unwrap_or_default()))
                .collect();
            for chunk in documents.chunks(PACK_DOCUMENTS) {
                let key = document_key(&ns, chunk[0].0);
                packs.push((
                    key,
                    encode_pack(chunk.iter().map(|(r, b)| (*r, b.as_slice()))),
                ));
            }
        }
    }
    packs
}

/// The reply of a command whose changes IndexedDB refused.
fn storage_failure(e: &StorageError) -> Reply {
    let (name, code) = match e {
        StorageError::QuotaExceeded(_) => (
            "MongoServerError[OutOfDiskSpace]".to_string(),
            Some(OUT_OF_DISK_SPACE),
        ),
        _ => ("StorageError".to_string(), None),
    };
    Reply {
        output: format!(
            "{name}: {e}. The command's changes were not saved and are undone; the data is as it \
             was after the last completed command."
        ),
        is_error: true,
        result: None,
        error: Some(ErrorInfo {
            name,
            code,
            code_name: code.map(|_| "OutOfDiskSpace".to_string()),
        }),
        catalog: Catalog::default(),
        notes: Vec::new(),
        stages: Vec::new(),
        file: None,
    }
}

/// What each stage of the aggregation `ev` ran returns, for the page's stage-by-stage view;
/// empty when the input was no aggregation, failed, or writes ($out, $merge: the preview runs
/// every stage again, and must not write twice).
pub fn stage_views(shell: &mut Shell, ev: &Evaluation) -> Vec<crate::protocol::StageView> {
    let Some(p) = ev.pipeline.as_ref().filter(|_| ev.error.is_none()) else {
        return Vec::new();
    };
    let writes = p.stages.iter().any(|s| {
        s.as_document()
            .is_some_and(|d| d.contains_key("$out") || d.contains_key("$merge"))
    });
    if writes {
        return Vec::new();
    }
    let options = engine::PreviewOptions {
        sample: STAGE_SAMPLE,
        let_vars: p.let_vars.clone(),
    };
    shell
        .with_engine(|e| e.preview_pipeline(&p.db, Some(&p.collection), &p.stages, &options))
        .map(|previews| crate::protocol::StageView::of(&previews))
        .unwrap_or_default()
}

/// Documents shown at each stage of the stage-by-stage view.
const STAGE_SAMPLE: usize = 5;

thread_local! {
    /// The page's language is Chinese (RequestBody::SetLanguage): `help` and notes follow it.
    static CHINESE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether `help` and the shell's notes are in Chinese in this worker.
pub fn chinese() -> bool {
    CHINESE.with(std::cell::Cell::get)
}

/// Sets the language of `help` and the shell's notes in this worker.
pub fn set_chinese(chinese: bool) {
    CHINESE.with(|c| c.set(chinese));
}

/// A reply that is only an error line.
pub fn failure(message: &str) -> Reply {
    text_reply(message.to_string(), true)
}

/// A reply that is only a line of text.
pub fn text_reply(output: String, is_error: bool) -> Reply {
    Reply {
        output,
        is_error,
        result: None,
        error: None,
        catalog: Catalog::default(),
        notes: Vec::new(),
        stages: Vec::new(),
        file: None,
    }
}

/// The page's view of one evaluation.
pub fn reply_of(ev: &Evaluation, catalog: Catalog) -> Reply {
    let is_error = ev.error.is_some() || ev.incomplete;
    let output = if ev.incomplete {
        "SyntaxError: the statement is not finished (missing a closing bracket or quote?)".into()
    } else {
        ev.text()
    };
    Reply {
        output,
        is_error,
        result: ev
            .value
            .as_ref()
            .filter(|_| ev.error.is_none())
            .and_then(|v| StructuredResult::of(v, ev.more)),
        error: ev.error.as_ref().map(|e| ErrorInfo {
            name: e.name.clone(),
            code: e.code,
            code_name: e
                .code
                .map(|c| engine::error::ErrorCode::from_code(c).name()),
        }),
        catalog,
        notes: ev.notes.clone(),
        stages: Vec::new(),
        file: None,
    }
}

/// What the sidebar and prompt show for `shell`: the databases and collections its connection
/// sees (with counts), its current database, the replica set or sharded cluster it is
/// connected to, and the prompt's prefix.
pub fn catalog_of(shell: &mut Shell) -> Catalog {
    Catalog {
        collections: collections_seen_by(shell),
        current_db: shell.current_db(),
        topology: topology_of(shell),
        cluster: cluster_of(shell),
        prompt_prefix: shell.prompt_prefix(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(shell: &mut Shell, input: &str) {
        let ev = shell.eval(input);
        assert!(ev.error.is_none(), "{input}: {ev:?}");
    }

    /// The prompt the page shows is mongosh's: the set's name and the connected member's state,
    /// which changes when the member steps down, and `[direct: mongos]` through a router.
    #[test]
    fn the_catalog_carries_the_prompt() {
        let mut shell = Shell::new(Engine::new(), shell::ShellConfig::default());
        assert_eq!(catalog_of(&mut shell).prompt(), "test>");
        run(
            &mut shell,
            r#"rs.initiate({_id: "rs1", members: [{_id: 0, host: "a:1"}, {_id: 1, host: "b:1"}]})"#,
        );
        assert_eq!(
            catalog_of(&mut shell).prompt(),
            "rs1 [direct: primary] test>"
        );
        run(&mut shell, "rs.stepDown()");
        run(&mut shell, "use shop");
        assert_eq!(
            catalog_of(&mut shell).prompt(),
            "rs1 [direct: secondary] shop>"
        );
        run(&mut shell, "var st = new ShardingTest({shards: 2})");
        let catalog = catalog_of(&mut shell);
        assert_eq!(catalog.prompt(), "[direct: mongos] shop>");
        assert!(catalog.topology.is_none() && catalog.cluster.is_some());
    }
}
