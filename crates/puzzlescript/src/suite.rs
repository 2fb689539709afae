//! The reference regression suite: reading `testdata.js` (or the same cases as JSON) and running
//! one case exactly as `runTest` does.
//!
//! `testdata.js` or JSON cases, one case run as `runTest` runs it

use super::Input;
use super::session::{Session, TestInput};

/// A JS / JSON literal value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// `null` / `undefined`.
    Null,
    /// `true` / `false`.
    Bool(bool),
    /// A number (kept as written).
    Number(String),
    /// A string.
    Str(String),
    /// An array.
    Array(Vec<Value>),
}

/// One play-session case: `[name, [source, inputs, expected, level?, seed?, sounds?]]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Case {
    /// The case's name.
    pub name: String,
    /// The game source.
    pub source: String,
    /// The inputs.
    pub inputs: Vec<TestInput>,
    /// The expected final board (`convertLevelToString`).
    pub expected: String,
    /// The level to load.
    pub level: usize,
    /// The random seed, if any.
    pub seed: Option<String>,
    /// The expected sounds, if recorded.
    pub sounds: Option<Vec<String>>,
}

/// The result of one case.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CaseResult {
    /// Board and sounds as expected.
    pub passed: bool,
    /// When not: what differs first (a line of the board, the sounds, or why it did not run).
    pub first_difference: Option<String>,
    /// The board produced.
    pub actual: String,
    /// The most work ([`super::Work`]) one step of the case did: the level's start, or an input
    /// with its `again` turns (0 when the case did not start).
    pub heaviest_step: u64,
    /// The work of the whole case.
    pub work: u64,
}

struct Reader<'a> {
    s: &'a [u8],
    text: &'a str,
    pos: usize,
}

impl<'a> Reader<'a> {
    fn skip_ws(&mut self) {
        loop {
            while self.pos < self.s.len() && (self.s[self.pos] as char).is_ascii_whitespace() {
                self.pos += 1;
            }
            if self.text[self.pos..].starts_with("//") {
                while self.pos < self.s.len() && self.s[self.pos] != b'\n' {
                    self.pos += 1;
                }
            } else if self.text[self.pos..].starts_with("/*") {
                match self.text[self.pos + 2..].find("*/") {
                    Some(e) => self.pos += e + 4,
                    None => self.pos = self.s.len(),
                }
            } else {
                break;
            }
        }
    }

    fn value(&mut self, depth: usize) -> Result<Value, String> {
        if depth > 64 {
            return Err("nesting too deep".into());
        }
        self.skip_ws();
        let Some(&c) = self.s.get(self.pos) else {
            return Err("unexpected end".into());
        };
        match c {
            b'[' => {
                self.pos += 1;
                let mut items = Vec::new();
                loop {
                    self.skip_ws();
                    match self.s.get(self.pos) {
                        Some(b']') => {
                            self.pos += 1;
                            return Ok(Value::Array(items));
                        }
                        Some(b',') => {
                            self.pos += 1;
                        }
                        Some(_) => items.push(self.value(depth + 1)?),
                        None => return Err("unterminated array".into()),
                    }
                }
            }
            b'"' | b'\'' | b'`' => self.string(c),
            _ => {
                let start = self.pos;
                while self.pos < self.s.len() {
                    let ch = self.s[self.pos];
                    if ch.is_ascii_alphanumeric() || ch == b'.' || ch == b'-' || ch == b'+' || ch == b'_' {
                        self.pos += 1;
                    } else {
                        break;
                    }
                }
                let word = &self.text[start..self.pos];
                match word {
                    "" => Err(format!("unexpected character at byte {start}")),
                    "null" | "undefined" => Ok(Value::Null),
                    "true" => Ok(Value::Bool(true)),
                    "false" => Ok(Value::Bool(false)),
                    _ => Ok(Value::Number(word.to_string())),
                }
            }
        }
    }

    fn string(&mut self, quote: u8) -> Result<Value, String> {
        self.pos += 1;
        let mut out = String::new();
        let mut units: Vec<u16> = Vec::new();
        let flush = |units: &mut Vec<u16>, out: &mut String| {
            if !units.is_empty() {
                out.push_str(&String::from_utf16_lossy(units));
                units.clear();
            }
        };
        loop {
            let rest = &self.text[self.pos..];
            let Some(ch) = rest.chars().next() else {
                return Err("unterminated string".into());
            };
            if ch as u32 == quote as u32 {
                self.pos += 1;
                flush(&mut units, &mut out);
                return Ok(Value::Str(out));
            }
            if ch == '\\' {
                let Some(e) = rest[1..].chars().next() else {
                    return Err("bad escape".into());
                };
                self.pos += 1 + e.len_utf8();
                match e {
                    'n' => units.push(10),
                    't' => units.push(9),
                    'r' => units.push(13),
                    'b' => units.push(8),
                    'f' => units.push(12),
                    'v' => units.push(11),
                    '0' => units.push(0),
                    'u' => {
                        let hex = self.text.get(self.pos..self.pos + 4).ok_or("bad \\u")?;
                        let v = u16::from_str_radix(hex, 16).map_err(|_| "bad \\u")?;
                        units.push(v);
                        self.pos += 4;
                    }
                    'x' => {
                        let hex = self.text.get(self.pos..self.pos + 2).ok_or("bad \\x")?;
                        let v = u16::from_str_radix(hex, 16).map_err(|_| "bad \\x")?;
                        units.push(v);
                        self.pos += 2;
                    }
                    '\n' => {}
                    other => {
                        let mut b = [0u16; 2];
                        units.extend_from_slice(other.encode_utf16(&mut b));
                    }
                }
                continue;
            }
            // a run of plain characters is copied whole (escapes go through UTF-16 units, so
            // that a surrogate pair written as two `\u` escapes makes one character)
            let run = rest
                .bytes()
                .position(|b| b == quote || b == b'\\')
                .ok_or_else(|| "unterminated string".to_string())?;
            flush(&mut units, &mut out);
            out.push_str(&rest[..run]);
            self.pos += run;
        }
    }
}

