//! JavaScript's `Number.prototype.toString()` for doubles: the shortest digits that round-trip,
//! laid out by ECMAScript's Number::toString rules (plain up to 21 integer digits, `0.000001`
//! down to six leading zeros, otherwise `1.5e+21` / `1e-7`). Every printer shows numbers this way.

/// `String(v)` in JavaScript. `-0` gives `"0"`, as JavaScript's `String(-0)` does.
pub fn js_number(v: f64) -> String {
    if v.is_nan() {
        return "NaN".to_string();
    }
    if v.is_infinite() {
        return if v > 0.0 { "Infinity" } else { "-Infinity" }.to_string();
    }
    if v == 0.0 {
        return "0".to_string();
    }
    // Rust's `{:e}` prints the shortest round-trip digits, e.g. `1.2345e3` or `5e-324`.
    let sci = format!("{:e}", v.abs());
    let (mantissa, exponent) = sci.split_once('e').unwrap_or((sci.as_str(), "0"));
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let exponent: i64 = exponent.parse().unwrap_or(0);
    let k = digits.len() as i64;
    // The decimal point sits after `n` digits: v = 0.d1d2...dk * 10^n.
    let n = exponent + 1;
    let mut out = String::new();
    if v < 0.0 {
        out.push('-');
    }
    if k <= n && n <= 21 {
        out.push_str(&digits);
        out.extend(std::iter::repeat_n('0', (n - k) as usize));
    } else if 0 < n && n <= 21 {
        let (int, frac) = digits.split_at(n as usize);
        out.push_str(int);
        out.push('.');
        out.push_str(frac);
    } else if -6 < n && n <= 0 {
        out.push_str("0.");
        out.extend(std::iter::repeat_n('0', (-n) as usize));
        out.push_str(&digits);
    } else {
        let e = n - 1;
        let (first, rest) = digits.split_at(1);
        out.push_str(first);
        if !rest.is_empty() {
            out.push('.');
            out.push_str(rest);
        }
        out.push('e');
        out.push(if e >= 0 { '+' } else { '-' });
        out.push_str(&e.abs().to_string());
    }
    out
}

/// How util.inspect shows a number: like `String(v)` but keeping the sign of `-0`.
pub fn inspect_number(v: f64) -> String {
    if v == 0.0 && v.is_sign_negative() {
        "-0".to_string()
    } else {
        js_number(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_and_fractions() {
        assert_eq!(js_number(10.0), "10");
        assert_eq!(js_number(1.5), "1.5");
        assert_eq!(js_number(-56.564242), "-56.564242");
        assert_eq!(js_number(3.6118055555555557), "3.6118055555555557");
        assert_eq!(js_number(0.1 + 0.2), "0.30000000000000004");
        assert_eq!(js_number(1423539633910.0), "1423539633910");
    }

    #[test]
    fn exponent_boundaries() {
        assert_eq!(js_number(1e21), "1e+21");
        assert_eq!(js_number(1e20), "100000000000000000000");
        assert_eq!(js_number(123e20), "1.23e+22");
        assert_eq!(js_number(0.000001), "0.000001");
        assert_eq!(js_number(0.0000001), "1e-7");
        assert_eq!(js_number(1.5e-7), "1.5e-7");
        assert_eq!(js_number(5e-324), "5e-324");
        assert_eq!(js_number(f64::MAX), "1.7976931348623157e+308");
        assert_eq!(js_number(9007199254740993.0), "9007199254740992");
    }

    #[test]
    fn specials() {
        assert_eq!(js_number(f64::NAN), "NaN");
        assert_eq!(js_number(f64::INFINITY), "Infinity");
        assert_eq!(js_number(f64::NEG_INFINITY), "-Infinity");
        assert_eq!(js_number(-0.0), "0");
        assert_eq!(inspect_number(-0.0), "-0");
        assert_eq!(inspect_number(0.0), "0");
    }
}
