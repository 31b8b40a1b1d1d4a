//! Random shell programs from a small grammar of JavaScript and mongo shell constructs, drawn
//! from the fuzzer's bytes: statements (declarations, `if`, bounded loops, `try`, functions),
//! expressions (literals, operators, template strings, arrow functions, BSON constructors) and
//! MongoDB calls (CRUD, aggregation, indexes, cursors, `use`/`show`) with generated filters,
//! updates and pipelines. Depth and sizes are bounded, so every program is small; what it does
//! at run time is up to the shell's limits.

use arbitrary::{Result, Unstructured};

/// Deepest nesting of generated expressions and statements.
const MAX_DEPTH: usize = 5;

/// A program of up to eight statements, one per line.
pub fn program(u: &mut Unstructured<'_>) -> Result<String> {
    let count = u.int_in_range(1..=8)?;
    let mut lines = Vec::with_capacity(count);
    for _ in 0..count {
        lines.push(statement(u, 0)?);
    }
    Ok(lines.join("\n"))
}

fn statement(u: &mut Unstructured<'_>, depth: usize) -> Result<String> {
    if depth >= MAX_DEPTH {
        return Ok(format!("{};", expression(u, depth)?));
    }
    let d = depth + 1;
    Ok(match u.int_in_range(0..=13)? {
        0 => format!("var {} = {};", name(u)?, expression(u, d)?),
        1 => format!("let {} = {};", name(u)?, expression(u, d)?),
        2 => format!(
            "if ({}) {{ {} }} else {{ {} }}",
            expression(u, d)?,
            statement(u, d)?,
            statement(u, d)?
        ),
        3 => format!(
            "for (let i = 0; i < {}; i++) {{ {} }}",
            u.int_in_range(0..=20)?,
            statement(u, d)?
        ),
        4 => format!(
            "try {{ {} }} catch (e) {{ print(e.message) }}",
            statement(u, d)?
        ),
        5 => format!(
            "function {}(x, y) {{ {} return {}; }}",
            name(u)?,
            statement(u, d)?,
            expression(u, d)?
        ),
        6 => format!("print({});", expression(u, d)?),
        7 => format!("printjson({});", expression(u, d)?),
        8 => shell_command(u)?,
        9 => format!("{} = {};", name(u)?, expression(u, d)?),
        10 => format!(
            "for (const k of {}) {{ {} }}",
            array(u, d)?,
            statement(u, d)?
        ),
        _ => format!("{};", mongo_call(u, d)?),
    })
}

fn shell_command(u: &mut Unstructured<'_>) -> Result<String> {
    Ok(u.choose(&[
        "use other",
        "use test",
        "show collections",
        "show dbs",
        "it",
        "db.getName()",
    ])?
    .to_string())
}

fn name(u: &mut Unstructured<'_>) -> Result<String> {
    Ok(u.choose(&["a", "b", "x", "doc", "res", "f", "g", "arr"])?
        .to_string())
}

fn expression(u: &mut Unstructured<'_>, depth: usize) -> Result<String> {
    if depth >= MAX_DEPTH {
        return literal(u);
    }
    let d = depth + 1;
    Ok(match u.int_in_range(0..=19)? {
        0..=3 => literal(u)?,
        4 => name(u)?,
        5 => object(u, d)?,
        6 => array(u, d)?,
        7 => format!(
            "({} {} {})",
            expression(u, d)?,
            u.choose(&[
                "+",
                "-",
                "*",
                "/",
                "%",
                "==",
                "===",
                "!=",
                "<",
                ">=",
                "&&",
                "||",
                "??",
                "**",
                "&",
                "|",
                "<<",
                ">>>",
                "instanceof",
                "in"
            ])?,
            expression(u, d)?
        ),
        8 => format!(
            "{}({})",
            u.choose(&["!", "-", "+", "typeof ", "void ", "~"])?,
            expression(u, d)?
        ),
        9 => format!(
            "({} ? {} : {})",
            expression(u, d)?,
            expression(u, d)?,
            expression(u, d)?
        ),
        10 => format!("`t${{{}}}t`", expression(u, d)?),
        11 => format!("((x) => {})({})", expression(u, d)?, expression(u, d)?),
        12 => bson_constructor(u)?,
        13 => format!(
            "{}.{}",
            expression(u, d)?,
            u.choose(&[
                "length",
                "toString()",
                "valueOf()",
                "constructor",
                "a",
                "_id",
                "toArray()",
                "count()",
                "map(v => v)",
                "join(',')",
                "slice(1)",
                "keys()",
                "toUpperCase()",
                "split('')",
                "concat([1])",
                "push(1)",
            ])?
        ),
        14 => format!(
            "JSON.{}({})",
            u.choose(&["stringify", "parse"])?,
            expression(u, d)?
        ),
        15 => format!("{}({})", name(u)?, expression(u, d)?),
        16 => format!("tojson({})", expression(u, d)?),
        17 => format!(
            "Object.{}({})",
            u.choose(&["keys", "values", "entries", "assign"])?,
            expression(u, d)?
        ),
        _ => mongo_call(u, d)?,
    })
}

