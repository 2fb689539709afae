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
