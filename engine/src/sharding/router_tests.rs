//! The router end to end: sharding a collection, routing, merging, splits, the balancer.

use std::rc::Rc;

use bson::{Bson, Document, doc};

use super::Router;
use crate::clock::SimulatedClock;

fn cluster(shards: usize) -> Router {
    let clock = Rc::new(SimulatedClock::new(1_700_000_000_000));
    let mut router = Router::new(clock, 7);
    for i in 0..shards {
        router
            .add_shard(&format!("localhost:2700{}", i + 1), None)
            .unwrap();
    }
    router
}

fn ok(reply: &Document) -> &Document {
    assert_eq!(reply.get_f64("ok").ok(), Some(1.0), "{reply}");
    reply
}

fn batch(reply: &Document) -> Vec<Document> {
    reply
        .get_document("cursor")
        .unwrap()
        .get_array("firstBatch")
        .unwrap()
        .iter()
        .map(|b| b.as_document().unwrap().clone())
        .collect()
}

fn sharded_numbers(router: &mut Router) {
    ok(&router.run_command("admin", &doc! {"enableSharding": "test"}));
    ok(&router.run_command(
        "admin",
        &doc! {"shardCollection": "test.c", "key": {"x": 1}},
    ));
    let docs: Vec<Bson> = (0..20)
        .map(|i| Bson::Document(doc! {"_id": i, "x": i}))
        .collect();
    ok(&router.run_command("test", &doc! {"insert": "c", "documents": docs}));
    ok(&router.run_command("admin", &doc! {"split": "test.c", "middle": {"x": 10}}));
    ok(&router.run_command(
        "admin",
        &doc! {"moveChunk": "test.c", "find": {"x": 15}, "to": "shard0001"},
    ));
}

#[test]
fn add_shard_names_shards_and_lists_them() {
    let mut router = cluster(2);
    let reply = router.run_command("admin", &doc! {"listShards": 1});
    let shards = ok(&reply).get_array("shards").unwrap();
    assert_eq!(shards.len(), 2);
    assert_eq!(
        shards[0].as_document().unwrap().get_str("_id").unwrap(),
        "shard0000"
    );
    let reply = router.run_command(
        "admin",
        &doc! {"addShard": "rs1/172.17.1.2:27017,172.17.1.3:27017"},
    );
    assert_eq!(ok(&reply).get_str("shardAdded").unwrap(), "rs1");
}

#[test]
fn shard_collection_needs_an_index_on_a_non_empty_collection() {
    let mut router = cluster(2);
    ok(&router.run_command(
        "ecommerce",
        &doc! {"insert": "customers", "documents": [{"address": {"zip": 2492}, "registered": 1}]},
    ));
    let reply = router.run_command("admin", &doc! {"shardCollection": "ecommerce.customers", "key": {"address.zip": 1, "registered": 1}});
    assert_eq!(reply.get_i32("code").unwrap(), 72);
    assert_eq!(reply.get_str("codeName").unwrap(), "InvalidOptions");
    assert!(
        reply
            .get_str("errmsg")
            .unwrap()
            .starts_with("Please create an index that starts with the proposed shard key")
    );
    ok(&router.run_command("ecommerce", &doc! {"createIndexes": "customers", "indexes": [{"key": {"address.zip": 1, "registered": 1}, "name": "zip_reg"}]}));
    let reply = router.run_command("admin", &doc! {"shardCollection": "ecommerce.customers", "key": {"address.zip": 1, "registered": 1}});
    assert_eq!(
        ok(&reply).get_str("collectionsharded").unwrap(),
        "ecommerce.customers"
    );
    // Sharding again with another key: AlreadyInitialized.
    let reply = router.run_command(
        "admin",
        &doc! {"shardCollection": "ecommerce.customers", "key": {"x": 1}},
    );
    assert_eq!(reply.get_i32("code").unwrap(), 23);
}

