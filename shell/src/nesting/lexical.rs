//! A token-level measure of how deeply a script nests, taken before Boa parses it.
//!
//! Boa builds left-leaning chains (`1+1+…`, `a.b.c…`, `f()()…`, `(1,1,…)`) with loops, so
//! parsing them costs no stack, but the tree they make is as deep as the chain is long, and
//! every walk over it (scope analysis, the early-error checks, the bytecode compiler, and the
//! destructor when a later token is a syntax error) recurses once per level. Those walks happen
//! inside Boa where no guard can reach, so the chain must be refused before parsing starts.
//!
//! The measure is conservative: within one bracket level it counts every operator token (and
//! every operator keyword such as `typeof`, `new`, `if`, `else`, `do`) since the expression or
//! statement began, and adds the counts of all enclosing levels. An expression or statement
//! ends at `;`, at a comma that separates list items (array and object literals, arguments and
//! parameters, blocks), and at a line break where automatic semicolon insertion would end it.
//! The tokenizer knows strings, template literals (`${…}` nests), comments and regular
//! expression literals, so brackets inside them neither hide nor add nesting.

/// How one bracket level began; decides what its commas and closing brace mean.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Level {
    /// `(` that holds one expression: commas there are the comma operator (a chain).
    Group,
    /// `(` of a call or a parameter list, `[`, an object literal: commas separate items.
    List,
    /// `{` of a block or function body: statements.
    Block,
    /// `${` in a template literal: one expression, then the template goes on.
    Substitution,
}

struct Frame {
    level: Level,
    /// Operators since the current expression or statement began at this level.
    count: usize,
}

/// The previous significant token, as far as the measure needs to know it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Prev {
    /// Start of input, or a token after which an expression starts (an operator, `(`, `;`…).
    ExpectOperand,
    /// An identifier, literal or closing bracket: an expression may end here.
    Operand,
    /// A keyword that continues into the next line (`else`, `return`, `typeof`…).
    Keyword,
}

/// Words that keep an expression or statement going: `/` after them starts a regex, and a line
/// break after them does not end the statement.
const OPERATOR_WORDS: &[&str] = &[
    "typeof",
    "void",
    "delete",
    "new",
    "await",
    "yield",
    "in",
    "instanceof",
    "of",
    "return",
    "throw",
    "case",
    "do",
    "else",
    "if",
    "while",
    "for",
    "with",
    "extends",
];

/// The deepest nesting in `src`: the sum over open bracket levels of one for the level plus its
/// operators since its expression began. Scanning stops once the measure passes `limit`.
pub(crate) fn depth(src: &str, limit: usize) -> usize {
    let chars: Vec<char> = src.chars().collect();
    let mut scan = Scanner {
        chars: &chars,
        pos: 0,
        frames: vec![Frame {
            level: Level::Block,
            count: 0,
        }],
        prev: Prev::ExpectOperand,
        max: 0,
        newline: false,
        last: String::new(),
    };
    scan.run(limit);
    scan.max
}

struct Scanner<'a> {
    chars: &'a [char],
    pos: usize,
    frames: Vec<Frame>,
    prev: Prev,
    max: usize,
    /// A line break since the previous token.
    newline: bool,
    /// The previous token's text if it was a punctuator or an operator keyword, `word` after
    /// another word, empty at the start or after a literal.
    last: String,
}