fn as_str(v: &Value) -> Option<String> {
    match v {
        Value::Str(s) => Some(s.clone()),
        Value::Number(n) => Some(n.clone()),
        _ => None,
    }
}

/// Reads the suite: the JS file (`var testdata = [...]`) or a JSON array of the same cases.
pub fn parse_testdata(text: &str) -> Result<Vec<Case>, String> {
    let start = text.find('[').ok_or("no array found")?;
    let mut r = Reader { s: text.as_bytes(), text, pos: start };
    let Value::Array(items) = r.value(0)? else {
        return Err("not an array".into());
    };
    let mut cases = Vec::new();
    for (k, item) in items.iter().enumerate() {
        let Value::Array(pair) = item else {
            return Err(format!("case {k}: not an array"));
        };
        let name = pair.first().and_then(as_str).unwrap_or_default();
        let Some(Value::Array(d)) = pair.get(1) else {
            return Err(format!("case {k} ({name}): no data array"));
        };
        let source = d.first().and_then(as_str).ok_or(format!("case {name}: no source"))?;
        let mut inputs = Vec::new();
        if let Some(Value::Array(ins)) = d.get(1) {
            for i in ins {
                let ti = match i {
                    Value::Number(n) => match n.as_str() {
                        "0" => TestInput::Input(Input::Up),
                        "1" => TestInput::Input(Input::Left),
                        "2" => TestInput::Input(Input::Down),
                        "3" => TestInput::Input(Input::Right),
                        "4" => TestInput::Input(Input::Action),
                        other => return Err(format!("case {name}: unknown input {other}")),
                    },
                    Value::Str(s) => match s.as_str() {
                        "undo" => TestInput::Undo,
                        "restart" => TestInput::Restart,
                        "tick" => TestInput::Tick,
                        other => return Err(format!("case {name}: unknown input {other}")),
                    },
                    _ => return Err(format!("case {name}: bad input")),
                };
                inputs.push(ti);
            }
        }
        let expected = d.get(2).and_then(as_str).unwrap_or_default();
        let level = d.get(3).and_then(as_str).and_then(|s| s.parse::<usize>().ok()).unwrap_or(0);
        let seed = d.get(4).and_then(as_str);
        let sounds = match d.get(5) {
            Some(Value::Array(a)) => Some(a.iter().filter_map(as_str).collect()),
            _ => None,
        };
        cases.push(Case { name, source, inputs, expected, level, seed, sounds });
    }
    Ok(cases)
}

fn first_line_difference(actual: &str, expected: &str) -> String {
    let a: Vec<&str> = actual.lines().collect();
    let e: Vec<&str> = expected.lines().collect();
    for i in 0..a.len().max(e.len()) {
        let x = a.get(i).copied().unwrap_or("<none>");
        let y = e.get(i).copied().unwrap_or("<none>");
        if x != y {
            return format!("line {}: got {:?}, expected {:?}", i + 1, x, y);
        }
    }
    "boards differ".to_string()
}

/// The most work one case does over all its inputs by default (issue 37.4; see
/// [`super::Work`]): two steps at the default step bound ([`crate::MAX_STEP_WORK`]), 16 times
/// the heaviest real case found (*A Plaid Puzzle*'s, 249 million; the reference suite's
/// heaviest does 31 million). A process whose step bound was set ([`crate::set_step_work`])
/// holds its cases to two of its steps ([`case_work`]).
pub const MAX_CASE_WORK: u64 = 2 * crate::MAX_STEP_WORK;

/// The case bound of this process: two steps at its step bound ([`crate::step_work`]).
pub fn case_work() -> u64 {
    crate::step_work().saturating_mul(2)
}