#[test]
fn shard_collection_refuses_multikey_and_foreign_unique_indexes() {
    let mut router = cluster(1);
    ok(&router.run_command(
        "social",
        &doc! {"insert": "inbox", "documents": [{"to": ["Mike", "Billie"]}]},
    ));
    ok(&router.run_command(
        "social",
        &doc! {"createIndexes": "inbox", "indexes": [{"key": {"to": 1}, "name": "to_1"}]},
    ));
    let reply = router.run_command(
        "admin",
        &doc! {"shardCollection": "social.inbox", "key": {"to": 1}},
    );
    assert_eq!(reply.get_i32("code").unwrap(), 72);
    assert!(reply.get_str("errmsg").unwrap().contains("multikey"));
    ok(&router.run_command("t", &doc! {"createIndexes": "u", "indexes": [{"key": {"email": 1}, "name": "email_1", "unique": true}]}));
    let reply = router.run_command(
        "admin",
        &doc! {"shardCollection": "t.u", "key": {"name": 1}},
    );
    assert_eq!(reply.get_i32("code").unwrap(), 72);
    assert!(
        reply
            .get_str("errmsg")
            .unwrap()
            .contains("Uniqueness can't be maintained unless shard key is a prefix")
    );
}

#[test]
fn empty_collection_gets_the_key_index() {
    let mut router = cluster(2);
    ok(&router.run_command(
        "admin",
        &doc! {"shardCollection": "social.inbox", "key": {"from": 1}},
    ));
    let reply = router.run_command("social", &doc! {"listIndexes": "inbox"});
    let names: Vec<String> = batch(ok(&reply))
        .iter()
        .map(|d| d.get_str("name").unwrap().to_string())
        .collect();
    assert_eq!(names, vec!["_id_", "from_1"]);
}

#[test]
fn finds_target_one_shard_or_merge_in_order() {
    let mut router = cluster(2);
    sharded_numbers(&mut router);
    let reply = router.run_command("test", &doc! {"find": "c", "filter": {"x": 15}});
    assert_eq!(batch(ok(&reply)).len(), 1);
    assert_eq!(router.last_targeted, vec!["shard0001"]);
    let reply = router.run_command(
        "test",
        &doc! {"find": "c", "filter": {}, "sort": {"x": -1}, "skip": 2, "limit": 3},
    );
    let xs: Vec<i32> = batch(ok(&reply))
        .iter()
        .map(|d| d.get_i32("x").unwrap())
        .collect();
    assert_eq!(xs, vec![17, 16, 15]);
    assert_eq!(router.last_targeted, vec!["shard0000", "shard0001"]);
    let reply = router.run_command("test", &doc! {"count": "c", "query": {"x": {"$gte": 5}}});
    assert_eq!(ok(&reply).get_i32("n").unwrap(), 15);
    let reply = router.run_command(
        "test",
        &doc! {"distinct": "c", "key": "x", "query": {"x": {"$lt": 12, "$gte": 8}}},
    );
    assert_eq!(ok(&reply).get_array("values").unwrap().len(), 4);
}

#[test]
fn explain_shows_single_shard_and_merge_sort() {
    let mut router = cluster(2);
    sharded_numbers(&mut router);
    let reply = router.run_command(
        "test",
        &doc! {"explain": {"find": "c", "filter": {"x": 3}}, "verbosity": "queryPlanner"},
    );
    let plan = ok(&reply)
        .get_document("queryPlanner")
        .unwrap()
        .get_document("winningPlan")
        .unwrap();
    assert_eq!(plan.get_str("stage").unwrap(), "SINGLE_SHARD");
    let shard = plan.get_array("shards").unwrap()[0].as_document().unwrap();
    assert_eq!(shard.get_str("shardName").unwrap(), "shard0000");
    assert_eq!(
        shard.get_str("connectionString").unwrap(),
        "localhost:27001"
    );
    assert!(shard.contains_key("winningPlan"));
    let reply = router.run_command("test", &doc! {"explain": {"find": "c", "filter": {}, "sort": {"x": 1}}, "verbosity": "executionStats"});
    let plan = ok(&reply)
        .get_document("queryPlanner")
        .unwrap()
        .get_document("winningPlan")
        .unwrap();
    assert_eq!(plan.get_str("stage").unwrap(), "SHARD_MERGE_SORT");
    assert_eq!(plan.get_array("shards").unwrap().len(), 2);
    assert_eq!(
        reply
            .get_document("executionStats")
            .unwrap()
            .get_i32("nReturned")
            .unwrap(),
        20
    );
}

