//! The date strings V8's `Date` reads beyond ISO 8601 and Boa's does not: `08/27/2010`,
//! `2010/08/27 10:11`, `Aug 27, 2010`, `Fri Aug 27 2010 10:00:00 GMT+0000 (UTC)` (what
//! `Date.prototype.toString` prints). MongoDB's jstests were written against the legacy shell's
//! JavaScript engine, which reads them (V8's legacy date parser, `src/date/dateparser.h`): a
//! month name or numeric `m/d/y` (or `y/m/d` when the first number has four digits), an optional
//! `h:mm[:ss[.mmm]]` time with AM/PM, an optional `GMT`/`UTC`/`Z` zone with a `±hh[:]mm` offset;
//! weekday names and parenthesised text are ignored. Without a zone the time is local, which
//! the caller applies (it owns the JavaScript clock); a two-digit year below 50 is 20xx, else
//! 19xx, as V8 reads it.

/// The parts of a date read from a loose string; `offset_minutes` is `None` for local time.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LooseDate {
    pub year: i64,
    /// 0-based, as JavaScript's `Date` takes it.
    pub month: u32,
    pub day: u32,
    pub hour: u32,
    pub minute: u32,
    pub second: u32,
    pub millisecond: u32,
    pub offset_minutes: Option<i64>,
}

const MONTHS: [&str; 12] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];
const WEEKDAYS: [&str; 7] = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];

#[derive(Debug, PartialEq)]
enum Token {
    Number(String),
    Word(String),
    Symbol(char),
}

fn tokens(text: &str) -> Option<Vec<Token>> {
    let mut out = Vec::new();
    let mut chars = text.chars().peekable();
    let mut depth = 0usize;
    while let Some(c) = chars.next() {
        if c == '(' {
            depth += 1;
            continue;
        }
        if c == ')' {
            depth = depth.checked_sub(1)?;
            continue;
        }
        if depth > 0 || c.is_whitespace() || c == ',' {
            continue;
        }
        if c.is_ascii_digit() {
            let mut n = String::from(c);
            while let Some(d) = chars.peek().filter(|d| d.is_ascii_digit()) {
                n.push(*d);
                chars.next();
            }
            out.push(Token::Number(n));
        } else if c.is_ascii_alphabetic() {
            let mut w = String::from(c.to_ascii_lowercase());
            while let Some(d) = chars.peek().filter(|d| d.is_ascii_alphabetic()) {
                w.push(d.to_ascii_lowercase());
                chars.next();
            }
            out.push(Token::Word(w));
        } else if ":/+-.".contains(c) {
            out.push(Token::Symbol(c));
        } else {
            return None;
        }
    }
    (depth == 0).then_some(out)
}

fn number(tokens: &[Token], i: usize) -> Option<&str> {
    match tokens.get(i) {
        Some(Token::Number(n)) => Some(n),
        _ => None,
    }
}

fn symbol(tokens: &[Token], i: usize, c: char) -> bool {
    tokens.get(i) == Some(&Token::Symbol(c))
}

