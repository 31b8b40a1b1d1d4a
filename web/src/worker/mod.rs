//! The shell worker's side of the playground (the `worker` binary's wasm module, `worker_bg`):
//! the engine and the shell in a dedicated Web Worker, the database kept in IndexedDB, the
//! database shared with the other pages that open it, the lessons' data and answer checks. It
//! talks to its page only through [`crate::protocol`].

pub mod collation_data;
pub mod idb_store;
pub mod lessons;
pub mod record_packs;
pub mod sharded_cluster;
pub mod shared_engine;
pub mod shell_worker;
pub mod sidebar;
pub mod site_file;
pub mod transfer;