#[test]
fn aggregate_merges_groups_and_sorts() {
    let mut router = cluster(2);
    sharded_numbers(&mut router);
    let pipeline = vec![
        Bson::Document(doc! {"$match": {"x": {"$gte": 0}}}),
        Bson::Document(doc! {"$group": {"_id": {"$mod": ["$x", 2]}, "n": {"$sum": 1}}}),
        Bson::Document(doc! {"$sort": {"_id": 1}}),
        Bson::Document(doc! {"$limit": 5}),
    ];
    let reply = router.run_command(
        "test",
        &doc! {"aggregate": "c", "pipeline": pipeline, "cursor": {}},
    );
    let groups = batch(ok(&reply));
    assert_eq!(groups.len(), 2);
    assert_eq!(groups[0].get_i32("n").unwrap(), 10);
}

#[test]
fn writes_follow_8_0_rules() {
    let mut router = cluster(2);
    sharded_numbers(&mut router);
    // updateOne without the shard key: allowed.
    let reply = router.run_command(
        "test",
        &doc! {"update": "c", "updates": [{"q": {"_id": 15}, "u": {"$set": {"y": 1}}}]},
    );
    assert_eq!(
        ok(&reply)
            .get_i32("nModified")
            .unwrap_or(reply.get_i64("nModified").unwrap_or(0) as i32),
        1
    );
    // An upsert must fix the shard key.
    let reply = router.run_command("test", &doc! {"update": "c", "updates": [{"q": {"y": 7}, "u": {"$set": {"z": 1}}, "upsert": true}]});
    let err = reply.get_array("writeErrors").unwrap()[0]
        .as_document()
        .unwrap();
    assert_eq!(err.get_i32("code").unwrap(), 61);
    // Changing the key value moves the document to the shard owning the new value.
    ok(&router.run_command(
        "test",
        &doc! {"update": "c", "updates": [{"q": {"x": 2}, "u": {"$set": {"x": 12}}}]},
    ));
    let reply = router.run_command("test", &doc! {"find": "c", "filter": {"x": 12}});
    assert_eq!(batch(ok(&reply)).len(), 2);
    assert_eq!(router.last_targeted, vec!["shard0001"]);
    // A multi-update may touch the key's field but not change a key value.
    let reply = router.run_command("test", &doc! {"update": "c", "updates": [{"q": {"x": {"$gte": 18}}, "u": {"$inc": {"x": 100}}, "multi": true}]});
    let err = reply.get_array("writeErrors").unwrap()[0]
        .as_document()
        .unwrap();
    assert_eq!(err.get_i32("code").unwrap(), 72);
    assert_eq!(
        err.get_str("errmsg").unwrap(),
        "Multi-update operations are not allowed when updating the shard key field."
    );
    let reply = router.run_command("test", &doc! {"update": "c", "updates": [{"q": {"x": {"$gte": 18, "$lt": 19}}, "u": {"$set": {"x": 18}}, "multi": true}]});
    assert!(ok(&reply).get_array("writeErrors").is_err(), "{reply}");
    let reply = router.run_command(
        "test",
        &doc! {"delete": "c", "deletes": [{"q": {"_id": 3}, "limit": 1}]},
    );
    assert_eq!(ok(&reply).get_i32("n").unwrap(), 1);
}

