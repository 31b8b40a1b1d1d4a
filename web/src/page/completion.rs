//! The editor's completion: what may follow the cursor, from the shell's vocabulary
//! (collection, cursor and database methods, query/update/aggregation operators), the catalog
//! (collection names) and the data (field names seen in results). Pure logic, no DOM.

/// Methods of `db`.
const DB_METHODS: &[&str] = &[
    "getCollection",
    "getCollectionNames",
    "getCollectionInfos",
    "createCollection",
    "createView",
    "dropDatabase",
    "getName",
    "getSiblingDB",
    "runCommand",
    "adminCommand",
    "aggregate",
    "stats",
    "version",
    "serverStatus",
    "listCommands",
];

/// Methods of a collection.
const COLLECTION_METHODS: &[&str] = &[
    "find",
    "findOne",
    "insertOne",
    "insertMany",
    "updateOne",
    "updateMany",
    "replaceOne",
    "deleteOne",
    "deleteMany",
    "aggregate",
    "countDocuments",
    "estimatedDocumentCount",
    "distinct",
    "createIndex",
    "createIndexes",
    "getIndexes",
    "dropIndex",
    "dropIndexes",
    "drop",
    "explain",
    "findOneAndUpdate",
    "findOneAndReplace",
    "findOneAndDelete",
    "bulkWrite",
    "renameCollection",
    "stats",
    "watch",
    "insert",
    "update",
    "remove",
    "count",
    "save",
];

/// Methods of a cursor (after `find(…)` or `aggregate(…)`).
const CURSOR_METHODS: &[&str] = &[
    "sort",
    "limit",
    "skip",
    "project",
    "count",
    "toArray",
    "explain",
    "pretty",
    "hint",
    "forEach",
    "map",
    "itcount",
    "batchSize",
    "collation",
    "min",
    "max",
    "comment",
    "next",
    "hasNext",
    "size",
    "returnKey",
    "showRecordId",
    "allowDiskUse",
    "maxTimeMS",
];

/// Query, update and aggregation operators (and the aggregation stages).
const OPERATORS: &[&str] = &[
    // query
    "$eq",
    "$ne",
    "$gt",
    "$gte",
    "$lt",
    "$lte",
    "$in",
    "$nin",
    "$and",
    "$or",
    "$nor",
    "$not",
    "$exists",
    "$type",
    "$regex",
    "$options",
    "$expr",
    "$mod",
    "$all",
    "$elemMatch",
    "$size",
    "$text",
    "$search",
    "$where",
    "$jsonSchema",
    "$near",
    "$geoWithin",
    "$geoIntersects",
    // update
    "$set",
    "$unset",
    "$inc",
    "$mul",
    "$rename",
    "$min",
    "$max",
    "$currentDate",
    "$setOnInsert",
    "$push",
    "$pull",
    "$pullAll",
    "$addToSet",
    "$pop",
    "$each",
    "$slice",
    "$sort",
    "$position",
    "$bit",
    // aggregation stages
    "$match",
    "$group",
    "$project",
    "$limit",
    "$skip",
    "$unwind",
    "$lookup",
    "$addFields",
    "$count",
    "$facet",
    "$bucket",
    "$bucketAuto",
    "$sortByCount",
    "$replaceRoot",
    "$replaceWith",
    "$sample",
    "$out",
    "$merge",
    "$unionWith",
    "$graphLookup",
    "$setWindowFields",
    "$densify",
    "$fill",
    "$documents",
    // expressions
    "$sum",
    "$avg",
    "$first",
    "$last",
    "$push",
    "$concat",
    "$substr",
    "$toUpper",
    "$toLower",
    "$cond",
    "$ifNull",
    "$switch",
    "$dateToString",
    "$year",
    "$month",
    "$dayOfMonth",
    "$arrayElemAt",
    "$filter",
    "$map",
    "$reduce",
    "$size",
    "$multiply",
    "$divide",
    "$add",
    "$subtract",
    "$round",
    "$toString",
    "$toInt",
    "$toDouble",
    "$literal",
    "$mergeObjects",
];

