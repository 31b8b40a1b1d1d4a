//! Reading the fuzzer's bytes as Extended JSON text, the form every engine target takes (so the
//! seed corpora are readable JSON files taken from the conformance data).

use bson::{Bson, Document};

/// The bytes as an Extended JSON value, or `None` when they are not UTF-8 JSON that the engine's
/// Extended JSON parser accepts (such inputs are the extjson target's business).
pub fn ext_json(data: &[u8]) -> Option<Bson> {
    let text = std::str::from_utf8(data).ok()?;
    let json: serde_json::Value = serde_json::from_str(text).ok()?;
    engine::value::extjson::parse_value(json).ok()
}

/// The bytes as an Extended JSON document.
pub fn ext_json_document(data: &[u8]) -> Option<Document> {
    match ext_json(data)? {
        Bson::Document(d) => Some(d),
        _ => None,
    }
}

/// A reply is either `ok: 1` or an error with a numeric code and a message: anything else means
/// an error escaped MongoDB's reply shape.
pub fn assert_reply_shape(command: &Document, reply: &Document) {
    if engine::reply_ok(reply) {
        return;
    }
    let code = reply.get("code");
    let message = reply.get_str("errmsg").unwrap_or("");
    assert!(
        matches!(code, Some(Bson::Int32(_) | Bson::Int64(_))) && !message.is_empty(),
        "error reply without code or message for {command}: {reply}"
    );
}