#[test]
fn inserts_split_chunks_and_the_balancer_moves_them() {
    let mut router = cluster(2);
    ok(&router.run_command(
        "admin",
        &doc! {"shardCollection": "logs.events", "key": {"t": 1}},
    ));
    let docs: Vec<Bson> = (0..200)
        .map(|i| Bson::Document(doc! {"t": i, "pad": "x".repeat(40)}))
        .collect();
    ok(&router.run_command("logs", &doc! {"insert": "events", "documents": docs}));
    let chunks = router
        .metadata()
        .collection("logs.events")
        .unwrap()
        .chunks
        .chunks
        .len();
    assert!(chunks > 2, "{chunks} chunks");
    assert!(
        router
            .metadata()
            .collection("logs.events")
            .unwrap()
            .chunks
            .chunks
            .iter()
            .all(|c| c.shard == "shard0000")
    );
    router.advance_clock(120_000);
    let on_second = router
        .metadata()
        .collection("logs.events")
        .unwrap()
        .chunks
        .chunks
        .iter()
        .filter(|c| c.shard == "shard0001")
        .count();
    assert!(on_second > 0);
    let reply = router.run_command("logs", &doc! {"count": "events"});
    assert_eq!(ok(&reply).get_i32("n").unwrap(), 200);
    // Stopped, the balancer moves nothing.
    ok(&router.run_command("admin", &doc! {"balancerStop": 1}));
    let before = router
        .metadata()
        .collection("logs.events")
        .unwrap()
        .chunks
        .clone();
    router.advance_clock(120_000);
    assert_eq!(
        router.metadata().collection("logs.events").unwrap().chunks,
        before
    );
}

#[test]
fn zones_pull_chunks_to_their_shards() {
    let mut router = cluster(2);
    sharded_numbers(&mut router);
    ok(&router.run_command(
        "admin",
        &doc! {"moveChunk": "test.c", "find": {"x": 15}, "to": "shard0000"},
    ));
    ok(&router.run_command("admin", &doc! {"addShardToZone": "shard0001", "zone": "EU"}));
    ok(&router.run_command(
        "admin",
        &doc! {"updateZoneKeyRange": "test.c", "min": {"x": 0}, "max": {"x": 5}, "zone": "EU"},
    ));
    router.advance_clock(30_000);
    let reply = router.run_command("test", &doc! {"find": "c", "filter": {"x": 3}});
    assert_eq!(batch(ok(&reply)).len(), 1);
    assert_eq!(router.last_targeted, vec!["shard0001"]);
    let reply = router.run_command("config", &doc! {"find": "tags"});
    assert_eq!(batch(ok(&reply))[0].get_str("tag").unwrap(), "EU");
    let reply = router.run_command(
        "admin",
        &doc! {"updateZoneKeyRange": "test.c", "min": {"x": 0}, "max": {"x": 5}, "zone": "ASIA"},
    );
    assert_eq!(reply.get_f64("ok").unwrap(), 0.0);
}

#[test]
fn config_database_is_readable() {
    let mut router = cluster(2);
    sharded_numbers(&mut router);
    let reply = router.run_command(
        "config",
        &doc! {"find": "chunks", "filter": {}, "sort": {"min": 1}},
    );
    let chunks = batch(ok(&reply));
    assert_eq!(chunks.len(), 2);
    assert_eq!(chunks[1].get_str("shard").unwrap(), "shard0001");
    let reply = router.run_command("config", &doc! {"find": "databases"});
    assert_eq!(
        batch(ok(&reply))[0].get_str("primary").unwrap(),
        "shard0000"
    );
    let reply = router.run_command("config", &doc! {"find": "collections"});
    assert_eq!(
        batch(ok(&reply))[0].get_document("key").unwrap(),
        &doc! {"x": 1}
    );
}

#[test]
fn hashed_keys_spread_an_empty_collection_over_the_shards() {
    let mut router = cluster(2);
    ok(&router.run_command(
        "admin",
        &doc! {"shardCollection": "h.users", "key": {"user": "hashed"}},
    ));
    let entry = router.metadata().collection("h.users").unwrap();
    assert_eq!(entry.chunks.chunks.len(), 2);
    assert_eq!(entry.chunks.chunks[1].shard, "shard0001");
    let docs: Vec<Bson> = (0..40)
        .map(|i| Bson::Document(doc! {"user": format!("u{i}")}))
        .collect();
    ok(&router.run_command("h", &doc! {"insert": "users", "documents": docs}));
    let mut per_shard = Vec::new();
    for shard in ["shard0000", "shard0001"] {
        let reply = router
            .server(shard)
            .unwrap()
            .run_command("h", &doc! {"count": "users"});
        per_shard.push(reply.get_i32("n").unwrap());
    }
    assert_eq!(per_shard.iter().sum::<i32>(), 40);
    assert!(per_shard.iter().all(|&n| n > 0), "{per_shard:?}");
    // Equality on a hashed key targets one shard; a range cannot.
    router.run_command("h", &doc! {"find": "users", "filter": {"user": "u7"}});
    assert_eq!(router.last_targeted.len(), 1);
    router.run_command(
        "h",
        &doc! {"find": "users", "filter": {"user": {"$gt": "u7"}}},
    );
    assert_eq!(router.last_targeted.len(), 2);
    let reply = router.run_command(
        "admin",
        &doc! {"shardCollection": "h.other", "key": {"user": "hashed"}, "unique": true},
    );
    assert_eq!(reply.get_i32("code").unwrap(), 72);
}