/// Words at the start of a statement or inside an expression.
const GLOBALS: &[&str] = &[
    "db",
    "use",
    "show",
    "it",
    "print",
    "printjson",
    "ObjectId",
    "ISODate",
    "Date",
    "NumberLong",
    "NumberInt",
    "NumberDecimal",
    "Decimal128",
    "UUID",
    "Timestamp",
    "BinData",
    "MinKey",
    "MaxKey",
    "JSON",
    "Math",
];

/// What the completion offers at the cursor: the word being typed and its candidates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Completion {
    /// Byte offset where the word being typed starts (the accepted candidate replaces
    /// `input[start..cursor]`).
    pub start: usize,
    pub candidates: Vec<String>,
}

/// What the editor knows beyond the input.
#[derive(Debug, Clone, Copy)]
pub struct Vocabulary<'a> {
    /// Collections of the current database.
    pub collections: &'a [String],
    /// Field paths seen in results.
    pub fields: &'a [String],
}

/// The longest number of candidates shown (the popup scrolls): every match in practice, with
/// a bound for a vocabulary grown huge.
pub const MAX_CANDIDATES: usize = 200;

/// Candidates for the word that ends at `cursor` (a byte offset); `None` when no word is
/// being typed or nothing fits.
pub fn complete(input: &str, cursor: usize, vocabulary: Vocabulary<'_>) -> Option<Completion> {
    let before = input.get(..cursor)?;
    let start = before
        .char_indices()
        .rev()
        .take_while(|(_, c)| c.is_alphanumeric() || *c == '_' || *c == '$')
        .last()
        .map_or(cursor, |(i, _)| i);
    let word = &before[start..];
    let head = &before[..start];
    let pool: Vec<&str> = if let Some(receiver) = head.strip_suffix('.') {
        if receiver.ends_with(')') {
            CURSOR_METHODS.to_vec()
        } else if receiver
            .trim_start()
            .rsplit(['(', ' ', '\n', '=', ';', ',', '{', '['])
            .next()
            == Some("db")
        {
            vocabulary
                .collections
                .iter()
                .map(String::as_str)
                .chain(DB_METHODS.iter().copied())
                .collect()
        } else if is_collection_receiver(receiver) {
            COLLECTION_METHODS.to_vec()
        } else {
            // A field path being typed (`"dims.` inside a filter).
            let path = receiver
                .rsplit(['\'', '"', '{', ' ', ',', '$'])
                .next()
                .unwrap_or("");
            vocabulary
                .fields
                .iter()
                .filter_map(|f| f.strip_prefix(path)?.strip_prefix('.'))
                .collect()
        }
    } else if word.starts_with('$') {
        let mut pool: Vec<&str> = OPERATORS.to_vec();
        // `"$price"` in an aggregation expression names a field.
        if head.ends_with(['\'', '"']) {
            pool.extend(vocabulary.fields.iter().map(String::as_str));
        }
        pool
    } else if word.is_empty() && starts_a_field(head) {
        // Right after `find({` or `, ` inside a filter, projection or stage: the fields.
        vocabulary.fields.iter().map(String::as_str).collect()
    } else {
        vocabulary
            .fields
            .iter()
            .map(String::as_str)
            .chain(GLOBALS.iter().copied())
            .collect()
    };
    if word.is_empty() && !head.ends_with('.') && !starts_a_field(head) {
        return None;
    }
    let wanted = word.strip_prefix('$').unwrap_or(word).to_lowercase();
    let mut candidates: Vec<String> = Vec::new();
    for c in pool {
        let bare = c.strip_prefix('$').unwrap_or(c);
        let fits = if word.starts_with('$') && !c.starts_with('$') {
            // a field after `"$`: offer it with its `$`
            bare.to_lowercase().starts_with(&wanted)
        } else {
            c.to_lowercase().starts_with(&word.to_lowercase())
        };
        let text = if word.starts_with('$') && !c.starts_with('$') {
            format!("${c}")
        } else {
            c.to_string()
        };
        if fits && text != word && !candidates.contains(&text) {
            candidates.push(text);
        }
        if candidates.len() == MAX_CANDIDATES {
            break;
        }
    }
    (!candidates.is_empty()).then_some(Completion { start, candidates })
}

