//! PuzzleScript's 300 compiler cases (`errormessage_testdata.js`): every game the reference
//! refuses (`errorCount > 0`) is refused, every game it accepts compiles, and the number of
//! errors is the reference's; each error names its source line. Message wording is tessera's.
//! Skips (passing, with a note) when `../shared` is absent.

use std::path::PathBuf;
use tessera_core::puzzlescript::engine::{self, suite};

fn cases() -> Option<Vec<suite::CompileCase>> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/benchmarks/puzzlescript/reference/tests/resources/errormessage_testdata.js");
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
            misses.push(format!(
                "{}: reference {} error(s), tessera {} ({}){}",
                c.name,
                c.error_count,
                errors.len(),
                if refused { "refused" } else { "accepted" },
                errors
                    .first()
                    .map(|e| format!(", first: line {}: {}", e.line, e.message))
                    .unwrap_or_default()
            ));
        }
        let _ = game;
    }
    eprintln!(
        "compiler cases: {split}/300 refused or accepted as the reference, {counted}/300 with its error count"
    );
    for m in misses.iter().take(40) {
        eprintln!("  {m}");
    }
    assert!(split >= FLOOR_SPLIT && counted >= FLOOR_COUNT, "{split} split, {counted} counted");
}

/// Every game is refused or accepted as the reference does (300 of 300).
const FLOOR_SPLIT: usize = 300;
/// Games whose error count is the reference's: 263 of 300 today (the rest report one error
/// where the reference reports two, or the reverse); raised as the compiler comes closer.
const FLOOR_COUNT: usize = 263;