#[test]
fn explains_count_and_aggregate_through_the_router() {
    let mut router = cluster(2);
    sharded_numbers(&mut router);
    let reply = router.run_command("test", &doc! {"explain": {"count": "c", "query": {"x": {"$gte": 12}}}, "verbosity": "queryPlanner"});
    let plan = ok(&reply)
        .get_document("queryPlanner")
        .unwrap()
        .get_document("winningPlan")
        .unwrap();
    assert_eq!(plan.get_str("stage").unwrap(), "SINGLE_SHARD");
    let pipeline = vec![
        Bson::Document(doc! {"$match": {"x": {"$gte": 0}}}),
        Bson::Document(doc! {"$group": {"_id": null, "n": {"$sum": 1}}}),
    ];
    let reply = router.run_command("test", &doc! {"explain": {"aggregate": "c", "pipeline": pipeline, "cursor": {}}, "verbosity": "queryPlanner"});
    // Each shard runs the $match and a partial $group; the merger sums the partial counts.
    let split = ok(&reply).get_document("splitPipeline").unwrap();
    assert_eq!(
        split.get_array("shardsPart").unwrap(),
        &vec![
            Bson::Document(doc! {"$match": {"x": {"$gte": 0}}}),
            Bson::Document(doc! {"$group": {"_id": null, "n": {"$sum": 1}}}),
        ]
    );
    assert_eq!(
        split.get_array("mergerPart").unwrap(),
        &vec![Bson::Document(
            doc! {"$group": {"_id": "$_id", "n": {"$sum": "$n"}}}
        )]
    );
    assert_eq!(reply.get_document("shards").unwrap().len(), 2);
    let reply = router.run_command("test", &doc! {"explain": {"delete": "c", "deletes": [{"q": {}, "limit": 0}]}, "verbosity": "queryPlanner"});
    let plan = ok(&reply)
        .get_document("queryPlanner")
        .unwrap()
        .get_document("winningPlan")
        .unwrap();
    assert_eq!(plan.get_str("stage").unwrap(), "SHARD_WRITE");
}

#[test]
fn replica_set_shards_hold_the_data_on_their_members() {
    let mut router = cluster(0);
    router
        .add_shard("rs0/172.17.1.2:27017,172.17.1.3:27017", None)
        .unwrap();
    router
        .add_shard("rs1/172.17.2.2:27017,172.17.2.3:27017", None)
        .unwrap();
    ok(&router.run_command(
        "admin",
        &doc! {"shardCollection": "test.c", "key": {"x": 1}},
    ));
    ok(&router.run_command(
        "test",
        &doc! {"insert": "c", "documents": [{"x": 1}, {"x": 50}]},
    ));
    ok(&router.run_command("admin", &doc! {"split": "test.c", "middle": {"x": 10}}));
    ok(&router.run_command(
        "admin",
        &doc! {"moveChunk": "test.c", "find": {"x": 50}, "to": "rs1"},
    ));
    let reply = router.run_command(
        "test",
        &doc! {"explain": {"find": "c", "filter": {"x": 50}}, "verbosity": "queryPlanner"},
    );
    let shard = ok(&reply)
        .get_document("queryPlanner")
        .unwrap()
        .get_document("winningPlan")
        .unwrap()
        .get_array("shards")
        .unwrap()[0]
        .as_document()
        .unwrap()
        .clone();
    assert_eq!(shard.get_str("shardName").unwrap(), "rs1");
    assert_eq!(
        shard.get_str("connectionString").unwrap(),
        "rs1/172.17.2.2:27017,172.17.2.3:27017"
    );
    assert_eq!(
        shard
            .get_document("serverInfo")
            .unwrap()
            .get_str("host")
            .unwrap(),
        "172.17.2.2:27017"
    );
    let reply = router.run_command("test", &doc! {"find": "c", "sort": {"x": 1}});
    assert_eq!(batch(ok(&reply)).len(), 2);
}

