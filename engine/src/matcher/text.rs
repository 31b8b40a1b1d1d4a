//! Where `$text` sits in a filter tree, for the checks MongoDB makes before planning: one
//! `$text` at most, and none under `$nor`. (`$text` under `$elemMatch` is refused by the
//! parser; evaluating `$text` needs its index, so the planner answers it, not `eval.rs`.)

use super::expr::Expr;

impl Expr {
    /// How many `$text` nodes the tree holds.
    pub fn text_count(&self) -> usize {
        match self {
            Expr::Text(_) => 1,
            Expr::And(c) | Expr::Or(c) | Expr::Nor(c) => c.iter().map(Expr::text_count).sum(),
            Expr::Not(e) => e.text_count(),
            _ => 0,
        }
    }

    /// Whether a `$text` node lies under a `$nor`.
    pub fn text_under_nor(&self) -> bool {
        match self {
            Expr::Nor(c) => c.iter().any(|e| e.text_count() > 0),
            Expr::And(c) | Expr::Or(c) => c.iter().any(Expr::text_under_nor),
            Expr::Not(e) => e.text_under_nor(),
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use bson::doc;

    use crate::matcher::Filter;

    #[test]
    fn text_placement() {
        let f = Filter::parse(&doc! {"$text": {"$search": "a"}, "x": 1}).unwrap();
        assert_eq!((f.text_count(), f.text_under_nor()), (1, false));
        let f = Filter::parse(&doc! {"$nor": [{"$text": {"$search": "a"}}]}).unwrap();
        assert!(f.text_under_nor());
        let f = Filter::parse(
            &doc! {"$and": [{"$text": {"$search": "a"}}, {"$or": [{"$text": {"$search": "b"}}, {"y": 1}]}]},
        )
        .unwrap();
        assert_eq!(f.text_count(), 2);
    }
}
