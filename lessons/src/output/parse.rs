//! One tolerant reader for what the shell prints: mongosh's `util.inspect` text (the spelling of
//! `shell::printer`: `{ name: 'x' }`, `Long('5')`, `ISODate('…')`, `Timestamp({ t: 1, i: 2 })`,
//! `Binary.createFromBase64('…', 0)`, `'a\n' +` continued strings, `[Object]`, `... 3 more
//! items`) and the legacy shell's (`{ "name" : "x" }`, `NumberLong(5)`, `ISODate("…")`,
//! `Timestamp(1, 2)`, `BinData(0,"…")`, `{ $minKey : 1 }`). Line breaks and indentation between
//! tokens are not part of a value.
//!
//! A whole output is read line by line: where a value starts, it is read (over as many lines as
//! it takes) and must end its line; an error line (`MongoServerError[Code]: message`) is kept
//! apart; any other line (`print` text, `switched to db shop`, `Type "it" for more`) is text.
//! Nothing here panics: text that is not a value is simply not read as one.

use bson::{Binary, DateTime, Decimal128, spec::BinarySubtype};

use super::value::PrintedValue;

/// One part of what a command showed.
#[derive(Debug, Clone, PartialEq)]
pub enum OutputItem {
    Value(PrintedValue),
    /// `Name[CodeName]: message`, the way the shell shows an error (the message with its white
    /// space folded).
    Error {
        name: String,
        code: Option<String>,
        message: String,
    },
    /// A line that is not a value, with its white space folded.
    Text(String),
}

/// Reads a command's whole output into its parts.
pub fn parse_output(text: &str) -> Vec<OutputItem> {
    let mut items = Vec::new();
    let mut reader = Reader { src: text, pos: 0 };
    loop {
        reader.skip_space();
        if reader.pos >= text.len() {
            return items;
        }
        let start = reader.pos;
        let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
        let line = &text[start..line_end];
        if let Some(error) = error_line(line) {
            items.push(error);
            reader.pos = line_end;
            continue;
        }
        match reader.value(0) {
            Ok(v) if reader.at_line_end() => items.push(OutputItem::Value(v)),
            _ => {
                items.push(OutputItem::Text(fold_space(line)));
                reader.pos = line_end;
            }
        }
    }
}

/// Reads a text that holds exactly one value; `None` when it is not one.
pub fn parse_value(text: &str) -> Option<PrintedValue> {
    let mut reader = Reader { src: text, pos: 0 };
    let v = reader.value(0).ok()?;
    reader.skip_space();
    (reader.pos == text.len()).then_some(v)
}

/// Words with one space between them.
pub fn fold_space(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `MongoServerError[DuplicateKey]: E11000 …`, `TypeError: …`, `Uncaught: …`.
fn error_line(line: &str) -> Option<OutputItem> {
    let (head, message) = line.trim().split_once(':')?;
    let (name, code) = match head.split_once('[') {
        Some((name, rest)) => (name, Some(rest.strip_suffix(']')?)),
        None => (head, None),
    };
    let word = |s: &str| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
    };
    let error_name = name.ends_with("Error") || name.ends_with("Exception") || name == "Uncaught";
    if !word(name) || !error_name || !code.is_none_or(word) {
        return None;
    }
    Some(OutputItem::Error {
        name: name.to_string(),
        code: code.map(str::to_string),
        message: fold_space(message),
    })
}

/// Nesting deeper than this is not read as a value (the lines then compare as text), so a
/// pathological output cannot exhaust the stack.
const MAX_DEPTH: usize = 200;

/// The text is not a value (where the reader stands).
struct NotAValue;

type Read<T> = Result<T, NotAValue>;

struct Reader<'a> {
    src: &'a str,
    pos: usize,
}