#[test]
fn unsharded_collections_live_on_the_primary_shard() {
    let mut router = cluster(2);
    ok(&router.run_command("admin", &doc! {"enableSharding": "a"}));
    ok(&router.run_command("admin", &doc! {"enableSharding": "b"}));
    ok(&router.run_command("b", &doc! {"insert": "c", "documents": [{"_id": 1}]}));
    let reply = router.run_command("config", &doc! {"find": "databases", "sort": {"_id": 1}});
    let primaries: Vec<String> = batch(ok(&reply))
        .iter()
        .map(|d| d.get_str("primary").unwrap().to_string())
        .collect();
    assert_eq!(primaries, vec!["shard0000", "shard0001"]);
    let reply = router
        .server("shard0001")
        .unwrap()
        .run_command("b", &doc! {"count": "c"});
    assert_eq!(reply.get_i32("n").unwrap(), 1);
    let reply = router.run_command(
        "b",
        &doc! {"explain": {"find": "c", "filter": {}}, "verbosity": "queryPlanner"},
    );
    let plan = ok(&reply)
        .get_document("queryPlanner")
        .unwrap()
        .get_document("winningPlan")
        .unwrap();
    assert_eq!(plan.get_str("stage").unwrap(), "SINGLE_SHARD");
    let reply = router.run_command(
        "admin",
        &doc! {"moveChunk": "b.c", "find": {"_id": 1}, "to": "shard0000"},
    );
    assert_eq!(reply.get_i32("code").unwrap(), 118);
    let reply = router.run_command("admin", &doc! {"listDatabases": 1, "nameOnly": true});
    let names: Vec<String> = ok(&reply)
        .get_array("databases")
        .unwrap()
        .iter()
        .map(|d| {
            d.as_document()
                .unwrap()
                .get_str("name")
                .unwrap()
                .to_string()
        })
        .collect();
    assert!(names.contains(&"b".to_string()), "{names:?}");
}

#[test]
fn move_chunk_finds_the_chunk_from_a_query_on_dotted_key_fields() {
    let mut router = cluster(2);
    ok(&router.run_command("admin", &doc! {"enableSharding": "shop"}));
    ok(&router.run_command(
        "admin",
        &doc! {"shardCollection": "shop.customers", "key": {"address.zip": 1, "registered": 1}},
    ));
    ok(&router.run_command(
        "admin",
        &doc! {"split": "shop.customers", "middle": {"address.zip": 50000, "registered": Bson::MinKey}},
    ));
    // The book's shell writes the key's fields as dotted names: the upper chunk is the one
    // holding {address.zip: 50000, registered: MinKey}.
    ok(&router.run_command(
        "admin",
        &doc! {"moveChunk": "shop.customers", "find": {"address.zip": 50000, "registered": Bson::MinKey}, "to": "shard0001"},
    ));
    let chunks = router.metadata().documents("chunks");
    let upper = chunks
        .iter()
        .find(|c| {
            c.get_document("min")
                .is_ok_and(|m| m.get("address.zip") == Some(&Bson::Int32(50000)))
        })
        .expect("the upper chunk");
    assert_eq!(upper.get_str("shard").unwrap(), "shard0001", "{chunks:?}");
}

