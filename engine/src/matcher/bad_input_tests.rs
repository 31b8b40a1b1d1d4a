//! Malformed filters, projections and sorts, each run through `Engine::run_command(find)` (the
//! real path), with the code and, where MongoDB's text is known, the message it replies with.

use bson::{Bson, Document, doc};

use super::tests::re;
use crate::Engine;

/// Which part of the find command the bad input goes in.
enum Part {
    Filter(Document),
    Projection(Document),
    Sort(Document),
}

struct Case {
    input: Part,
    code: i32,
    /// The whole message, or `None` where only the code is pinned.
    message: Option<&'static str>,
}

fn f(filter: Document, code: i32, message: &'static str) -> Case {
    Case {
        input: Part::Filter(filter),
        code,
        message: (!message.is_empty()).then_some(message),
    }
}

fn p(projection: Document, code: i32, message: &'static str) -> Case {
    Case {
        input: Part::Projection(projection),
        code,
        message: (!message.is_empty()).then_some(message),
    }
}

fn s(sort: Document, code: i32, message: &'static str) -> Case {
    Case {
        input: Part::Sort(sort),
        code,
        message: (!message.is_empty()).then_some(message),
    }
}

fn cases() -> Vec<Case> {
    vec![
        // Unknown operators.
        f(doc! {"a": {"$foo": 1}}, 2, "unknown operator: $foo"),
        f(
            doc! {"a": {"$gt": 1, "$bar": 1}},
            2,
            "unknown operator: $bar",
        ),
        f(
            doc! {"$foo": 1},
            2,
            "unknown top level operator: $foo. If you have a field name that starts with a '$' symbol, consider using $getField or $setField.",
        ),
        f(
            doc! {"a": {"$where": "true"}},
            2,
            "$where cannot be applied to a field",
        ),
        // Logical operators.
        f(
            doc! {"$and": []},
            2,
            "$and/$or/$nor must be a nonempty array",
        ),
        f(
            doc! {"$or": []},
            2,
            "$and/$or/$nor must be a nonempty array",
        ),
        f(
            doc! {"$nor": []},
            2,
            "$and/$or/$nor must be a nonempty array",
        ),
        f(doc! {"$and": 1}, 2, "$and must be an array"),
        f(doc! {"$or": {"a": 1}}, 2, "$or must be an array"),
        f(doc! {"$nor": "x"}, 2, "$nor must be an array"),
        f(
            doc! {"$or": [1]},
            2,
            "$or/$and/$nor entries need to be full objects",
        ),
        f(
            doc! {"$and": [{"a": 1}, "x"]},
            2,
            "$or/$and/$nor entries need to be full objects",
        ),
        f(
            doc! {"a": {"$not": 1}},
            2,
            "$not needs a regex or a document",
        ),
        f(
            doc! {"a": {"$not": "x"}},
            2,
            "$not needs a regex or a document",
        ),
        f(doc! {"a": {"$not": {}}}, 2, "$not cannot be empty"),
        f(
            doc! {"$alwaysTrue": 0},
            9,
            "$alwaysTrue must be an integer value of 1",
        ),
        // $in / $nin / $all.
        f(doc! {"a": {"$in": 1}}, 2, "$in needs an array"),
        f(doc! {"a": {"$in": {"x": 1}}}, 2, "$in needs an array"),
        f(doc! {"a": {"$nin": "x"}}, 2, "$nin needs an array"),
        f(
            doc! {"a": {"$in": [{"$gt": 1}]}},
            2,
            "cannot nest $ under $in",
        ),
        f(
            doc! {"a": {"$in": [Bson::Undefined]}},
            2,
            "InMatchExpression equality cannot be undefined",
        ),
        f(doc! {"a": {"$all": 1}}, 2, "$all needs an array"),
        f(
            doc! {"a": {"$all": [{"$gt": 1}]}},
            2,
            "no $ expressions in $all",
        ),
        // $maxDistance takes a path too (parsePathAcceptingKeyword), so it is refused alike.
        f(
            doc! {"a": {"$all": [{"$maxDistance": 1}]}},
            2,
            "no $ expressions in $all",
        ),
        f(
            doc! {"a": {"$all": [{"$elemMatch": {"b": 1}}, 1]}},
            2,
            "$all/$elemMatch has to be consistent",
        ),
        f(
            doc! {"a": {"$all": [{"$elemMatch": {"b": 1}}, {"c": 1}]}},
            2,
            "$all/$elemMatch has to be consistent",
        ),
        // Comparisons.
        f(
            doc! {"a": {"$gt": re("x", "")}},
            2,
            "Can't have RegEx as arg to predicate over field 'a'.",
        ),
        f(
            doc! {"a": {"$lte": re("x", "")}},
            2,
            "Can't have RegEx as arg to predicate over field 'a'.",
        ),
        f(
            doc! {"a": {"$ne": re("x", "")}},
            2,
            "Can't have regex as arg to $ne.",
        ),
        f(doc! {"a": Bson::Undefined}, 2, ""),
        // $size, $elemMatch.
        f(doc! {"a": {"$size": "x"}}, 2, "$size needs a number"),
        f(doc! {"a": {"$size": null}}, 2, "$size needs a number"),
        f(
            doc! {"a": {"$size": 1.5}},
            2,
            "Failed to parse $size. Expected an integer in: $size: 1.5",
        ),
        f(
            doc! {"a": {"$size": -1}},
            2,
            "Failed to parse $size. Expected a non-negative number in: $size: -1",
        ),
        f(
            doc! {"a": {"$elemMatch": 1}},
            2,
            "$elemMatch needs an Object",
        ),
        f(
            doc! {"a": {"$elemMatch": [1]}},
            2,
            "$elemMatch needs an Object",
        ),
        f(
            doc! {"a": {"$elemMatch": {"$where": "true"}}},
            2,
            "$elemMatch cannot contain $where expression",
        ),
        f(
            doc! {"a": {"$elemMatch": {"$text": {"$search": "x"}}}},
            2,
            "$text can only be applied to the top-level document",
        ),
        f(
            doc! {"a": {"$elemMatch": {"$expr": {"$eq": [1, 1]}}}},
            2,
            "$expr can only be applied to the top-level document",
        ),
        // $exists / $type.
        f(
            doc! {"a": {"$type": "foo"}},
            2,
            "Unknown type name alias: foo",
        ),
        f(
            doc! {"a": {"$type": 100}},
            2,
            "Invalid numerical type code: 100",
        ),
        f(
            doc! {"a": {"$type": {"x": 1}}},
            14,
            "type must be represented as a number or a string",
        ),
        f(
            doc! {"a": {"$type": []}},
            9,
            "a must match at least one type",
        ),
        // $regex.
        f(doc! {"a": {"$regex": 1}}, 2, "$regex has to be a string"),
        f(
            doc! {"a": {"$regex": "x", "$options": 1}},
            2,
            "$options has to be a string",
        ),
        f(doc! {"a": {"$options": "i"}}, 2, "$options needs a $regex"),
        f(
            doc! {"a": {"$regex": re("x", "i"), "$options": "m"}},
            51075,
            "options set in both $regex and $options",
        ),
        f(
            doc! {"a": {"$options": "m", "$regex": re("x", "i")}},
            51074,
            "options set in both $regex and $options",
        ),
        f(doc! {"a": {"$regex": "("}}, 51091, ""),
        f(doc! {"a": {"$regex": "a[b"}}, 51091, ""),
        f(
            doc! {"a": {"$regex": "x", "$options": "q"}},
            51108,
            "invalid flag in regex options: q",
        ),
        // $mod.
        f(
            doc! {"a": {"$mod": 1}},
            2,
            "malformed mod, needs to be an array",
        ),
        f(
            doc! {"a": {"$mod": []}},
            2,
            "malformed mod, not enough elements",
        ),
        f(
            doc! {"a": {"$mod": [1]}},
            2,
            "malformed mod, not enough elements",
        ),
        f(
            doc! {"a": {"$mod": [1, 2, 3]}},
            2,
            "malformed mod, too many elements",
        ),
        f(
            doc! {"a": {"$mod": ["x", 1]}},
            2,
            "malformed mod, divisor not a number",
        ),
        f(
            doc! {"a": {"$mod": [2, "x"]}},
            2,
            "malformed mod, remainder not a number",
        ),
        f(doc! {"a": {"$mod": [0, 1]}}, 2, "divisor cannot be 0"),
        // Bitwise.
        f(
            doc! {"a": {"$bitsAllSet": "x"}},
            2,
            "a takes an Array, a number, or a BinData but received: $bitsAllSet: \"x\"",
        ),
        f(
            doc! {"a": {"$bitsAnySet": [-1]}},
            2,
            "bit positions must be >= 0 but got: 0: -1",
        ),
        f(
            doc! {"a": {"$bitsAllClear": [99_999_999_999_i64]}},
            2,
            "bit positions cannot be represented as a 32-bit signed integer: 0: 99999999999",
        ),
        f(
            doc! {"a": {"$bitsAllClear": [1.5]}},
            2,
            "bit positions must be an integer but got: 0: 1.5",
        ),
        f(doc! {"a": {"$bitsAnyClear": -1}}, 2, ""),
        // $where, $text, $expr, $jsonSchema.
        f(doc! {"$where": 1}, 2, "$where got bad type"),
        f(
            doc! {"$where": "this.a == 1"},
            2,
            "no globalScriptEngine in $where parsing",
        ),
        f(
            doc! {"$text": {"$search": "x"}},
            27,
            "text index required for $text query",
        ),
        f(doc! {"$text": "x"}, 2, "$text expects an object"),
        f(
            doc! {"$text": {"$language": "en"}},
            40414,
            "BSON field '$text.$search' is missing but a required field",
        ),
        f(
            doc! {"$expr": {"$foo": 1}},
            168,
            "Unrecognized expression '$foo'",
        ),
        f(
            doc! {"$expr": {"$abs": [1, 2]}},
            16020,
            "Expression $abs takes exactly 1 arguments. 2 were passed in.",
        ),
        f(
            doc! {"$expr": {"$add": ["$a", 1]}},
            14,
            "$add only supports numeric or date types, not string",
        ),
        f(
            doc! {"$expr": {"$divide": [1, 0]}},
            2,
            "can't $divide by zero",
        ),
        f(
            doc! {"$expr": "$$NOPE"},
            17276,
            "Use of undefined variable: NOPE",
        ),
        f(doc! {"$jsonSchema": 1}, 14, "$jsonSchema must be an object"),
        f(
            doc! {"$jsonSchema": {"foo": 1}},
            9,
            "Unknown $jsonSchema keyword: foo",
        ),
        f(
            doc! {"$jsonSchema": {"required": "a"}},
            14,
            "$jsonSchema keyword 'required' must be an array",
        ),
        // Projections.
        p(
            doc! {"a": 1, "b": 0},
            31254,
            "Cannot do exclusion on field b in inclusion projection",
        ),
        p(
            doc! {"a": 0, "b": 1},
            31253,
            "Cannot do inclusion on field b in exclusion projection",
        ),
        p(
            doc! {"a": 1, "a.b": 1},
            31250,
            "Path collision at a.b remaining portion b",
        ),
        p(doc! {"a.b": 1, "a": 1}, 31250, "Path collision at a"),
        p(
            doc! {"a": {}},
            51270,
            "An empty sub-projection is not a valid value. Found empty object at path: a",
        ),
        p(
            doc! {"a.$": 1, "b.$": 1},
            31276,
            "Cannot specify more than one positional projection per query.",
        ),
        p(
            doc! {"arr.$": 1},
            51246,
            "Executor error during find command :: caused by :: positional operator '.$' couldn't find a matching element in the array",
        ),
        // Not find's $slice, then not a valid aggregation $slice either.
        p(doc! {"a": {"$slice": "x"}}, 28667, ""),
        // The aggregation $slice of the number 1: its first argument is not an array.
        p(doc! {"a": {"$slice": [1, 0]}}, 28724, ""),
        p(
            doc! {"a": {"$elemMatch": 1}},
            31274,
            "elemMatch: Invalid argument, object required.",
        ),
        p(
            doc! {"a.b": {"$elemMatch": {"c": 1}}},
            31275,
            "Cannot use $elemMatch projection on a nested field.",
        ),
        p(
            doc! {"a": {"$elemMatch": {"$foo": 1}}},
            2,
            "unknown operator: $foo",
        ),
        p(
            doc! {"a": {"$elemMatch": {"$nor": 1}}},
            2,
            "$nor must be an array",
        ),
        p(
            doc! {"a": {"$meta": "nope"}},
            17308,
            "Unsupported argument to $meta: nope",
        ),
        p(
            doc! {"s": {"$meta": "textScore"}},
            40218,
            "query requires text score metadata, but it is not available",
        ),
        p(
            doc! {"a": 0, "b": {"$add": [1, 2]}},
            31252,
            "Cannot use expression other than $meta in exclusion projection",
        ),
        p(
            doc! {"x": {"$foo": 1}},
            168,
            "Unrecognized expression '$foo'",
        ),
        p(doc! {"$x": 1}, 16410, ""),
        // Sorts.
        s(
            doc! {"a": 2},
            15975,
            "$sort key ordering must be 1 (for ascending) or -1 (for descending)",
        ),
        s(
            doc! {"a": 0},
            15975,
            "$sort key ordering must be 1 (for ascending) or -1 (for descending)",
        ),
        s(
            doc! {"a": "asc"},
            15974,
            "Illegal key in $sort specification: a: \"asc\"",
        ),
        s(
            doc! {"a": true},
            15974,
            "Illegal key in $sort specification: a: true",
        ),
        s(
            doc! {"a": {"b": 1}},
            17312,
            "$meta is the only expression supported by $sort right now",
        ),
        s(
            doc! {"a": {"$meta": "x"}},
            31138,
            "Illegal $meta sort: { $meta: \"x\" }",
        ),
        s(
            doc! {"s": {"$meta": "textScore"}},
            40218,
            "query requires text score metadata, but it is not available",
        ),
        s(
            doc! {"": 1},
            40352,
            "FieldPath cannot be constructed with empty string",
        ),
    ]
}