impl Reader<'_> {
    fn rest(&self) -> &str {
        &self.src[self.pos..]
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        Some(c)
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.pos += c.len_utf8();
            true
        } else {
            false
        }
    }

    fn expect(&mut self, c: char) -> Read<()> {
        if self.eat(c) { Ok(()) } else { Err(NotAValue) }
    }

    fn skip_space(&mut self) {
        let rest = self.rest();
        self.pos += rest.len() - rest.trim_start().len();
    }

    /// Only spaces and tabs follow before the end of the line (or of the text).
    fn at_line_end(&mut self) -> bool {
        let rest = self.rest();
        self.pos += rest.len() - rest.trim_start_matches([' ', '\t', '\r']).len();
        matches!(self.peek(), None | Some('\n'))
    }

    fn take_while(&mut self, keep: impl Fn(char) -> bool) -> &str {
        let start = self.pos;
        while self.peek().is_some_and(&keep) {
            self.bump();
        }
        &self.src[start..self.pos]
    }

    fn value(&mut self, depth: usize) -> Read<PrintedValue> {
        if depth > MAX_DEPTH {
            return Err(NotAValue);
        }
        self.skip_space();
        match self.peek().ok_or(NotAValue)? {
            '{' => self.document(depth),
            '[' => self.array(depth),
            '\'' | '"' | '`' => self.string_value(),
            '/' => self.regex(),
            c if c == '-' || c == '.' || c.is_ascii_digit() => {
                self.number().map(PrintedValue::Number)
            }
            c if is_word_start(c) => self.word(depth),
            _ => Err(NotAValue),
        }
    }

    fn document(&mut self, depth: usize) -> Read<PrintedValue> {
        self.expect('{')?;
        let mut fields = Vec::new();
        loop {
            self.skip_space();
            if self.eat('}') {
                break;
            }
            let key = self.key()?;
            self.skip_space();
            self.expect(':')?;
            let v = self.value(depth + 1)?;
            fields.push((key, v));
            self.skip_space();
            if !self.eat(',') {
                self.expect('}')?;
                break;
            }
        }
        // The legacy shell prints MinKey and MaxKey as these documents.
        Ok(match fields.as_slice() {
            [(k, PrintedValue::Number(n))] if k == "$minKey" && *n == 1.0 => PrintedValue::MinKey,
            [(k, PrintedValue::Number(n))] if k == "$maxKey" && *n == 1.0 => PrintedValue::MaxKey,
            _ => PrintedValue::Document(fields),
        })
    }

    /// `name`, `'quoted-name'`, `"quoted"`, `['__proto__']`.
    fn key(&mut self) -> Read<String> {
        match self.peek().ok_or(NotAValue)? {
            '\'' | '"' | '`' => self.string_literal(),
            '[' => {
                self.bump();
                self.skip_space();
                let k = self.string_literal()?;
                self.skip_space();
                self.expect(']')?;
                Ok(k)
            }
            _ => {
                let k = self.take_while(|c| c.is_alphanumeric() || c == '_' || c == '$');
                if k.is_empty() {
                    Err(NotAValue)
                } else {
                    Ok(k.to_string())
                }
            }
        }
    }

    fn array(&mut self, depth: usize) -> Read<PrintedValue> {
        self.expect('[')?;
        const PLACEHOLDERS: [&str; 6] = [
            "Object]", "Array]", "Circular", "Getter", "Setter", "Function",
        ];
        if PLACEHOLDERS.iter().any(|p| self.rest().starts_with(p)) {
            let inner = self.take_while(|c| !matches!(c, ']' | '\n')).to_string();
            self.expect(']')?;
            return Ok(PrintedValue::Elided(format!("[{inner}]")));
        }
        let mut items = Vec::new();
        loop {
            self.skip_space();
            if self.eat(']') {
                break;
            }
            if self.rest().starts_with("...") {
                // `... 5 more items`
                let text = self.take_while(|c| !matches!(c, ',' | ']' | '\n'));
                items.push(PrintedValue::Elided(text.trim_end().to_string()));
            } else {
                items.push(self.value(depth + 1)?);
            }
            self.skip_space();
            if !self.eat(',') {
                self.expect(']')?;
                break;
            }
        }
        Ok(PrintedValue::Array(items))
    }

    /// A string, with the pieces mongosh splits a long string into (`'a\n' +` on one line,
    /// `'b'` on the next) joined, and a cut string's `... N more characters`.
    fn string_value(&mut self) -> Read<PrintedValue> {
        let mut s = self.string_literal()?;
        loop {
            let before = self.pos;
            self.skip_space();
            if self.eat('+') {
                self.skip_space();
                if matches!(self.peek(), Some('\'' | '"' | '`')) {
                    s.push_str(&self.string_literal()?);
                    continue;
                }
            }
            self.pos = before;
            break;
        }
        if let Some(more) = self.truncation_trailer() {
            return Ok(PrintedValue::TruncatedString { kept: s, more });
        }
        Ok(PrintedValue::String(s))
    }

    /// `... 3 more characters` right after a string.
    fn truncation_trailer(&mut self) -> Option<u64> {
        let rest = self.rest().strip_prefix("... ")?;
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        let after = rest[digits.len()..].strip_prefix(" more character")?;
        let plural = after.starts_with('s');
        let more = digits.parse().ok()?;
        self.pos += 4 + digits.len() + " more character".len() + usize::from(plural);
        Some(more)
    }

    fn string_literal(&mut self) -> Read<String> {
        let quote = self.bump().ok_or(NotAValue)?;
        let mut out = String::new();
        loop {
            match self.bump().ok_or(NotAValue)? {
                c if c == quote => return Ok(out),
                '\n' => return Err(NotAValue),
                '\\' => self.escape(&mut out)?,
                c => out.push(c),
            }
        }
    }

    /// The character after a backslash. A lone UTF-16 surrogate (`\ud83d`, where the printer
    /// cut a string inside a pair) stays as its escape text.
    fn escape(&mut self, out: &mut String) -> Read<()> {
        let c = self.bump().ok_or(NotAValue)?;
        let hex = |r: &mut Self, n: usize| -> Read<u32> {
            let digits = r.rest().get(..n).ok_or(NotAValue)?;
            let v = u32::from_str_radix(digits, 16).map_err(|_| NotAValue)?;
            r.pos += n;
            Ok(v)
        };
        match c {
            'n' => out.push('\n'),
            't' => out.push('\t'),
            'r' => out.push('\r'),
            'b' => out.push('\u{8}'),
            'f' => out.push('\u{c}'),
            'v' => out.push('\u{b}'),
            '0' => out.push('\0'),
            'x' => out.push(char::from_u32(hex(self, 2)?).ok_or(NotAValue)?),
            'u' if self.eat('{') => {
                let digits = self.take_while(|c| c.is_ascii_hexdigit()).to_string();
                self.expect('}')?;
                let v = u32::from_str_radix(&digits, 16).map_err(|_| NotAValue)?;
                out.push(char::from_u32(v).ok_or(NotAValue)?);
            }
            'u' => {
                let unit = hex(self, 4)?;
                if (0xD800..0xDC00).contains(&unit) && self.rest().starts_with("\\u") {
                    let before = self.pos;
                    self.pos += 2;
                    match hex(self, 4) {
                        Ok(low) if (0xDC00..0xE000).contains(&low) => {
                            let c = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
                            out.push(char::from_u32(c).ok_or(NotAValue)?);
                            return Ok(());
                        }
                        _ => self.pos = before,
                    }
                }
                match char::from_u32(unit) {
                    Some(c) => out.push(c),
                    None => out.push_str(&format!("\\u{unit:x}")),
                }
            }
            other => out.push(other),
        }
        Ok(())
    }

    /// `/source/flags`. mongosh escapes a `/` in the source (`\/`), the legacy shell does not:
    /// the regex ends at the first unescaped `/` outside a class whose flags end the value, and
    /// the source is kept with `\/` read as `/`.
    fn regex(&mut self) -> Read<PrintedValue> {
        self.expect('/')?;
        let start = self.pos;
        let mut in_class = false;
        let mut source = String::new();
        loop {
            match self.bump().ok_or(NotAValue)? {
                '\\' => match self.bump().ok_or(NotAValue)? {
                    '/' => source.push('/'),
                    '\n' => return Err(NotAValue),
                    c => {
                        source.push('\\');
                        source.push(c);
                    }
                },
                '[' => {
                    in_class = true;
                    source.push('[');
                }
                ']' => {
                    in_class = false;
                    source.push(']');
                }
                '/' if !in_class => {
                    let end = self.pos;
                    let flags = self.take_while(|c| c.is_ascii_alphabetic()).to_string();
                    let ends_value = match self.peek() {
                        None => true,
                        Some(c) => c.is_whitespace() || matches!(c, ',' | '}' | ']' | ')'),
                    };
                    if ends_value && end > start + 1 {
                        return Ok(PrintedValue::Regex { source, flags });
                    }
                    self.pos = end;
                    source.push('/');
                }
                '\n' => return Err(NotAValue),
                c => source.push(c),
            }
        }
    }

    /// A JavaScript number as printed: `-12`, `0.5`, `1e+21`, `-0`, `Infinity`.
    fn number(&mut self) -> Read<f64> {
        let start = self.pos;
        let negative = self.eat('-');
        if self.rest().starts_with("Infinity") {
            self.pos += "Infinity".len();
            return Ok(if negative {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            });
        }
        let int = self.take_while(|c| c.is_ascii_digit()).len();
        let mut frac = 0;
        if self.eat('.') {
            frac = self.take_while(|c| c.is_ascii_digit()).len();
        }
        if int + frac == 0 {
            return Err(NotAValue);
        }
        if matches!(self.peek(), Some('e' | 'E')) {
            let before = self.pos;
            self.bump();
            if !self.eat('+') {
                self.eat('-');
            }
            if self.take_while(|c| c.is_ascii_digit()).is_empty() {
                self.pos = before;
            }
        }
        self.src[start..self.pos].parse().map_err(|_| NotAValue)
    }

    /// A keyword (`true`, `null`, `MinKey`, …) or a constructor call (`ObjectId('…')`).
    fn word(&mut self, depth: usize) -> Read<PrintedValue> {
        let mut name = self.take_while(is_word_char).to_string();
        if name == "new" {
            self.skip_space();
            name = self.take_while(is_word_char).to_string();
        }
        if self.eat('(') {
            let mut args = Vec::new();
            loop {
                self.skip_space();
                if self.eat(')') {
                    break;
                }
                args.push(self.value(depth + 1)?);
                self.skip_space();
                if !self.eat(',') {
                    self.expect(')')?;
                    break;
                }
            }
            return Ok(constructed(name, args));
        }
        Ok(match name.as_str() {
            "true" => PrintedValue::Boolean(true),
            "false" => PrintedValue::Boolean(false),
            "null" => PrintedValue::Null,
            "undefined" => PrintedValue::Undefined,
            "NaN" => PrintedValue::Number(f64::NAN),
            "Infinity" => PrintedValue::Number(f64::INFINITY),
            "MinKey" => PrintedValue::MinKey,
            "MaxKey" => PrintedValue::MaxKey,
            "Invalid" => {
                self.skip_space();
                if self.take_while(is_word_char) != "Date" {
                    return Err(NotAValue);
                }
                PrintedValue::Date("Invalid Date".into())
            }
            _ => return Err(NotAValue),
        })
    }
}

