//! The protocol crosses `postMessage` as JavaScript objects (`protocol::to_js`/`from_js`,
//! serde-wasm-bindgen), in headless Chromium: a reply with an explain's plan tree, documents
//! with 64-bit integers beyond JavaScript's safe range, and the `more` flag come back equal to
//! what was sent, also after a structured clone (what `postMessage` does).
#![cfg(target_arch = "wasm32")]

use bson::{Bson, doc};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;
use web::protocol::{
    Catalog, ChannelMessage, Reply, Request, RequestBody, Response, StructuredResult, from_js,
    to_js,
};

wasm_bindgen_test_configure!(run_in_browser);

/// What `postMessage` does to a value: the structured clone algorithm.
fn structured_clone(value: &JsValue) -> JsValue {
    let global = js_sys::global();
    let clone = js_sys::Reflect::get(&global, &JsValue::from_str("structuredClone"))
        .expect("structuredClone exists")
        .dyn_into::<js_sys::Function>()
        .expect("structuredClone is a function");
    clone.call1(&global, value).expect("the message clones")
}

fn explain_reply() -> Response {
    let explain = doc! {
        "queryPlanner": {"namespace": "test.p", "winningPlan": {"stage": "FETCH", "inputStage":
            {"stage": "IXSCAN", "indexName": "price_1", "keyPattern": {"price": 1}}},
            "rejectedPlans": [{"stage": "COLLSCAN"}]},
        "executionStats": {"nReturned": 3, "totalKeysExamined": 3_i64, "totalDocsExamined": 3,
            "executionStages": {"stage": "FETCH", "nReturned": 3, "docsExamined": 3, "inputStage":
                {"stage": "IXSCAN", "indexName": "price_1", "keyPattern": {"price": 1}, "keysExamined": 3}}},
    };
    Response::Done {
        id: 9,
        output: "{ … }".into(),
        is_error: false,
        catalog: Catalog::default(),
        result: StructuredResult::of(&Bson::Document(explain), false),
        error: None,
        notes: Vec::new(),
        stages: Vec::new(),
        file: None,
    }
}

#[wasm_bindgen_test]
fn an_explain_reply_crosses_as_its_plan_tree() {
    let sent = explain_reply();
    let back: Response = from_js(structured_clone(&to_js(&sent).unwrap())).unwrap();
    let Response::Done {
        result: Some(StructuredResult::Explain { plan, .. }),
        ..
    } = &back
    else {
        panic!("{back:?}");
    };
    assert_eq!(plan.winning.chain(), "FETCH > IXSCAN");
    assert_eq!(
        plan.winning.inputs[0].key_pattern.as_deref(),
        Some("{ price: 1 }")
    );
    assert_eq!(plan.keys_examined, Some(3));
    assert_eq!(plan.rejected.len(), 1);
    let (Response::Done { result: a, .. }, Response::Done { result: b, .. }) = (&sent, &back)
    else {
        unreachable!()
    };
    assert_eq!(a, b);
}

#[wasm_bindgen_test]
fn documents_keep_large_integers_and_the_more_flag() {
    // Field order too: "b" before "10" before "2", as the document has them.
    let batch = Bson::Array(vec![Bson::Document(
        doc! {"_id": 1, "big": 9_007_199_254_740_993_i64, "d": 2.5, "b": 1, "10": 2, "2": 3},
    )]);
    let reply = Reply {
        output: "[…]".into(),
        is_error: false,
        result: StructuredResult::of(&batch, true),
        error: None,
        catalog: Catalog::default(),
        notes: vec!["a note".into()],
        stages: Vec::new(),
        file: None,
    };
    let message = ChannelMessage::Reply {
        client: "c1".into(),
        seq: u64::MAX,
        reply: Box::new(reply),
    };
    let back: ChannelMessage = from_js(structured_clone(&to_js(&message).unwrap())).unwrap();
    assert_eq!(back, message);
    let ChannelMessage::Reply { reply, .. } = back else {
        unreachable!()
    };
    let Some(StructuredResult::Documents { docs, more: true }) = reply.result else {
        panic!("documents with more expected");
    };
    let keys: Vec<&String> = docs[0].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["_id", "big", "d", "b", "10", "2"]);
}

#[wasm_bindgen_test]
fn requests_cross_too() {
    let stop = Request {
        id: u64::MAX,
        body: RequestBody::Stop,
    };
    let back: Request = from_js(structured_clone(&to_js(&stop).unwrap())).unwrap();
    assert_eq!((back.id, back.body), (u64::MAX, RequestBody::Stop));
    // What static/worker.js posts by hand when the wasm instance traps.
    let crashed = js_sys::Object::new();
    js_sys::Reflect::set(&crashed, &"kind".into(), &"crashed".into()).unwrap();
    js_sys::Reflect::set(
        &crashed,
        &"message".into(),
        &"RuntimeError: unreachable".into(),
    )
    .unwrap();
    assert!(matches!(
        from_js::<Response>(crashed.into()).unwrap(),
        Response::Crashed { message } if message == "RuntimeError: unreachable"
    ));
}