/// Reads `text` as V8's legacy parser does, or `None` when it is not such a date.
pub fn parse_loose_date(text: &str) -> Option<LooseDate> {
    let toks = tokens(text)?;
    let (mut year, mut month, mut day) = (None::<(i64, usize)>, None::<u32>, None::<u32>);
    let mut loose_numbers: Vec<(i64, usize)> = Vec::new();
    let (mut hour, mut minute, mut second, mut milli) = (0u32, 0u32, 0u32, 0u32);
    let mut have_time = false;
    let mut pm: Option<bool> = None;
    let mut offset: Option<i64> = None;
    let mut i = 0;
    while i < toks.len() {
        match &toks[i] {
            Token::Number(n) if symbol(&toks, i + 1, ':') && !have_time => {
                let m = number(&toks, i + 2)?;
                hour = n.parse().ok()?;
                minute = m.parse().ok()?;
                have_time = true;
                i += 3;
                if symbol(&toks, i, ':') {
                    second = number(&toks, i + 1)?.parse().ok()?;
                    i += 2;
                    if symbol(&toks, i, '.') {
                        let frac = number(&toks, i + 1)?;
                        let digits: String = frac.chars().chain("00".chars()).take(3).collect();
                        milli = digits.parse().ok()?;
                        i += 2;
                    }
                }
            }
            Token::Number(a) if symbol(&toks, i + 1, '/') && year.is_none() => {
                let b = number(&toks, i + 2)?;
                let has_third = symbol(&toks, i + 3, '/');
                let c = if has_third {
                    number(&toks, i + 4)
                } else {
                    None
                };
                if a.len() >= 3 {
                    year = Some((a.parse().ok()?, a.len()));
                    month = Some(b.parse::<u32>().ok()?.checked_sub(1)?);
                    day = Some(c?.parse().ok()?);
                } else {
                    month = Some(a.parse::<u32>().ok()?.checked_sub(1)?);
                    day = Some(b.parse().ok()?);
                    if let Some(c) = c {
                        year = Some((c.parse().ok()?, c.len()));
                    }
                }
                i += if has_third { 5 } else { 3 };
            }
            Token::Number(n) => {
                loose_numbers.push((n.parse().ok()?, n.len()));
                i += 1;
            }
            Token::Word(w) => {
                if let Some(m) = MONTHS.iter().position(|m| w.starts_with(m)) {
                    if month.is_some() {
                        return None;
                    }
                    month = Some(m as u32);
                } else if w == "am" || w == "pm" {
                    pm = Some(w == "pm");
                } else if w == "gmt" || w == "utc" || w == "ut" || w == "z" {
                    offset = Some(0);
                } else if !WEEKDAYS.iter().any(|d| w.starts_with(d)) {
                    return None;
                }
                i += 1;
            }
            Token::Symbol(sign @ ('+' | '-')) if have_time => {
                let digits = number(&toks, i + 1)?;
                let (h, m, used) = if digits.len() == 4 {
                    (&digits[..2], &digits[2..], 2)
                } else if symbol(&toks, i + 2, ':') {
                    (digits, number(&toks, i + 3)?, 4)
                } else {
                    (digits, "0", 2)
                };
                let minutes = h.parse::<i64>().ok()? * 60 + m.parse::<i64>().ok()?;
                offset = Some(if *sign == '-' { -minutes } else { minutes });
                i += used;
            }
            Token::Symbol(_) => return None,
        }
    }
    // A month name takes the loose numbers as day then year (`Aug 27 2010`, `27 Aug 2010`).
    for (value, len) in loose_numbers {
        if day.is_none() && len <= 2 && month.is_some() {
            day = Some(u32::try_from(value).ok()?);
        } else if year.is_none() {
            year = Some((value, len));
        } else {
            return None;
        }
    }
    let (year, year_digits) = year?;
    let year = if year_digits <= 2 {
        if year < 50 { 2000 + year } else { 1900 + year }
    } else {
        year
    };
    let (month, day) = (month?, day?);
    if let Some(pm) = pm {
        if !(1..=12).contains(&hour) {
            return None;
        }
        hour = hour % 12 + if pm { 12 } else { 0 };
    }
    let valid = month < 12 && (1..=31).contains(&day) && hour < 24 && minute < 60 && second < 60;
    valid.then_some(LooseDate {
        year,
        month,
        day,
        hour,
        minute,
        second,
        millisecond: milli,
        offset_minutes: offset,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Year, month (0-based), day, hour, minute, second, offset in minutes.
    type Parts = (i64, u32, u32, u32, u32, u32, Option<i64>);

    fn parts(text: &str) -> Option<Parts> {
        parse_loose_date(text).map(|d| {
            (
                d.year,
                d.month,
                d.day,
                d.hour,
                d.minute,
                d.second,
                d.offset_minutes,
            )
        })
    }

    #[test]
    fn numeric_forms() {
        assert_eq!(parts("08/27/2010"), Some((2010, 7, 27, 0, 0, 0, None)));
        assert_eq!(
            parts("8/27/2010 10:11:12"),
            Some((2010, 7, 27, 10, 11, 12, None))
        );
        assert_eq!(parts("2010/08/27"), Some((2010, 7, 27, 0, 0, 0, None)));
        assert_eq!(parts("1/2/99"), Some((1999, 0, 2, 0, 0, 0, None)));
        assert_eq!(parts("1/2/05"), Some((2005, 0, 2, 0, 0, 0, None)));
    }

    #[test]
    fn month_names_and_zones() {
        assert_eq!(parts("Aug 27, 2010"), Some((2010, 7, 27, 0, 0, 0, None)));
        assert_eq!(parts("27 August 2010"), Some((2010, 7, 27, 0, 0, 0, None)));
        assert_eq!(
            parts("Fri Aug 27 2010 10:00:00 GMT+0200 (CEST)"),
            Some((2010, 7, 27, 10, 0, 0, Some(120)))
        );
        assert_eq!(
            parts("Aug 27 2010 1:05 pm UTC"),
            Some((2010, 7, 27, 13, 5, 0, Some(0)))
        );
        assert_eq!(
            parse_loose_date("8/27/2010 10:11:12.5").map(|d| d.millisecond),
            Some(500)
        );
    }

    #[test]
    fn refuses_what_is_not_a_date() {
        for text in [
            "",
            "nonsense",
            "13/01/2010",
            "Aug 32 2010",
            "25:00 Aug 1 2010",
            "Aug 1",
            "1 2 3 4",
            "(unclosed",
            "Aug 1 2010 #",
        ] {
            assert_eq!(parse_loose_date(text), None, "{text}");
        }
    }
}
