//! `bsonsize(doc)` (mongosh) and `Object.bsonsize(doc)` (legacy shell): BSON byte sizes.

use engine::Engine;
use shell::{Shell, ShellConfig};

#[test]
fn sizes_are_bson_bytes() {
    let mut s = Shell::new(Engine::new(), ShellConfig::default());
    // 4 (length) + 1 (end) + int32 "_id" (1 + 4 + 4) + string "a" = "xy" (1 + 2 + 4 + 3) = 24.
    assert_eq!(s.eval("bsonsize({_id: 1, a: 'xy'})").text(), "24");
    assert_eq!(s.eval("Object.bsonsize({})").text(), "5");
    // The legacy shell answers 0 for null (jstests/core/objid5.js).
    assert_eq!(s.eval("Object.bsonsize(null)").text(), "0");
    let ev = s.eval("bsonsize(42)");
    assert!(ev.error.is_some(), "{ev:?}");
    // The legacy shell writes every number as a double (8 bytes), a NumberInt as an int32
    // (jstests/core/find_getmore_bsonsize.js).
    s.eval("sprout.setStyle('legacy')");
    assert_eq!(s.eval("Object.bsonsize({_id: 1, a: 'xy'})").text(), "28");
    assert_eq!(
        s.eval("Object.bsonsize({_id: NumberInt(1), a: 'xy'})")
            .text(),
        "24"
    );
}