impl Scanner<'_> {
    fn peek(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.pos + ahead).copied()
    }

    fn total(&self) -> usize {
        self.frames.iter().map(|f| f.count + 1).sum::<usize>() - 1
    }

    fn bump(&mut self) {
        if let Some(top) = self.frames.last_mut() {
            top.count += 1;
        }
        self.max = self.max.max(self.total());
    }

    fn reset(&mut self) {
        if let Some(top) = self.frames.last_mut() {
            top.count = 0;
        }
    }

    fn top_level(&self) -> Level {
        self.frames.last().map_or(Level::Block, |f| f.level)
    }

    fn open(&mut self, level: Level) {
        self.frames.push(Frame { level, count: 0 });
        self.max = self.max.max(self.total());
        self.prev = Prev::ExpectOperand;
    }

    /// Closes a level; the bracket pair is one more node of the enclosing expression.
    fn close(&mut self) {
        if self.frames.len() > 1 {
            self.frames.pop();
        }
        self.bump();
        self.prev = Prev::Operand;
    }

    /// Called before each token: a line break between an operand and a token that cannot
    /// continue the expression ends the statement, as automatic semicolon insertion does.
    fn line_break_before(&mut self, continues: bool) {
        if self.newline && self.prev == Prev::Operand && !continues {
            self.reset();
        }
        self.newline = false;
    }

    fn run(&mut self, limit: usize) {
        while let Some(c) = self.peek(0) {
            if self.max > limit {
                return;
            }
            match c {
                '\n' | '\r' | '\u{2028}' | '\u{2029}' => {
                    self.newline = true;
                    self.pos += 1;
                }
                c if c.is_whitespace() || c == '\u{feff}' => self.pos += 1,
                '/' if self.peek(1) == Some('/') => self.line_comment(),
                '/' if self.peek(1) == Some('*') => self.block_comment(),
                '\'' | '"' => {
                    self.line_break_before(false);
                    self.string(c);
                    self.prev = Prev::Operand;
                    self.last.clear();
                }
                '`' => {
                    // A template after an operand is a tagged template: one more call node.
                    self.line_break_before(true);
                    if self.prev == Prev::Operand {
                        self.bump();
                    }
                    self.pos += 1;
                    self.template();
                }
                '/' if self.prev != Prev::Operand => {
                    self.line_break_before(false);
                    self.regex();
                    self.prev = Prev::Operand;
                    self.last.clear();
                }
                c if c.is_ascii_digit()
                    || (c == '.' && self.peek(1).is_some_and(|d| d.is_ascii_digit())) =>
                {
                    self.line_break_before(false);
                    self.number();
                    self.prev = Prev::Operand;
                    self.last.clear();
                }
                c if is_word_char(c) => {
                    let word = self.word();
                    if OPERATOR_WORDS.contains(&word.as_str()) {
                        let continues =
                            matches!(word.as_str(), "in" | "instanceof" | "of" | "else");
                        self.line_break_before(continues);
                        self.bump();
                        self.prev = Prev::Keyword;
                        self.last = word;
                    } else {
                        self.line_break_before(false);
                        self.prev = Prev::Operand;
                        self.last = "word".to_string();
                    }
                }
                _ => self.punctuator(c),
            }
        }
    }

    fn punctuator(&mut self, c: char) {
        match c {
            '(' | '[' | '{' => {
                let level = match c {
                    '(' if self.prev == Prev::Operand => Level::List,
                    '(' => Level::Group,
                    '[' => Level::List,
                    _ if self.brace_opens_block() => Level::Block,
                    _ => Level::List,
                };
                // A `(` or `[` after an operand continues the expression (a call or an index).
                self.line_break_before(c != '{');
                self.pos += 1;
                self.last = c.to_string();
                self.open(level);
            }
            ')' | ']' => {
                self.newline = false;
                self.pos += 1;
                self.last = c.to_string();
                self.close();
            }
            '}' => {
                self.newline = false;
                self.pos += 1;
                self.last = "}".to_string();
                if self.top_level() == Level::Substitution {
                    self.frames.pop();
                    self.template();
                } else {
                    let block = self.top_level() == Level::Block;
                    self.close();
                    if block {
                        // After a block a new statement begins (`/` starts a regex there).
                        self.prev = Prev::ExpectOperand;
                        self.reset();
                    }
                }
            }
            ';' => {
                self.newline = false;
                self.pos += 1;
                self.last = ";".to_string();
                self.reset();
                self.prev = Prev::ExpectOperand;
            }
            ',' => {
                self.newline = false;
                self.pos += 1;
                self.last = ",".to_string();
                match self.top_level() {
                    Level::List => self.reset(),
                    _ => self.bump(),
                }
                self.prev = Prev::ExpectOperand;
            }
            _ => {
                // Any other operator: one token of a maximal munch (`>>>=`, `?.`, `=>`, `...`).
                let len = operator_len(&self.chars[self.pos..]);
                let text: String = self.chars[self.pos..self.pos + len].iter().collect();
                let postfix = matches!(text.as_str(), "++" | "--")
                    && self.prev == Prev::Operand
                    && !self.newline;
                // `++`/`--` on a new line start a new statement (a restricted production).
                let continues = !matches!(text.as_str(), "++" | "--" | "!" | "~");
                self.line_break_before(continues);
                self.pos += len;
                self.bump();
                self.last = text;
                self.prev = if postfix {
                    Prev::Operand
                } else {
                    Prev::ExpectOperand
                };
            }
        }
    }

    /// Whether a `{` here opens a block (a statement, a function or class body) rather than
    /// an object literal, judged by the token before it.
    fn brace_opens_block(&self) -> bool {
        match self.last.as_str() {
            "" | ";" | "}" | ")" | "=>" | "else" | "do" | "try" | "finally" => true,
            "{" => self.top_level() == Level::Block,
            "word" => true,
            _ => false,
        }
    }

    fn word(&mut self) -> String {
        let start = self.pos;
        while self.peek(0).is_some_and(is_word_char) {
            self.pos += 1;
        }
        self.chars[start..self.pos].iter().collect()
    }

    fn number(&mut self) {
        while let Some(c) = self.peek(0) {
            let exponent_sign = (c == '+' || c == '-')
                && self.pos > 0
                && matches!(self.chars[self.pos - 1], 'e' | 'E')
                && !self.chars[..self.pos]
                    .iter()
                    .any(|c| matches!(c, 'x' | 'X'));
            if c.is_ascii_alphanumeric() || c == '.' || c == '_' || exponent_sign {
                self.pos += 1;
            } else {
                break;
            }
        }
    }

    fn string(&mut self, quote: char) {
        self.pos += 1;
        while let Some(c) = self.peek(0) {
            self.pos += 1;
            match c {
                '\\' => self.pos += 1,
                '\n' | '\r' => return,
                c if c == quote => return,
                _ => {}
            }
        }
    }

    /// Scans template characters after `` ` `` or after the `}` of a substitution.
    fn template(&mut self) {
        while let Some(c) = self.peek(0) {
            self.pos += 1;
            match c {
                '\\' => self.pos += 1,
                '`' => {
                    self.prev = Prev::Operand;
                    return;
                }
                '$' if self.peek(0) == Some('{') => {
                    self.pos += 1;
                    self.open(Level::Substitution);
                    return;
                }
                _ => {}
            }
        }
    }

    fn regex(&mut self) {
        self.pos += 1;
        let mut class = false;
        while let Some(c) = self.peek(0) {
            match c {
                '\n' | '\r' => return,
                '\\' => self.pos += 1,
                '[' => class = true,
                ']' => class = false,
                '/' if !class => {
                    self.pos += 1;
                    while self.peek(0).is_some_and(is_word_char) {
                        self.pos += 1;
                    }
                    return;
                }
                _ => {}
            }
            self.pos += 1;
        }
    }

    fn line_comment(&mut self) {
        while let Some(c) = self.peek(0) {
            if matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}') {
                return;
            }
            self.pos += 1;
        }
    }

    fn block_comment(&mut self) {
        self.pos += 2;
        while let Some(c) = self.peek(0) {
            if matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}') {
                self.newline = true;
            }
            if c == '*' && self.peek(1) == Some('/') {
                self.pos += 2;
                return;
            }
            self.pos += 1;
        }
    }
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric()
        || c == '_'
        || c == '$'
        || c == '\\'
        || (!c.is_ascii() && !c.is_whitespace())
}