fn is_word_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_' || c == '$'
}

fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '$' || c == '.'
}

/// What a constructor call means: the BSON classes in either shell's spelling become one value;
/// any other call (or a call whose arguments do not fit) stays a call.
fn constructed(name: String, args: Vec<PrintedValue>) -> PrintedValue {
    use PrintedValue as V;
    let known = match (name.as_str(), args.as_slice()) {
        ("ObjectId", [V::String(hex)]) => Some(V::ObjectId(hex.to_ascii_lowercase())),
        ("ISODate", [V::String(iso)]) => Some(V::Date(
            DateTime::parse_rfc3339_str(iso)
                .ok()
                .and_then(|d| d.try_to_rfc3339_string().ok())
                .unwrap_or_else(|| iso.clone()),
        )),
        ("Long" | "NumberLong", [arg]) => integer(arg).map(V::Long),
        ("Int32" | "NumberInt", [arg]) => integer(arg)
            .and_then(|n| i32::try_from(n).ok())
            .map(V::Int32),
        ("Double", [V::Number(n)]) => Some(V::Double(*n)),
        ("Double", [V::String(s)]) => s.parse().ok().map(V::Double),
        ("Decimal128" | "NumberDecimal", [V::String(d)]) => Some(V::Decimal128(
            d.parse::<Decimal128>()
                .map(|d| d.to_string())
                .unwrap_or_else(|_| d.clone()),
        )),
        ("Timestamp", [V::Document(fields)]) => match fields.as_slice() {
            [(t, tv), (i, iv)] if t == "t" && i == "i" => timestamp(tv, iv),
            _ => None,
        },
        ("Timestamp", [t, i]) => timestamp(t, i),
        ("UUID", [V::String(hex)]) => hex_bytes(&hex.replace('-', ""))
            .filter(|b| b.len() == 16)
            .map(|bytes| V::Binary { subtype: 4, bytes }),
        ("MD5", [V::String(hex)]) => hex_bytes(hex).map(|bytes| V::Binary { subtype: 5, bytes }),
        ("Binary.createFromBase64", [V::String(b64)]) => binary(b64, 0),
        ("Binary.createFromBase64", [V::String(b64), subtype])
        | ("BinData", [subtype, V::String(b64)]) => integer(subtype)
            .and_then(|s| u8::try_from(s).ok())
            .and_then(|s| binary(b64, s)),
        ("MinKey", []) => Some(V::MinKey),
        ("MaxKey", []) => Some(V::MaxKey),
        _ => None,
    };
    known.unwrap_or(V::Call { name, args })
}