fn literal(u: &mut Unstructured<'_>) -> Result<String> {
    Ok(match u.int_in_range(0..=12)? {
        0 => u.int_in_range(-3i64..=100)?.to_string(),
        1 => format!("{}", u.arbitrary::<f64>()?),
        2 => format!(
            "{:?}",
            u.choose(&["", "a", "abc", "x.y", "$a", "héllo", "\u{0}", "𝄞"])?
        ),
        3 => u
            .choose(&[
                "true",
                "false",
                "null",
                "undefined",
                "NaN",
                "Infinity",
                "-0",
            ])?
            .to_string(),
        4 => format!("{:?}", string(u)?),
        5 => u
            .choose(&["/ab+c/i", "/^x/", "/./g", "/[a-z]+$/m"])?
            .to_string(),
        6 => u.int_in_range(i64::MIN..=i64::MAX)?.to_string(),
        7 => "{}".into(),
        8 => "[]".into(),
        9 => "db".into(),
        10 => "db.c".into(),
        11 => "this".into(),
        _ => u.int_in_range(0..=5)?.to_string(),
    })
}

/// A short string of characters the grammar likes to mix: field-path dots, dollars, quotes,
/// escapes, non-ASCII.
fn string(u: &mut Unstructured<'_>) -> Result<String> {
    let len = u.int_in_range(0..=8)?;
    let mut s = String::new();
    for _ in 0..len {
        s.push(*u.choose(&[
            'a',
            'b',
            '.',
            '$',
            '\'',
            '"',
            '\\',
            ' ',
            'é',
            '\u{1F600}',
            '\n',
            '{',
        ])?);
    }
    Ok(s)
}

fn bson_constructor(u: &mut Unstructured<'_>) -> Result<String> {
    Ok(match u.int_in_range(0..=10)? {
        0 => "ObjectId()".into(),
        1 => format!("ObjectId({:?})", hex(u, 24)?),
        2 => format!("NumberLong({})", u.int_in_range(i64::MIN..=i64::MAX)?),
        3 => format!("NumberInt({})", u.int_in_range(-10i64..=1 << 33)?),
        4 => format!(
            "NumberDecimal({:?})",
            u.choose(&["1.5", "-0", "NaN", "1E+6144", "x", "0.1"])?
        ),
        5 => format!(
            "ISODate({:?})",
            u.choose(&[
                "2024-01-01",
                "2024-02-30T00:00:00Z",
                "x",
                "1970-01-01T00:00:00.000Z"
            ])?
        ),
        6 => format!("new Date({})", u.int_in_range(-1i64 << 50..=1 << 50)?),
        7 => format!(
            "Timestamp({}, {})",
            u.int_in_range(0..=10)?,
            u.int_in_range(0..=10)?
        ),
        8 => format!("UUID({:?})", hex(u, 32)?),
        9 => "MinKey()".into(),
        _ => format!("BinData(0, {:?})", u.choose(&["AQID", "", "!!"])?),
    })
}

fn hex(u: &mut Unstructured<'_>, len: usize) -> Result<String> {
    let mut s = String::with_capacity(len);
    for _ in 0..len {
        s.push(*u.choose(&['0', '1', 'a', 'f', '9', 'g'])?);
    }
    Ok(s)
}

fn field(u: &mut Unstructured<'_>) -> Result<String> {
    Ok(u.choose(&[
        "a", "b", "c", "a.b", "c.0", "_id", "tags", "d.e", "$x", "", "a..b",
    ])?
    .to_string())
}

