//! The IndexedDB store in headless Chromium: a committed batch survives closing and reopening
//! the database, and the engine rebuilt from it answers queries.
#![cfg(target_arch = "wasm32")]

use bson::doc;
use engine::Engine;
use engine::clock::SimulatedClock;
use engine::storage::{Change, ChangeBatch};
use wasm_bindgen_test::*;
use web::idb_store::IdbStore;

wasm_bindgen_test_configure!(run_in_browser);

fn engine() -> Engine {
    Engine::with_clock(Box::new(SimulatedClock::new(1_700_000_000_000)), 7)
}

#[wasm_bindgen_test]
async fn documents_survive_reopening_the_store() {
    let name = format!("sprout-test-{}", js_sys::Math::random());
    let mut e = engine();
    e.run_command(
        "shop",
        &doc! {"insert": "products", "documents": [
            {"_id": 1, "name": "Product 1", "price": 10},
            {"_id": 2, "name": "Product 2", "price": 20},
        ]},
    );
    let batch = e.take_changes();
    let store = IdbStore::open(&name).await.expect("open");
    store.commit(&batch).await.expect("commit");
    store.close();

    let store = IdbStore::open(&name).await.expect("reopen");
    let snapshot = store.snapshot().await.expect("snapshot");
    assert_eq!(snapshot.collections.len(), 1);
    assert_eq!(snapshot.documents.len(), 2);
    let mut reloaded = engine().load(snapshot).expect("load");
    let reply = reloaded.run_command("shop", &doc! {"find": "products", "filter": {"price": 20}});
    let batch = reply
        .get_document("cursor")
        .unwrap()
        .get_array("firstBatch")
        .unwrap();
    assert_eq!(batch.len(), 1);
    assert_eq!(
        batch[0].as_document().unwrap().get_str("name").unwrap(),
        "Product 2"
    );

    // Deletes and drops commit too.
    reloaded.run_command(
        "shop",
        &doc! {"delete": "products", "deletes": [{"q": {"_id": 1}, "limit": 1}]},
    );
    store
        .commit(&reloaded.take_changes())
        .await
        .expect("commit delete");
    assert_eq!(store.snapshot().await.unwrap().documents.len(), 1);
    store
        .commit(&ChangeBatch {
            changes: vec![Change::DropCollection {
                ns: engine::catalog::Namespace::new("shop", "products"),
            }],
        })
        .await
        .expect("commit drop");
    let after = store.snapshot().await.unwrap();
    assert!(after.documents.is_empty() && after.collections.is_empty());
    store.close();
}
