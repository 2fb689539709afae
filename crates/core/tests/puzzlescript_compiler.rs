//! PuzzleScript's 300 compiler cases (`errormessage_testdata.js`): every game the reference
//! refuses (`errorCount > 0`) is refused, every game it accepts compiles, and the number of
//! errors is the reference's; each error names its source line. Message wording is tessera's.
//! Skips (passing, with a note) when `../shared` is absent.

use tessera_core::puzzlescript::engine::{self, suite};

fn cases() -> Option<Vec<suite::CompileCase>> {
    let path = super::puzzlescript::shared().join("reference/tests/resources/errormessage_testdata.js");
    let text = std::fs::read_to_string(path).ok()?;
    Some(suite::parse_error_testdata(&text).expect("the compiler suite parses"))
}

#[test]
fn the_compiler_refuses_what_the_reference_refuses_with_as_many_errors() {
    let Some(cases) = cases() else {
        eprintln!("note: ../shared is absent: the compiler cases are skipped");
        return;
    };
    assert_eq!(cases.len(), 300);
    let mut split = 0;
    let mut counted = 0;
    let mut misses = Vec::new();
    for c in &cases {
        let (game, diagnostics) = engine::compile_lenient(&c.source);
        let errors: Vec<&engine::Diagnostic> = diagnostics.iter().filter(|d| d.is_error).collect();
        let refused = engine::compile(&c.source).is_err();
        let same_split = refused == (c.error_count > 0);
        split += usize::from(same_split);
        counted += usize::from(errors.len() == c.error_count);
        if !same_split || errors.len() != c.error_count {
            // The reference's messages (errors and warnings) next to ours, to see where they part.
            let mut m = format!(
                "{}: reference {} error(s), tessera {} ({})",
                c.name,
                c.error_count,
                errors.len(),
                if refused { "refused" } else { "accepted" },
            );
            for r in &c.messages {
                m.push_str(&format!("\n    ref: {r}"));
            }
            for d in &diagnostics {
                let kind = if d.is_error { "error" } else { "warning" };
                m.push_str(&format!("\n    ours {kind}: line {}: {}", d.line, d.message));
            }
            misses.push(m);
        }
        let _ = game;
    }
    eprintln!(
        "compiler cases: {split}/300 refused or accepted as the reference, {counted}/300 with its error count"
    );
    for m in &misses {
        eprintln!("  {m}");
    }
    assert!(split >= FLOOR_SPLIT && counted >= FLOOR_COUNT, "{split} split, {counted} counted");
}

/// Every game is refused or accepted as the reference does (300 of 300).
const FLOOR_SPLIT: usize = 300;
/// Games whose error count is the reference's: all 300 (the parser reads word by word where the
/// reference's tokenizer does, and stops where it stops, after more than 5 errors).
const FLOOR_COUNT: usize = 300;

/// The errors of compiling `source`, as (line, message).
fn errors_of(source: &str) -> Vec<(usize, String)> {
    let (_, diagnostics) = engine::compile_lenient(source);
    diagnostics.iter().filter(|d| d.is_error).map(|d| (d.line, d.message.clone())).collect()
}

/// The line (1-based) of the first line of `source` equal to `text`.
fn line_of(source: &str, text: &str) -> usize {
    source.split('\n').position(|l| l == text).expect("the line is there") + 1
}

#[test]
fn reading_stops_after_more_than_five_errors_as_the_reference_does() {
    // ten rows of eight glyphs the legend does not know: the reference stops at the sixth error
    let rows: Vec<String> = (0..10).map(|k| format!("#{}#", "abcdefgh".repeat(1 + k % 2))).collect();
    let source = format!("{}\n\n{}\n", tessera_core::puzzlescript::STARTER_GAME, rows.join("\n"));
    let first = line_of(&source, &rows[0]);
    let errors = errors_of(&source);
    assert_eq!(errors.len(), 6, "{errors:?}");
    assert!(errors.iter().all(|(line, _)| *line == first), "all on the first bad row: {errors:?}");
    assert!(engine::compile(&source).is_err());
    assert!(engine::compile_lenient(&source).0.is_none(), "nothing is compiled past the stop");
}

#[test]
fn an_unknown_word_in_a_rule_or_a_win_condition_is_an_error_on_its_line() {
    let starter = tessera_core::puzzlescript::STARTER_GAME;
    let rule = "[ > Player | Crate ] -> [ > Player | > Crate ]";
    let source = starter.replace(rule, "[ > Player | Crate ] -> [ > Player | > Crate ] zorp");
    let line = line_of(&source, "[ > Player | Crate ] -> [ > Player | > Crate ] zorp");
    let errors = errors_of(&source);
    assert!(errors.iter().any(|(l, m)| *l == line && m.contains("zorp")), "{errors:?}");

    // a win condition naming nothing: the word, then the condition (two errors, as the reference)
    let source = starter.replace("All Target on Crate", "All Target on Crat");
    let line = line_of(&source, "All Target on Crat");
    let errors = errors_of(&source);
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(errors.iter().all(|(l, _)| *l == line), "{errors:?}");
}
