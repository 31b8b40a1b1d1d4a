//! Stable sorting with one compiled copy of the standard library's sort for every caller.
//!
//! `slice::sort_by` is generic over the element type and the comparison closure, so every call
//! site compiles its own driftsort (about 4.5 KB of wasm each): 49 of them were 220 KB of the
//! worker's code, 69 KB gzip (issue #22, docs/performance.md, session 16). These helpers sort a
//! list of positions with a `dyn` comparison instead, one instantiation in all, then move the
//! elements into that order, which is a few hundred bytes per element type. The order is the
//! one `slice::sort_by` gives (both are stable; for a consistent comparison the sorted order of
//! a stable sort is unique). A sort of 0 or 1 element does nothing and allocates nothing.

use std::cmp::Ordering;

/// Sorts `items` stably by `compare`, as `items.sort_by(compare)` does.
pub fn sort_by<T>(items: &mut [T], mut compare: impl FnMut(&T, &T) -> Ordering) {
    if items.len() < 2 {
        return;
    }
    let mut order: Vec<usize> = (0..items.len()).collect();
    {
        let items: &[T] = items;
        sort_positions(&mut order, &mut |a: &usize, b: &usize| {
            compare(&items[*a], &items[*b])
        });
    }
    permute(items, &mut order);
}

/// Sorts `items` stably by the key `key` gives, as `items.sort_by_key(key)` does.
pub fn sort_by_key<T, K: Ord>(items: &mut [T], mut key: impl FnMut(&T) -> K) {
    sort_by(items, |a, b| key(a).cmp(&key(b)));
}

/// Sorts `items` in their natural order, as `items.sort()` does.
pub fn sort<T: Ord>(items: &mut [T]) {
    sort_by(items, |a, b| a.cmp(b));
}

/// The one instantiation of the standard library's stable sort.
#[inline(never)]
fn sort_positions(order: &mut [usize], compare: &mut dyn FnMut(&usize, &usize) -> Ordering) {
    order.sort_by(compare);
}

/// Moves the elements so that position `i` holds what was at `order[i]`: each cycle of the
/// permutation is followed once with swaps; `order` is used up (a visited slot points at itself).
fn permute<T>(items: &mut [T], order: &mut [usize]) {
    for start in 0..order.len() {
        let mut at = start;
        while order[at] != at {
            let from = order[at];
            order[at] = at;
            if from == start {
                break;
            }
            items.swap(at, from);
            at = from;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator, so the test needs no crate.
    fn numbers(seed: u64, n: usize, modulo: u64) -> Vec<u64> {
        let mut x = seed;
        (0..n)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x % modulo
            })
            .collect()
    }

    #[test]
    fn the_order_is_the_standard_librarys_stable_order() {
        for (seed, n, modulo) in [(1, 0, 5), (2, 1, 5), (3, 2, 2), (4, 50, 7), (5, 1000, 30)] {
            // Pairs of (key, original position): a stable sort by key keeps positions rising.
            let items: Vec<(u64, usize)> = numbers(seed, n, modulo)
                .into_iter()
                .enumerate()
                .map(|(i, k)| (k, i))
                .collect();
            let mut ours = items.clone();
            sort_by(&mut ours, |a, b| a.0.cmp(&b.0));
            let mut std = items.clone();
            std.sort_by_key(|a| a.0);
            assert_eq!(ours, std, "seed {seed}");
            let mut ours = items.clone();
            sort_by_key(&mut ours, |a| std::cmp::Reverse(a.0));
            let mut std = items.clone();
            std.sort_by_key(|a| std::cmp::Reverse(a.0));
            assert_eq!(ours, std, "seed {seed}, descending");
            let mut ours = items.clone();
            sort(&mut ours);
            let mut std = items;
            std.sort();
            assert_eq!(ours, std, "seed {seed}, natural");
        }
    }

    #[test]
    fn owned_elements_are_moved_not_copied() {
        let mut words: Vec<String> = ["pear", "apple", "fig", "apple", "kiwi"]
            .iter()
            .map(|w| w.to_string())
            .collect();
        sort(&mut words);
        assert_eq!(words, ["apple", "apple", "fig", "kiwi", "pear"]);
    }
}