#[test]
fn malformed_inputs_give_mongodb_errors() {
    let mut engine = Engine::new();
    let inserted = engine.run_command(
        "t",
        &doc! {"insert": "c", "documents": [{"_id": 1, "a": "x", "arr": [1, 2]}]},
    );
    assert!(crate::reply_ok(&inserted), "{inserted}");
    let table = cases();
    assert!(table.len() >= 60, "the table has {} cases", table.len());
    let mut failures = Vec::new();
    for case in &table {
        let mut cmd = doc! {"find": "c"};
        let shown = match &case.input {
            Part::Filter(x) => {
                cmd.insert("filter", x.clone());
                format!("filter {x}")
            }
            Part::Projection(x) => {
                cmd.insert("projection", x.clone());
                format!("projection {x}")
            }
            Part::Sort(x) => {
                cmd.insert("sort", x.clone());
                format!("sort {x}")
            }
        };
        let reply = engine.run_command("t", &cmd);
        let code = reply.get_i32("code").unwrap_or(0);
        let message = reply.get_str("errmsg").unwrap_or("");
        if crate::reply_ok(&reply)
            || code != case.code
            || case.message.is_some_and(|m| m != message)
        {
            failures.push(format!(
                "{shown}: expected {} {:?}, got {code} {message:?}",
                case.code, case.message
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
