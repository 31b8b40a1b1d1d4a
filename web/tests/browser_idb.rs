//! The IndexedDB store in headless Chromium: a committed batch survives closing and reopening
//! the database, and the engine rebuilt from it answers queries; documents packed by a compaction
//! with later changes laid over them reload whole.
#![cfg(target_arch = "wasm32")]

use bson::doc;
use engine::Engine;
use engine::clock::SimulatedClock;
use engine::storage::{Change, ChangeBatch};
use wasm_bindgen_test::*;
use web::worker::idb_store::IdbStore;

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

#[wasm_bindgen_test]
async fn packed_documents_and_later_changes_reload_whole() {
    let name = format!("sprout-test-packs-{}", js_sys::Math::random());
    let mut e = engine();
    e.run_command(
        "shop",
        &doc! {"insert": "products", "documents": [
            {"_id": 1, "price": 10}, {"_id": 2, "price": 20}, {"_id": 3, "price": 30},
        ]},
    );
    let store = IdbStore::open(&name).await.expect("open");
    store.commit(&e.take_changes()).await.expect("commit");
    // Everything as packs, then changes laid over them: a delete, an update, an insert.
    store
        .compact(&web::worker::shared_engine::packs_of(&e))
        .await
        .expect("compact");
    assert_eq!(
        store.load().await.unwrap().1,
        0,
        "no change records after compaction"
    );
    e.run_command(
        "shop",
        &doc! {"delete": "products", "deletes": [{"q": {"_id": 1}, "limit": 1}]},
    );
    e.run_command(
        "shop",
        &doc! {"update": "products", "updates": [{"q": {"_id": 2}, "u": {"$set": {"price": 21}}}]},
    );
    e.run_command(
        "shop",
        &doc! {"insert": "products", "documents": [{"_id": 4, "price": 40}]},
    );
    store
        .commit(&e.take_changes())
        .await
        .expect("commit changes");
    store.close();

    let store = IdbStore::open(&name).await.expect("reopen");
    let (snapshot, change_records) = store.load().await.expect("load");
    assert_eq!(change_records, 3);
    let mut reloaded = engine().load(snapshot).expect("load engine");
    let reply = reloaded.run_command(
        "shop",
        &doc! {"find": "products", "filter": {}, "sort": {"_id": 1}},
    );
    let found = reply
        .get_document("cursor")
        .unwrap()
        .get_array("firstBatch")
        .unwrap()
        .clone();
    assert_eq!(
        found,
        vec![
            bson::Bson::Document(doc! {"_id": 2, "price": 21}),
            bson::Bson::Document(doc! {"_id": 3, "price": 30}),
            bson::Bson::Document(doc! {"_id": 4, "price": 40}),
        ]
    );
    store.close();
}
