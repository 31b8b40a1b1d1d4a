//! The only module that calls the engine and the shell from the web app (the UI talks to this).
//!
//! It owns the shell session for the page, runs one input at a time, and commits each input's
//! changes to IndexedDB as one transaction before reporting the command as durable.

use std::cell::RefCell;

use engine::Engine;
use engine::clock::Clock;
use shell::{Evaluation, Shell, ShellConfig};

use crate::idb_store::IdbStore;

/// The browser's clock (std's SystemTime is not available in wasm32-unknown-unknown).
pub struct BrowserClock;

impl Clock for BrowserClock {
    fn now_millis(&self) -> i64 {
        js_sys::Date::now() as i64
    }
}

/// A collection as the sidebar shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CollectionSummary {
    pub db: String,
    pub name: String,
    pub count: usize,
}

struct Client {
    shell: Shell,
    store: Option<IdbStore>,
}

thread_local! {
    static CLIENT: RefCell<Option<Client>> = const { RefCell::new(None) };
}

/// The IndexedDB database the playground keeps its data in.
pub const DATABASE_NAME: &str = "sprout-playground";

fn random_seed() -> u64 {
    (js_sys::Math::random() * 9_007_199_254_740_991.0) as u64
}

/// Opens IndexedDB, loads what it holds into a fresh engine, and starts the shell. On storage
/// failure the playground still works, in memory, and says so.
pub async fn start() -> Result<(), String> {
    let (store, snapshot, warning) = match IdbStore::open(DATABASE_NAME).await {
        Ok(store) => match store.snapshot().await {
            Ok(s) => (Some(store), s, None),
            Err(e) => (None, Default::default(), Some(e)),
        },
        Err(e) => (None, Default::default(), Some(e)),
    };
    let engine = Engine::with_clock(Box::new(BrowserClock), random_seed())
        .load(snapshot)
        .map_err(|e| format!("stored data could not be loaded: {e}"))?;
    let shell = Shell::new(
        engine,
        ShellConfig {
            seed: random_seed(),
            ..ShellConfig::default()
        },
    );
    CLIENT.with(|c| *c.borrow_mut() = Some(Client { shell, store }));
    match warning {
        Some(w) => Err(format!("{w} — data will not survive a reload")),
        None => Ok(()),
    }
}

pub fn is_ready() -> bool {
    CLIENT.with(|c| c.borrow().is_some())
}

/// Runs one input in the shell, then commits its changes to IndexedDB.
pub async fn run(input: &str) -> Evaluation {
    let (evaluation, batch, store) = CLIENT.with(|c| {
        let mut c = c.borrow_mut();
        match c.as_mut() {
            Some(client) => {
                let ev = client.shell.eval(input);
                let batch = client.shell.with_engine(|e| e.take_changes());
                (ev, batch, client.store.clone())
            }
            None => (
                Evaluation {
                    printed: vec!["the shell is still starting".into()],
                    ..Evaluation::default()
                },
                Default::default(),
                None,
            ),
        }
    });
    if let Some(store) = store
        && let Err(e) = store.commit(&batch).await
    {
        let mut ev = evaluation;
        ev.printed.push(format!("warning: {e}"));
        return ev;
    }
    evaluation
}

/// Databases and collections with document counts, for the sidebar.
pub fn collections() -> Vec<CollectionSummary> {
    CLIENT.with(|c| {
        let c = c.borrow();
        let Some(client) = c.as_ref() else {
            return Vec::new();
        };
        client.shell.with_engine(|e| {
            let cat = e.catalog();
            cat.database_names()
                .flat_map(|db| {
                    cat.collections(db)
                        .map(move |(name, coll)| CollectionSummary {
                            db: db.to_string(),
                            name: name.to_string(),
                            count: coll.len(),
                        })
                })
                .collect()
        })
    })
}

/// The shell's current database.
pub fn current_db() -> String {
    CLIENT.with(|c| {
        c.borrow_mut()
            .as_mut()
            .map(|cl| cl.shell.current_db())
            .unwrap_or_else(|| "test".into())
    })
}
