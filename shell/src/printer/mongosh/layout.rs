//! Whether one level of an object or array fits on a line (`reduceToSingleString`,
//! `isBelowBreakLength`) and how long arrays are set in columns (`groupArrayElements`).

use bson::Bson;

use super::Inspector;
use crate::printer::text::{display_width, utf16_len};

const BREAK_LENGTH: usize = 80;
/// mongosh's `inspectCompact`: up to three inner levels may share one line.
const COMPACT: usize = 3;

/// Joins the formatted entries of one level, on one line when they fit, else one per line.
/// `items` is the array being printed (for column grouping), `None` for an object.
pub fn reduce_to_single_string(
    ins: &Inspector,
    output: Vec<String>,
    braces: (&str, &str),
    items: Option<&[Bson]>,
    recurse_times: usize,
) -> String {
    let entries = output.len();
    let output = match items {
        Some(items) if entries > 6 => group_array_elements(ins, output, items),
        _ => output,
    };
    if ins.current_depth.saturating_sub(recurse_times) < COMPACT && entries == output.len() {
        // 10 is util.inspect's allowance for everything else that shortens the line.
        let start = output.len() + ins.indentation + braces.0.len() + 10;
        if is_below_break_length(&output, start) {
            let joined = output.join(", ");
            if !joined.contains('\n') {
                return format!("{} {joined} {}", braces.0, braces.1);
            }
        }
    }
    let indentation = format!("\n{}", " ".repeat(ins.indentation));
    format!(
        "{}{indentation}  {}{indentation}{}",
        braces.0,
        output.join(&format!(",{indentation}  ")),
        braces.1
    )
}

fn is_below_break_length(output: &[String], start: usize) -> bool {
    let mut total = output.len() + start;
    if total + output.len() > BREAK_LENGTH {
        return false;
    }
    for entry in output {
        total += utf16_len(entry);
        if total > BREAK_LENGTH {
            return false;
        }
    }
    true
}

/// Sets more than six short entries in aligned columns, numbers right-aligned.
fn group_array_elements(ins: &Inspector, output: Vec<String>, items: &[Bson]) -> Vec<String> {
    let has_more = ins.limits.max_array_length < output.len();
    let output_len = if has_more {
        output.len() - 1
    } else {
        output.len()
    };
    let separator_space = 2;
    let data_len: Vec<usize> = output[..output_len]
        .iter()
        .map(|s| display_width(s))
        .collect();
    let total_length: usize = data_len.iter().map(|l| l + separator_space).sum();
    let max_length = data_len.iter().copied().max().unwrap_or(0);
    let actual_max = max_length + separator_space;
    let fits_three = actual_max * 3 + ins.indentation < BREAK_LENGTH;
    if !(fits_three && (total_length as f64 / actual_max as f64 > 5.0 || max_length <= 6)) {
        return output;
    }
    let average_bias = (actual_max as f64 - total_length as f64 / output.len() as f64).sqrt();
    let biased_max = (actual_max as f64 - 3.0 - average_bias).max(1.0);
    if !biased_max.is_finite() {
        return output;
    }
    let ideal = ((2.5 * biased_max * output_len as f64).sqrt() / biased_max + 0.5).floor();
    let by_width = (BREAK_LENGTH.saturating_sub(ins.indentation) / actual_max) as f64;
    let columns = ideal.min(by_width).min((COMPACT * 4) as f64).min(15.0);
    if columns <= 1.0 {
        return output;
    }
    let columns = columns as usize;
    let max_line_length: Vec<usize> = (0..columns)
        .map(|i| {
            data_len
                .iter()
                .skip(i)
                .step_by(columns)
                .copied()
                .max()
                .unwrap_or(0)
                + separator_space
        })
        .collect();
    let numbers =
        (0..output.len()).all(|i| matches!(items.get(i), Some(Bson::Int32(_) | Bson::Double(_))));
    let mut grouped = Vec::with_capacity(output_len.div_ceil(columns) + 1);
    let mut i = 0;
    while i < output_len {
        let end = (i + columns).min(output_len);
        let mut line = String::new();
        for j in i..end {
            let pad = max_line_length[j - i].saturating_sub(data_len[j] + separator_space);
            let spaces = " ".repeat(pad);
            let last = j == end - 1;
            match (numbers, last) {
                (true, false) => line.push_str(&format!("{spaces}{}, ", output[j])),
                (true, true) => line.push_str(&format!("{spaces}{}", output[j])),
                (false, false) => line.push_str(&format!("{}, {spaces}", output[j])),
                (false, true) => line.push_str(&output[j]),
            }
        }
        grouped.push(line);
        i += columns;
    }
    if has_more {
        grouped.push(output[output_len].clone());
    }
    grouped
}

#[cfg(test)]
mod tests {
    use super::super::{Limits, inspect};
    use bson::Bson;

    #[test]
    fn short_number_arrays_group_in_columns() {
        let v = Bson::Array((1..=30).map(Bson::Int32).collect());
        assert_eq!(
            inspect(&v, Limits::RESULT),
            "[\n   1,  2,  3,  4,  5,  6,  7,  8,  9,\n  10, 11, 12, 13, 14, 15, 16, 17, 18,\n  19, 20, 21, 22, 23, 24, 25, 26, 27,\n  28, 29, 30\n]"
        );
    }

    #[test]
    fn six_entries_stay_on_one_line() {
        let v = Bson::Array((1..=6).map(Bson::Int32).collect());
        assert_eq!(inspect(&v, Limits::RESULT), "[ 1, 2, 3, 4, 5, 6 ]");
    }
}