fn object(u: &mut Unstructured<'_>, depth: usize) -> Result<String> {
    let n = u.int_in_range(0..=3)?;
    let mut parts = Vec::with_capacity(n);
    for _ in 0..n {
        parts.push(format!("{:?}: {}", field(u)?, value(u, depth)?));
    }
    Ok(format!("{{{}}}", parts.join(", ")))
}

fn array(u: &mut Unstructured<'_>, depth: usize) -> Result<String> {
    let n = u.int_in_range(0..=4)?;
    let mut parts = Vec::with_capacity(n);
    for _ in 0..n {
        parts.push(value(u, depth)?);
    }
    Ok(format!("[{}]", parts.join(", ")))
}

/// A value inside a document: mostly literals, sometimes operators or nested documents.
fn value(u: &mut Unstructured<'_>, depth: usize) -> Result<String> {
    if depth >= MAX_DEPTH {
        return literal(u);
    }
    let d = depth + 1;
    Ok(match u.int_in_range(0..=9)? {
        0..=3 => literal(u)?,
        4 => object(u, d)?,
        5 => array(u, d)?,
        6 => format!("{{{}: {}}}", query_operator(u)?, value(u, d)?),
        7 => format!("{{{}: {}}}", expression_operator(u)?, value(u, d)?),
        8 => format!("\"${}\"", field(u)?),
        _ => bson_constructor(u)?,
    })
}