/// Runs one case as `runTest` does, within the step bound ([`crate::step_work`]) and the case
/// bound ([`case_work`]) (a case past either fails, saying which). A game that does not compile
/// fails saying its errors in words ([`crate::describe_errors`]).
pub fn run_case(case: &Case) -> CaseResult {
    let (step_bound, case_bound) = (crate::step_work(), case_work());
    let (game, diags) = super::compile_lenient(&case.source);
    let errors = diags.iter().filter(|d| d.is_error).count();
    let Some(game) = game.filter(|_| errors <= 5) else {
        // (the reference's `runTest` fails a case of more than five errors)
        return CaseResult {
            passed: false,
            first_difference: Some(crate::describe_errors(&diags)),
            actual: String::new(),
            ..CaseResult::default()
        };
    };
    let mut session = match Session::new(&game, case.level, case.seed.as_deref()) {
        Ok(s) => s,
        Err(e) => {
            return CaseResult {
                passed: false,
                first_difference: Some(format!("did not start: {e}")),
                actual: String::new(),
                ..CaseResult::default()
            };
        }
    };
    let too_long = |what: String, heaviest_step: u64, work: u64| CaseResult {
        passed: false,
        first_difference: Some(what),
        heaviest_step,
        work,
        ..CaseResult::default()
    };
    let mut heaviest_step = session.total_work();
    if session.too_long {
        return too_long(
            format!(
                "the level's start is too long: more than {step_bound} units of work (cells tested by rules)"
            ),
            heaviest_step,
            session.total_work(),
        );
    }
    for (k, &i) in case.inputs.iter().enumerate() {
        let before = session.total_work();
        session.input(i);
        heaviest_step = heaviest_step.max(session.total_work() - before);
        if session.too_long {
            return too_long(
                format!(
                    "step too long: input {} of {} did more than {step_bound} units of work (cells tested by rules)",
                    k + 1,
                    case.inputs.len(),
                ),
                heaviest_step,
                session.total_work(),
            );
        }
        if session.total_work() > case_bound {
            return too_long(
                format!(
                    "case too long: more than {case_bound} units of work (cells tested by rules) by input {} of {}",
                    k + 1,
                    case.inputs.len()
                ),
                heaviest_step,
                session.total_work(),
            );
        }
    }
    let actual = session.level_string();
    if actual != case.expected {
        return CaseResult {
            passed: false,
            first_difference: Some(first_line_difference(&actual, &case.expected)),
            actual,
            heaviest_step,
            work: session.total_work(),
        };
    }
    if let Some(expected) = &case.sounds {
        let got = session.sounds().join(";");
        let want = expected.join(";");
        if got != want {
            return CaseResult {
                passed: false,
                first_difference: Some(format!("sounds: got [{got}], expected [{want}]")),
                actual,
                heaviest_step,
                work: session.total_work(),
            };
        }
    }
    CaseResult { passed: true, first_difference: None, actual, heaviest_step, work: session.total_work() }
}

/// One compiler case: `[name, [source, messages, errorCount]]`.
#[derive(Clone, Debug, PartialEq)]
pub struct CompileCase {
    /// The case's name.
    pub name: String,
    /// The game source.
    pub source: String,
    /// The messages the reference prints (errors and warnings).
    pub messages: Vec<String>,
    /// How many of them are errors.
    pub error_count: usize,
}

/// Reads the compiler suite (`errormessage_testdata.js`, or the same cases as JSON).
pub fn parse_error_testdata(text: &str) -> Result<Vec<CompileCase>, String> {
    let start = text.find('[').ok_or("no array found")?;
    let mut r = Reader { s: text.as_bytes(), text, pos: start };
    let Value::Array(items) = r.value(0)? else {
        return Err("not an array".into());
    };
    let mut cases = Vec::new();
    for (k, item) in items.iter().enumerate() {
        let Value::Array(pair) = item else {
            return Err(format!("case {k}: not an array"));
        };
        let name = pair.first().and_then(as_str).unwrap_or_default();
        let Some(Value::Array(d)) = pair.get(1) else {
            return Err(format!("case {k} ({name}): no data array"));
        };
        let source = d.first().and_then(as_str).ok_or(format!("case {name}: no source"))?;
        let messages = match d.get(1) {
            Some(Value::Array(a)) => a.iter().filter_map(as_str).collect(),
            _ => Vec::new(),
        };
        let error_count = d.get(2).and_then(as_str).and_then(|s| s.parse::<usize>().ok()).unwrap_or(0);
        cases.push(CompileCase { name, source, messages, error_count });
    }
    Ok(cases)
}

/// Whether [`super::compile`] refuses the game exactly when the reference counts errors.
/// `Err`: a description of the disagreement.
pub fn run_compile_case(case: &CompileCase) -> Result<(), String> {
    match super::compile(&case.source) {
        Ok(_) if case.error_count == 0 => Ok(()),
        Ok(_) => Err(format!(
            "accepted, but the reference counts {} error(s){}",
            case.error_count,
            case.messages.first().map_or(String::new(), |m| format!(", first: {m}"))
        )),
        Err(diags) if case.error_count > 0 => {
            if diags.iter().any(|d| d.is_error) {
                Ok(())
            } else {
                Err("refused without an error".to_string())
            }
        }
        Err(diags) => {
            Err(format!("refused, but the reference has no error: {}", super::describe_errors(&diags)))
        }
    }
}