/// An exact integer from a bare number or a quoted one (`Long('5')`, `NumberLong(5)`).
fn integer(v: &PrintedValue) -> Option<i64> {
    match v {
        PrintedValue::String(s) => s.trim().parse().ok(),
        PrintedValue::Number(n) if n.fract() == 0.0 && n.abs() < 9_007_199_254_740_992.0 => {
            Some(*n as i64)
        }
        _ => None,
    }
}

fn timestamp(t: &PrintedValue, i: &PrintedValue) -> Option<PrintedValue> {
    let part = |v| integer(v).and_then(|n| u64::try_from(n).ok());
    Some(PrintedValue::Timestamp {
        t: part(t)?,
        i: part(i)?,
    })
}

fn hex_bytes(hex: &str) -> Option<Vec<u8>> {
    if !hex.len().is_multiple_of(2) {
        return None;
    }
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok())
        .collect()
}

fn binary(b64: &str, subtype: u8) -> Option<PrintedValue> {
    let bin = Binary::from_base64(b64, BinarySubtype::from(subtype)).ok()?;
    Some(PrintedValue::Binary {
        subtype,
        bytes: bin.bytes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::{Bson, Document};
    use shell::{PrintOptions, Style, printer};

    use PrintedValue as V;

    /// A document with every BSON type, from canonical Extended JSON.
    fn every_type() -> Document {
        let json = serde_json::json!({
            "_id": {"$oid": "6774858007C7F83EC9F8C337"},
            "int": {"$numberInt": "5"},
            "double": {"$numberDouble": "5.0"},
            "fraction": {"$numberDouble": "-0.5"},
            "big": {"$numberDouble": "1e+21"},
            "negZero": {"$numberDouble": "-0.0"},
            "nan": {"$numberDouble": "NaN"},
            "inf": {"$numberDouble": "-Infinity"},
            "long": {"$numberLong": "9007199254740993"},
            "smallLong": {"$numberLong": "10"},
            "dec": {"$numberDecimal": "1.50"},
            "s": "it's",
            "t": true,
            "n": null,
            "date": {"$date": {"$numberLong": "1735689600000"}},
            "ts": {"$timestamp": {"t": 1, "i": 2}},
            "uuid": {"$binary": {"base64": "ABEiM0RVZneImaq7zN3u/w==", "subType": "04"}},
            "bin": {"$binary": {"base64": "SGVsbG8=", "subType": "00"}},
            "re": {"$regularExpression": {"pattern": "^a/b[/]", "options": "i"}},
            "min": {"$minKey": 1},
            "max": {"$maxKey": 1},
            "first-name": "x",
            "arr": [1, "two", [3], {}],
        });
        match Bson::try_from(json) {
            Ok(Bson::Document(d)) => d,
            other => panic!("test document: {other:?}"),
        }
    }

    fn printed(v: &Bson, style: Style) -> String {
        printer::format_value(
            v,
            &PrintOptions {
                style,
                pretty: true,
            },
        )
    }

    fn field<'a>(v: &'a PrintedValue, name: &str) -> &'a PrintedValue {
        match v {
            V::Document(fields) => &fields.iter().find(|(k, _)| k == name).expect(name).1,
            other => panic!("not a document: {other:?}"),
        }
    }

    #[test]
    fn every_form_the_mongosh_printer_writes_reads_back() {
        let text = printed(&Bson::Document(every_type()), Style::Mongosh);
        let v = parse_value(&text).unwrap_or_else(|| panic!("does not parse:\n{text}"));
        let hex = "6774858007c7f83ec9f8c337";
        assert_eq!(field(&v, "_id"), &V::ObjectId(hex.into()));
        assert_eq!(field(&v, "int"), &V::Number(5.0));
        assert_eq!(field(&v, "double"), &V::Number(5.0));
        assert_eq!(field(&v, "fraction"), &V::Number(-0.5));
        assert_eq!(field(&v, "big"), &V::Number(1e21));
        assert!(matches!(field(&v, "negZero"), V::Number(z) if *z == 0.0 && z.is_sign_negative()));
        assert!(matches!(field(&v, "nan"), V::Number(n) if n.is_nan()));
        assert_eq!(field(&v, "inf"), &V::Number(f64::NEG_INFINITY));
        assert_eq!(field(&v, "long"), &V::Long(9_007_199_254_740_993));
        assert_eq!(field(&v, "dec"), &V::Decimal128("1.50".into()));
        assert_eq!(field(&v, "s"), &V::String("it's".into()));
        assert_eq!(field(&v, "t"), &V::Boolean(true));
        assert_eq!(field(&v, "n"), &V::Null);
        assert_eq!(field(&v, "date"), &V::Date("2025-01-01T00:00:00Z".into()));
        assert_eq!(field(&v, "ts"), &V::Timestamp { t: 1, i: 2 });
        let uuid: Vec<u8> = (0u8..16).map(|i| i * 17).collect();
        assert_eq!(
            field(&v, "uuid"),
            &V::Binary {
                subtype: 4,
                bytes: uuid
            }
        );
        assert_eq!(
            field(&v, "bin"),
            &V::Binary {
                subtype: 0,
                bytes: b"Hello".to_vec()
            }
        );
        assert_eq!(
            field(&v, "re"),
            &V::Regex {
                source: "^a/b[/]".into(),
                flags: "i".into()
            }
        );
        assert_eq!(field(&v, "min"), &V::MinKey);
        assert_eq!(field(&v, "max"), &V::MaxKey);
        assert_eq!(field(&v, "first-name"), &V::String("x".into()));
        assert_eq!(
            field(&v, "arr"),
            &V::Array(vec![
                V::Number(1.0),
                V::String("two".into()),
                V::Array(vec![V::Number(3.0)]),
                V::Document(vec![]),
            ])
        );
        // Field order is kept (mongosh's, where integer-like keys would come first).
        let V::Document(fields) = &v else {
            unreachable!()
        };
        let keys: Vec<&str> = fields.iter().map(|(k, _)| k.as_str()).collect();
        let source = every_type();
        let original: Vec<&str> = source.keys().map(String::as_str).collect();
        assert_eq!(keys, original);
    }

    #[test]
    fn classes_without_a_value_of_their_own_read_back_as_calls() {
        let json = serde_json::json!({
            "code": {"$code": "x = 1"},
            "ref": {"$ref": "c", "$id": 1, "$db": "shop"},
            "vector": {"$binary": {"base64": "AwAB/g==", "subType": "09"}},
            "md5": {"$binary": {"base64": "qwE=", "subType": "05"}},
            "bad": {"$date": {"$numberLong": "9223372036854775807"}},
            "quote": "say \"it's\"",
        });
        let doc = Bson::try_from(json).expect("document");
        let text = printed(&doc, Style::Mongosh);
        let v = parse_value(&text).unwrap_or_else(|| panic!("does not parse:\n{text}"));
        let call = |name: &str, args: Vec<PrintedValue>| V::Call {
            name: name.into(),
            args,
        };
        assert_eq!(
            field(&v, "code"),
            &call("Code", vec![V::String("x = 1".into())])
        );
        assert_eq!(
            field(&v, "ref"),
            &call(
                "DBRef",
                vec![
                    V::String("c".into()),
                    V::Number(1.0),
                    V::String("shop".into())
                ]
            )
        );
        assert_eq!(
            field(&v, "vector"),
            &call(
                "Binary.fromInt8Array",
                vec![call(
                    "Int8Array",
                    vec![V::Array(vec![V::Number(1.0), V::Number(-2.0)])]
                )]
            )
        );
        assert_eq!(
            field(&v, "md5"),
            &V::Binary {
                subtype: 5,
                bytes: vec![0xab, 1]
            }
        );
        assert_eq!(field(&v, "bad"), &V::Date("Invalid Date".into()));
        assert_eq!(field(&v, "quote"), &V::String("say \"it's\"".into()));
    }

    #[test]
    fn the_legacy_shell_spelling_means_the_same_values() {
        let mut d = every_type();
        // Values the two shells show differently on purpose: the legacy shell keeps no `-0` and
        // prints 1e21 in full; both still read back as numbers.
        for k in ["negZero", "big", "nan", "inf"] {
            d.remove(k);
        }
        let doc = Bson::Document(d);
        let mongosh = parse_value(&printed(&doc, Style::Mongosh));
        let legacy_text = printed(&doc, Style::Legacy);
        assert!(legacy_text.contains("NumberLong(10)"), "{legacy_text}");
        assert!(
            legacy_text.contains("\"_id\" : ObjectId(\""),
            "{legacy_text}"
        );
        let legacy = parse_value(&legacy_text);
        assert!(mongosh.is_some());
        assert_eq!(mongosh, legacy, "legacy text:\n{legacy_text}");
    }

    #[test]
    fn other_spellings_of_the_same_classes() {
        let same = [
            ("NumberLong('5')", V::Long(5)),
            ("NumberLong(\"-9223372036854775808\")", V::Long(i64::MIN)),
            ("NumberInt(7)", V::Int32(7)),
            ("Int32(7)", V::Int32(7)),
            ("Double(7)", V::Double(7.0)),
            ("NumberDecimal(\"0.10\")", V::Decimal128("0.10".into())),
            ("Timestamp(1, 2)", V::Timestamp { t: 1, i: 2 }),
            (
                "ISODate(\"2025-01-01T00:00:00Z\")",
                V::Date("2025-01-01T00:00:00Z".into()),
            ),
            (
                "ISODate('2025-01-01T00:00:00.000Z')",
                V::Date("2025-01-01T00:00:00Z".into()),
            ),
            ("Invalid Date", V::Date("Invalid Date".into())),
            (
                "MD5('ab01')",
                V::Binary {
                    subtype: 5,
                    bytes: vec![0xab, 1],
                },
            ),
            (
                "BinData(0,\"SGVsbG8=\")",
                V::Binary {
                    subtype: 0,
                    bytes: b"Hello".to_vec(),
                },
            ),
            ("MinKey", V::MinKey),
            ("{ $maxKey : 1 }", V::MaxKey),
            ("undefined", V::Undefined),
            (
                "/a+/gim",
                V::Regex {
                    source: "a+".into(),
                    flags: "gim".into(),
                },
            ),
        ];
        for (text, want) in same {
            assert_eq!(parse_value(text), Some(want), "{text}");
        }
        // Classes without a value of their own stay calls, `new` dropped.
        assert_eq!(
            parse_value("Binary.fromInt8Array(new Int8Array([ 1, -2 ]))"),
            Some(V::Call {
                name: "Binary.fromInt8Array".into(),
                args: vec![V::Call {
                    name: "Int8Array".into(),
                    args: vec![V::Array(vec![V::Number(1.0), V::Number(-2.0)])],
                }],
            })
        );
        assert_eq!(
            parse_value("DBRef('c', ObjectId('AB'))"),
            Some(V::Call {
                name: "DBRef".into(),
                args: vec![V::String("c".into()), V::ObjectId("ab".into())],
            })
        );
    }

    #[test]
    fn strings_in_every_quote_with_escapes() {
        let cases = [
            ("'it\\'s'", "it's"),
            ("\"it's\"", "it's"),
            ("`it's \"x\"`", "it's \"x\""),
            ("'a\\tb\\nc\\x1B\\\\'", "a\tb\nc\u{1b}\\"),
            ("'\\u00e9\\u{1F600}\\ud83d\\ude00'", "é😀😀"),
            ("'产品'", "产品"),
        ];
        for (text, want) in cases {
            assert_eq!(parse_value(text), Some(V::String(want.into())), "{text}");
        }
        // A pair cut in half by the printer keeps the escape it printed.
        assert_eq!(
            parse_value("'a\\ud83d'... 2001 more characters"),
            Some(V::TruncatedString {
                kept: "a\\ud83d".into(),
                more: 2001
            })
        );
    }

    #[test]
    fn wrapping_and_alignment_are_not_part_of_a_value() {
        // mongosh wraps at 80 columns, sets long number arrays in aligned columns and splits
        // long strings at their line breaks into `'…\n' +` pieces.
        let long = format!("{}\n{}", "a".repeat(50), "b".repeat(50));
        let json = serde_json::json!({
            "numbers": (1..=30).collect::<Vec<i32>>(),
            "text": long,
            "nested": {"a": {"b": {"c": [{"d": 1, "e": "x".repeat(70)}]}}},
        });
        let doc = Bson::try_from(json).expect("document");
        let text = printed(&doc, Style::Mongosh);
        assert!(text.contains("' +\n"), "{text}");
        assert!(text.lines().count() > 10, "{text}");
        let wrapped = parse_value(&text).unwrap_or_else(|| panic!("does not parse:\n{text}"));
        assert_eq!(
            field(&wrapped, "text"),
            &V::String(long),
            "the pieces are joined"
        );
        let V::Array(numbers) = field(&wrapped, "numbers") else {
            panic!("numbers")
        };
        assert_eq!(numbers.len(), 30);
        let one_line = wrapped.to_string();
        assert!(!one_line.contains('\n'));
        assert_eq!(parse_value(&one_line), Some(wrapped));
    }

    #[test]
    fn placeholders_for_what_the_printer_leaves_out() {
        let v =
            parse_value("{ a: { b: [Object], c: [Array] }, list: [ 1, 2, ... 98 more items ] }");
        assert_eq!(
            v,
            Some(V::Document(vec![
                (
                    "a".into(),
                    V::Document(vec![
                        ("b".into(), V::Elided("[Object]".into())),
                        ("c".into(), V::Elided("[Array]".into())),
                    ])
                ),
                (
                    "list".into(),
                    V::Array(vec![
                        V::Number(1.0),
                        V::Number(2.0),
                        V::Elided("... 98 more items".into())
                    ])
                ),
            ]))
        );
        // The printer's own depth limit and array limit read back the same way.
        let deep = Bson::try_from(serde_json::json!({"a": {"b": {"c": {"d": {"e": {"f": {"g": {"h": 1}}}}}}}, "l": (0..150).collect::<Vec<i32>>()}))
            .expect("document");
        let text = printed(&deep, Style::Mongosh);
        let v = parse_value(&text).unwrap_or_else(|| panic!("does not parse:\n{text}"));
        assert!(v.to_string().contains("g: [Object]"), "{v}");
        assert!(v.to_string().contains("... 50 more items"), "{v}");
    }

    #[test]
    fn quoted_and_bracketed_keys() {
        assert_eq!(
            parse_value("{ 'a-b': 1, \"c\" : 2, ['__proto__']: 3, $d: 4, 产品: 5 }"),
            Some(V::Document(vec![
                ("a-b".into(), V::Number(1.0)),
                ("c".into(), V::Number(2.0)),
                ("__proto__".into(), V::Number(3.0)),
                ("$d".into(), V::Number(4.0)),
                ("产品".into(), V::Number(5.0)),
            ]))
        );
    }

    #[test]
    fn an_output_is_values_errors_and_text_lines() {
        let out = "switched to db shop\n\
                   hello   from  print\n\
                   3 apples\n\
                   42\n\
                   [\n  { _id: 1, name: 'Product 1' },\n  { _id: 2, name: 'Product 2' }\n]\n\
                   Type \"it\" for more\n\
                   MongoServerError[DuplicateKey]: E11000 duplicate key error dup key: { _id: 1 }\n\
                   TypeError: x is not a function\n\
                   Uncaught: boom\n\
                   { unclosed: 1\n\
                   price_1";
        let doc = |id: f64, name: &str| {
            V::Document(vec![
                ("_id".into(), V::Number(id)),
                ("name".into(), V::String(name.into())),
            ])
        };
        let error = |name: &str, code: Option<&str>, message: &str| OutputItem::Error {
            name: name.into(),
            code: code.map(str::to_string),
            message: message.into(),
        };
        assert_eq!(
            parse_output(out),
            vec![
                OutputItem::Text("switched to db shop".into()),
                OutputItem::Text("hello from print".into()),
                OutputItem::Text("3 apples".into()),
                OutputItem::Value(V::Number(42.0)),
                OutputItem::Value(V::Array(vec![doc(1.0, "Product 1"), doc(2.0, "Product 2")])),
                OutputItem::Text("Type \"it\" for more".into()),
                error(
                    "MongoServerError",
                    Some("DuplicateKey"),
                    "E11000 duplicate key error dup key: { _id: 1 }"
                ),
                error("TypeError", None, "x is not a function"),
                error("Uncaught", None, "boom"),
                OutputItem::Text("{ unclosed: 1".into()),
                OutputItem::Text("price_1".into()),
            ]
        );
        assert_eq!(parse_output(" \n\n"), vec![]);
    }

    #[test]
    fn any_text_reads_without_panicking() {
        let text = printed(&Bson::Document(every_type()), Style::Mongosh)
            + "\nMongoServerError[X]: y\n'a\\ud83d' + 'b'... 3 more characters /x\\/[/]/g";
        for (i, _) in text.char_indices() {
            let _ = parse_output(&text[..i]);
            let _ = parse_output(&text[i..]);
        }
        let deep = "[".repeat(5000) + &"]".repeat(5000);
        assert_eq!(parse_output(&deep).len(), 1, "too deep: one text line");
    }
}