/// The length of the operator at the start of `rest` (longest match first).
fn operator_len(rest: &[char]) -> usize {
    const OPERATORS: &[&str] = &[
        ">>>=", "...", "===", "!==", "**=", "<<=", ">>=", ">>>", "&&=", "||=", "??=", "=>", "==",
        "!=", "<=", ">=", "&&", "||", "??", "?.", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=",
        "|=", "^=", "<<", ">>", "**",
    ];
    for op in OPERATORS {
        let n = op.chars().count();
        if rest.len() >= n && rest[..n].iter().copied().eq(op.chars()) {
            // `?.` followed by a digit is `?` then a number (`a?.5:1`).
            if *op == "?." && rest.get(2).is_some_and(char::is_ascii_digit) {
                continue;
            }
            return n;
        }
    }
    1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(src: &str) -> usize {
        depth(src, usize::MAX)
    }

    #[test]
    fn ordinary_code_is_shallow() {
        assert!(d("db.c.find({a: {b: [1]}}).sort({a: 1}).limit(2)") < 20);
        let many_lines = "db.c.insertOne({a: 1, b: 'x'})\n".repeat(5000);
        assert!(d(&many_lines) < 20);
        let big_literal = format!("[{}]", "{a: 1, b: [1, 2]},".repeat(10_000));
        assert!(d(&big_literal) < 20);
        let statements = "if (x) { y = 1 } else { y = 2 }\n".repeat(1000);
        assert!(d(&statements) < 20);
    }

    #[test]
    fn chains_and_prefix_runs_count() {
        assert!(d(&format!("1{}", "+1".repeat(5000))) >= 5000);
        assert!(d(&format!("x = ({})", vec!["1"; 3000].join(","))) >= 2999);
        assert!(d(&format!("{}1", "!".repeat(3000))) >= 3000);
        assert!(d(&format!("{}1", "typeof ".repeat(3000))) >= 3000);
        assert!(d(&format!("{}1", "a=>".repeat(3000))) >= 3000);
        assert!(d(&format!("{}1", "if(1)".repeat(3000))) >= 3000);
        assert!(d(&format!("a{}", ".b".repeat(3000))) >= 3000);
        assert!(d(&format!("f{}", "()".repeat(3000))) >= 3000);
        // A chain spread over lines stays one chain.
        assert!(d(&format!("1{}", "\n+1".repeat(3000))) >= 3000);
    }

    #[test]
    fn brackets_hidden_in_literals_are_seen_or_skipped_correctly() {
        assert!(d(&format!("`${{{}", "(".repeat(3000))) >= 3000);
        assert!(d(&format!("/\"/; {}", "(".repeat(3000))) >= 3000);
        assert!(d("'((((((' + \"[[[[\" // ((((\n/* (((( */ x") < 5);
        assert!(d("x = /[/(]+/g; y = `(${ 'a' })`") < 5);
    }
}