fn query_operator(u: &mut Unstructured<'_>) -> Result<&'static str> {
    u.choose(&[
        "$eq",
        "$ne",
        "$gt",
        "$gte",
        "$lt",
        "$lte",
        "$in",
        "$nin",
        "$exists",
        "$type",
        "$size",
        "$all",
        "$elemMatch",
        "$not",
        "$regex",
        "$mod",
        "$and",
        "$or",
        "$nor",
        "$expr",
        "$bitsAllSet",
        "$where",
        "$text",
        "$near",
    ])
    .copied()
}

fn expression_operator(u: &mut Unstructured<'_>) -> Result<&'static str> {
    u.choose(&[
        "$add",
        "$concat",
        "$map",
        "$filter",
        "$reduce",
        "$size",
        "$arrayElemAt",
        "$cond",
        "$ifNull",
        "$toString",
        "$dateToString",
        "$sum",
        "$avg",
        "$max",
        "$literal",
        "$let",
        "$split",
        "$substrCP",
        "$regexMatch",
        "$setUnion",
        "$objectToArray",
        "$range",
        "$switch",
        "$convert",
    ])
    .copied()
}

fn collection(u: &mut Unstructured<'_>) -> Result<&'static str> {
    u.choose(&["db.c", "db.other", "db.getCollection('x.y')", "db.c.sub"])
        .copied()
}

fn mongo_call(u: &mut Unstructured<'_>, depth: usize) -> Result<String> {
    let coll = collection(u)?;
    let d = depth + 1;
    Ok(match u.int_in_range(0..=21)? {
        0 => format!("{coll}.insertOne({})", object(u, d)?),
        1 => format!("{coll}.insertMany([{}, {}])", object(u, d)?, object(u, d)?),
        2 => format!("{coll}.find({}){}", object(u, d)?, cursor_methods(u, d)?),
        3 => format!("{coll}.findOne({}, {})", object(u, d)?, object(u, d)?),
        4 => format!("{coll}.updateMany({}, {})", object(u, d)?, update(u, d)?),
        5 => format!(
            "{coll}.updateOne({}, {}, {{upsert: true}})",
            object(u, d)?,
            update(u, d)?
        ),
        6 => format!("{coll}.deleteMany({})", object(u, d)?),
        7 => format!("{coll}.aggregate({})", pipeline(u, d)?),
        8 => format!("{coll}.countDocuments({})", object(u, d)?),
        9 => format!("{coll}.distinct({:?}, {})", field(u)?, object(u, d)?),
        10 => format!("{coll}.createIndex({})", index_key(u)?),
        11 => format!("{coll}.drop()"),
        12 => format!("{coll}.replaceOne({}, {})", object(u, d)?, object(u, d)?),
        13 => format!(
            "{coll}.findOneAndUpdate({}, {})",
            object(u, d)?,
            update(u, d)?
        ),
        14 => format!("{coll}.find({}).explain()", object(u, d)?),
        15 => format!("db.runCommand({})", object(u, d)?),
        16 => format!(
            "{coll}.bulkWrite([{{insertOne: {{document: {}}}}}])",
            object(u, d)?
        ),
        17 => format!("{coll}.getIndexes()"),
        18 => format!("db.createCollection({:?}, {})", field(u)?, object(u, d)?),
        19 => format!("{coll}.stats()"),
        20 => format!("{coll}.find().forEach(d => {})", expression(u, d)?),
        _ => format!(
            "{coll}.find({{$where: function() {{ return {} }}}}).toArray()",
            expression(u, d)?
        ),
    })
}

fn cursor_methods(u: &mut Unstructured<'_>, depth: usize) -> Result<String> {
    let n = u.int_in_range(0..=3)?;
    let mut s = String::new();
    for _ in 0..n {
        s.push_str(&match u.int_in_range(0..=7)? {
            0 => format!(".sort({})", index_key(u)?),
            1 => format!(".limit({})", u.int_in_range(-2..=5)?),
            2 => format!(".skip({})", u.int_in_range(-1..=5)?),
            3 => format!(".projection({})", object(u, depth)?),
            4 => ".toArray()".into(),
            5 => ".count()".into(),
            6 => format!(".hint({})", index_key(u)?),
            _ => ".pretty()".into(),
        });
    }
    Ok(s)
}

fn index_key(u: &mut Unstructured<'_>) -> Result<String> {
    let n = u.int_in_range(1..=2)?;
    let mut parts = Vec::with_capacity(n);
    for _ in 0..n {
        parts.push(format!(
            "{:?}: {}",
            field(u)?,
            u.choose(&["1", "-1", "'text'", "'hashed'", "'2dsphere'", "0"])?
        ));
    }
    Ok(format!("{{{}}}", parts.join(", ")))
}

fn update(u: &mut Unstructured<'_>, depth: usize) -> Result<String> {
    Ok(match u.int_in_range(0..=3)? {
        0 => format!(
            "{{{}: {{{:?}: {}}}}}",
            u.choose(&[
                "$set",
                "$unset",
                "$inc",
                "$mul",
                "$push",
                "$addToSet",
                "$pull",
                "$pop",
                "$rename",
                "$min",
                "$max",
                "$currentDate",
                "$setOnInsert",
                "$bit"
            ])?,
            field(u)?,
            value(u, depth)?
        ),
        1 => object(u, depth)?,
        2 => format!("[{{$set: {}}}]", object(u, depth)?),
        _ => format!(
            "{{$push: {{c: {{$each: {}, $slice: {}, $sort: 1}}}}}}",
            array(u, depth)?,
            u.int_in_range(-3..=3)?
        ),
    })
}

fn pipeline(u: &mut Unstructured<'_>, depth: usize) -> Result<String> {
    let n = u.int_in_range(0..=4)?;
    let mut stages = Vec::with_capacity(n);
    for _ in 0..n {
        stages.push(match u.int_in_range(0..=13)? {
            0 => format!("{{$match: {}}}", object(u, depth)?),
            1 => format!("{{$project: {}}}", object(u, depth)?),
            2 => format!(
                "{{$group: {{_id: {}, n: {{$sum: 1}}, v: {{$push: \"$a\"}}}}}}",
                value(u, depth)?
            ),
            3 => format!("{{$sort: {}}}", index_key(u)?),
            4 => format!("{{$limit: {}}}", u.int_in_range(-1..=5)?),
            5 => format!("{{$unwind: {:?}}}", format!("${}", field(u)?)),
            6 => format!("{{$addFields: {}}}", object(u, depth)?),
            7 => "{$lookup: {from: 'other', localField: 'a', foreignField: 'a', as: 'j'}}".into(),
            8 => "{$count: 'n'}".into(),
            9 => format!(
                "{{$bucketAuto: {{groupBy: \"$a\", buckets: {}}}}}",
                u.int_in_range(0..=4)?
            ),
            10 => format!(
                "{{$facet: {{x: [{{$limit: {}}}]}}}}",
                u.int_in_range(1..=3)?
            ),
            11 => format!("{{$replaceRoot: {{newRoot: {}}}}}", value(u, depth)?),
            12 => "{$sample: {size: 2}}".into(),
            _ => format!("{{$set: {}}}", object(u, depth)?),
        });
    }
    Ok(format!("[{}]", stages.join(", ")))
}