/// Whether a field name may start here: after `{` or `,` inside a call's brackets.
fn starts_a_field(head: &str) -> bool {
    let trimmed = head.trim_end();
    (trimmed.ends_with('{') || trimmed.ends_with(',') && trimmed.contains('{'))
        && trimmed.contains('(')
}

/// `db.products` or `db.getCollection('x')`: a collection.
fn is_collection_receiver(receiver: &str) -> bool {
    let last = receiver
        .rsplit([' ', '\n', '=', ';', '(', ','])
        .next()
        .unwrap_or("");
    (last.starts_with("db.") && last.matches('.').count() == 1)
        || receiver.trim_end().ends_with(')') && receiver.contains("db.getCollection(")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn offered(input: &str) -> Vec<String> {
        let collections = ["products".to_string(), "people".to_string()];
        let fields = [
            "name".to_string(),
            "price".to_string(),
            "dims.w".to_string(),
        ];
        complete(
            input,
            input.len(),
            Vocabulary {
                collections: &collections,
                fields: &fields,
            },
        )
        .map(|c| c.candidates)
        .unwrap_or_default()
    }

    #[test]
    fn collections_and_db_methods_after_db() {
        assert_eq!(offered("db.p"), ["products", "people"]);
        assert_eq!(
            offered("db.getC"),
            ["getCollection", "getCollectionNames", "getCollectionInfos"]
        );
        assert!(offered("db.").contains(&"products".to_string()));
    }

    #[test]
    fn collection_then_cursor_methods() {
        assert_eq!(
            offered("db.products.findO"),
            [
                "findOne",
                "findOneAndUpdate",
                "findOneAndReplace",
                "findOneAndDelete"
            ]
        );
        assert_eq!(offered("db.products.find({}).so"), ["sort"]);
        assert_eq!(
            offered("x = db.products.inse"),
            ["insertOne", "insertMany", "insert"]
        );
    }

    #[test]
    fn operators_and_fields() {
        assert_eq!(offered("db.products.find({price: {$gt"), ["$gte"]);
        assert!(
            offered("db.products.find({price: {$g")
                .starts_with(&["$gt".to_string(), "$gte".to_string()])
        );
        assert_eq!(
            offered("db.products.find({pr"),
            ["price", "print", "printjson"]
        );
        assert_eq!(
            offered("db.products.aggregate([{$group: {_id: \"$na"),
            ["$name"]
        );
        assert_eq!(offered("db.products.find({\"dims."), ["w"]);
        assert_eq!(offered("Obj"), ["ObjectId"]);
    }

    #[test]
    fn fields_right_after_an_opening_brace_or_comma_in_a_call() {
        assert_eq!(offered("db.products.find({"), ["name", "price", "dims.w"]);
        assert_eq!(
            offered("db.products.find({name: 1, "),
            ["name", "price", "dims.w"]
        );
        assert!(offered("x = {").is_empty());
    }

    #[test]
    fn nothing_when_no_word_is_typed() {
        assert!(offered("db.products.find(").is_empty());
        assert!(offered("").is_empty());
        assert!(offered("db.products.find({zzz").is_empty());
    }

    #[test]
    fn the_word_start_is_where_the_candidate_goes() {
        let c = complete(
            "db.products.fi",
            14,
            Vocabulary {
                collections: &[],
                fields: &[],
            },
        )
        .unwrap();
        assert_eq!(c.start, 12);
    }
}