#[test]
fn a_group_split_between_shards_answers_as_one_server() {
    let mut router = cluster(2);
    sharded_numbers(&mut router);
    // A few values $avg and $sum skip, on both shards.
    let extra = vec![
        Bson::Document(doc! {"_id": 100, "x": 3, "y": "text"}),
        Bson::Document(doc! {"_id": 101, "x": 17, "y": "text"}),
    ];
    ok(&router.run_command("test", &doc! {"insert": "c", "documents": extra.clone()}));
    let mut single = crate::Engine::new();
    let docs: Vec<Bson> = (0..20)
        .map(|i| Bson::Document(doc! {"_id": i, "x": i}))
        .chain(extra)
        .collect();
    ok(&single.run_command("test", &doc! {"insert": "c", "documents": docs}));
    let pipeline = vec![
        Bson::Document(doc! {"$match": {"x": {"$gte": 1}}}),
        Bson::Document(doc! {"$group": {
            "_id": {"$mod": ["$x", 3]},
            "s": {"$sum": "$x"},
            "a": {"$avg": "$x"},
            "ay": {"$avg": "$y"},
            "n": {"$count": {}},
            "lo": {"$min": "$x"},
            "hi": {"$max": "$x"},
            "p": {"$push": "$x"},
            "u": {"$addToSet": {"$mod": ["$x", 2]}},
        }}),
        // Without a sort, the order of $push and $addToSet across shards is not defined.
        Bson::Document(doc! {"$set": {
            "p": {"$sortArray": {"input": "$p", "sortBy": 1}},
            "u": {"$sortArray": {"input": "$u", "sortBy": 1}},
        }}),
        Bson::Document(doc! {"$sort": {"_id": 1}}),
    ];
    let command = doc! {"aggregate": "c", "pipeline": pipeline.clone(), "cursor": {}};
    let merged = batch(ok(&router.run_command("test", &command)));
    let expected = batch(ok(&single.run_command("test", &command)));
    assert_eq!(merged, expected);
    assert_eq!(merged.len(), 3);
    assert_eq!(merged[0].get("ay"), Some(&Bson::Null), "no numbers: null");
    // The split shows in explain: the group is on each shard and in the merger.
    let explain = doc! {"explain": command, "verbosity": "queryPlanner"};
    let reply = router.run_command("test", &explain);
    let split = ok(&reply).get_document("splitPipeline").unwrap();
    assert_eq!(split.get_array("shardsPart").unwrap().len(), 2);
    let merger: Vec<&str> = split
        .get_array("mergerPart")
        .unwrap()
        .iter()
        .filter_map(|s| s.as_document()?.keys().next().map(String::as_str))
        .collect();
    assert_eq!(merger, ["$group", "$project", "$set", "$sort"]);
    // An accumulator without a merging half keeps the whole group in the merger.
    let pipeline = vec![Bson::Document(
        doc! {"$group": {"_id": null, "sd": {"$stdDevPop": "$x"}}},
    )];
    let command = doc! {"aggregate": "c", "pipeline": pipeline, "cursor": {}};
    assert_eq!(
        batch(ok(&router.run_command("test", &command))),
        batch(ok(&single.run_command("test", &command)))
    );
}

/// Every sharded collection's chunks are in `config.chunks`, each with its own `_id`, even for
/// collections sharded in the same second (their epochs then share the timestamp and the
/// process-unique bytes, and differ only in the counter).
#[test]
fn config_chunks_lists_every_collections_chunks() {
    let mut router = cluster(2);
    sharded_numbers(&mut router);
    ok(&router.run_command(
        "admin",
        &doc! {"shardCollection": "test.d", "key": {"y": 1}},
    ));
    ok(&router.run_command(
        "admin",
        &doc! {"shardCollection": "test.e", "key": {"z": "hashed"}},
    ));
    let expected: usize = ["test.c", "test.d", "test.e"]
        .iter()
        .map(|ns| {
            router
                .metadata()
                .collection(ns)
                .unwrap()
                .chunks
                .chunks
                .len()
        })
        .sum();
    let reply = router.run_command(
        "config",
        &doc! {"aggregate": "chunks", "pipeline": [{"$count": "n"}], "cursor": {}},
    );
    let listed = batch(ok(&reply))[0].get_i32("n").unwrap();
    assert_eq!(listed as usize, expected);
    assert!(expected >= 4, "{expected}");
}
