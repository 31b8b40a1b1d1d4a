//! A parsed filter written back as a document, as MongoDB's explain shows `parsedQuery`:
//! `{a: 1}` is `{a: {$eq: 1}}`, `$ne` is `{$not: {$eq: ...}}`, several clauses are an `$and`.

use bson::{Bson, Document, doc};

use super::expr::{CmpOp, Expr, ValuePred};

/// The filter as a document.
pub fn serialize(expr: &Expr) -> Document {
    match expr {
        Expr::And(children) if children.is_empty() => Document::new(),
        Expr::And(children) => doc! {"$and": list(children)},
        Expr::Or(children) => doc! {"$or": list(children)},
        Expr::Nor(children) => doc! {"$nor": list(children)},
        Expr::Not(inner) => match inner.as_ref() {
            Expr::Path { path, pred } => doc! {path.dotted(): {"$not": pred_doc(pred)}},
            other => doc! {"$nor": [serialize(other)]},
        },
        Expr::Path { path, pred } => doc! {path.dotted(): pred_doc(pred)},
        Expr::Expression(e) => doc! {"$expr": e.serialize()},
        Expr::Where(code) => doc! {"$where": Bson::JavaScriptCode(code.clone())},
        Expr::Text(t) => {
            let text = doc! {
                "$search": t.search.clone(),
                "$language": t.language.clone().unwrap_or_else(|| "english".into()),
                "$caseSensitive": t.case_sensitive,
                "$diacriticSensitive": t.diacritic_sensitive,
            };
            doc! {"$text": text}
        }
        Expr::JsonSchema(s) => doc! {"$jsonSchema": s.source().clone()},
        Expr::AlwaysTrue => doc! {"$alwaysTrue": 1},
        Expr::AlwaysFalse => doc! {"$alwaysFalse": 1},
    }
}

fn list(children: &[Expr]) -> Vec<Bson> {
    children
        .iter()
        .map(|c| Bson::Document(serialize(c)))
        .collect()
}

/// One predicate as its operator document (`{$gt: 5}`).
fn pred_doc(pred: &ValuePred) -> Document {
    match pred {
        ValuePred::Cmp(op, v) => {
            let name = match op {
                CmpOp::Eq => "$eq",
                CmpOp::Lt => "$lt",
                CmpOp::Lte => "$lte",
                CmpOp::Gt => "$gt",
                CmpOp::Gte => "$gte",
            };
            doc! {name: v.clone()}
        }
        ValuePred::In(list) => {
            let mut items = list.values.clone();
            items.extend(list.regexes.iter().map(regex_bson));
            doc! {"$in": items}
        }
        ValuePred::Regex(r) => doc! {"$regex": r.pattern.clone(), "$options": r.options.clone()},
        ValuePred::Exists => doc! {"$exists": true},
        ValuePred::Type(set) => doc! {"$type": set.to_bson()},
        ValuePred::Mod { divisor, remainder } => doc! {"$mod": [*divisor, *remainder]},
        ValuePred::Bits(test) => {
            let (name, positions) = test.parts();
            let positions: Vec<Bson> = positions
                .iter()
                .map(|p| Bson::Int64(i64::try_from(*p).unwrap_or(i64::MAX)))
                .collect();
            doc! {name: positions}
        }
        ValuePred::Size(n) => doc! {"$size": *n},
        ValuePred::ElemMatchObject(inner) => doc! {"$elemMatch": serialize(inner)},
        ValuePred::ElemMatchValue(preds) => {
            let mut d = Document::new();
            for p in preds {
                d.extend(pred_doc(p));
            }
            doc! {"$elemMatch": d}
        }
        ValuePred::Not(inner) => {
            let mut d = Document::new();
            for p in inner {
                d.extend(pred_doc(p));
            }
            doc! {"$not": d}
        }
        ValuePred::Geo(g) => g.doc.clone(),
        ValuePred::All(inner) => {
            let items: Vec<Bson> = inner.iter().map(|p| Bson::Document(pred_doc(p))).collect();
            doc! {"$and": items}
        }
    }
}

pub(crate) fn regex_bson(r: &crate::value::regex::QueryRegex) -> Bson {
    match (r.pattern.clone().try_into(), r.options.clone().try_into()) {
        (Ok(pattern), Ok(options)) => Bson::RegularExpression(bson::Regex { pattern, options }),
        _ => Bson::String(r.pattern.clone()),
    }
}

#[cfg(test)]
mod tests {
    use bson::doc;

    use crate::matcher::Filter;

    fn parsed(f: bson::Document) -> bson::Document {
        Filter::parse(&f).unwrap().parsed_query()
    }

    #[test]
    fn like_mongodb_explain() {
        assert_eq!(parsed(doc! {"a": 1}), doc! {"a": {"$eq": 1}});
        assert_eq!(
            parsed(doc! {"a": 1, "b": {"$gt": 2}}),
            doc! {"$and": [{"a": {"$eq": 1}}, {"b": {"$gt": 2}}]}
        );
        assert_eq!(
            parsed(doc! {"a": {"$ne": 1}}),
            doc! {"a": {"$not": {"$eq": 1}}}
        );
        assert_eq!(
            parsed(doc! {"a": {"$in": [3, 1]}}),
            doc! {"a": {"$in": [1, 3]}}
        );
        assert_eq!(
            parsed(doc! {"$or": [{"a": 1}, {"b": 2}]}),
            doc! {"$or": [{"a": {"$eq": 1}}, {"b": {"$eq": 2}}]}
        );
        assert_eq!(parsed(doc! {}), doc! {});
        assert_eq!(
            parsed(doc! {"$expr": {"$gt": ["$a", 1]}}),
            doc! {"$expr": {"$gt": ["$a", {"$const": 1}]}}
        );
        assert_eq!(
            parsed(doc! {"a": {"$exists": false}}),
            doc! {"a": {"$not": {"$exists": true}}}
        );
    }
}
