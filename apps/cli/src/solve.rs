//! `tessera solve LEVEL`: the level's rule set's solver, found in the CLI's registry
//! ([`crate::games::solver`]) by the rule set of the level. The arguments are shared; each
//! solver says which it takes and refuses the others (exit 2), and prints its own result.
//! A level whose rule set has no solver is refused, naming the rule sets that have one.

use crate::error::CliError;
use crate::level_file::load_level;
pub use crate::solve_args::SolveArgs;
use crate::solve_args::started;

/// Runs `tessera solve`.
pub fn run(args: &SolveArgs) -> Result<(), CliError> {
    started();
    if !(args.seconds.is_finite() && args.seconds > 0.0 && args.seconds <= 86_400.0) {
        return Err(CliError::BadInput(format!("--seconds {}: give 0 to 86400 seconds", args.seconds)));
    }
    if args.all {
        return crate::games::puzzlescript::solve_all(args);
    }
    let level = load_level(Some(&args.level), args.number)?;
    let rule_set = level.rule_set();
    match crate::games::solver(rule_set) {
        Some(solver) => (solver.run)(args, &level),
        None => {
            let with: Vec<&str> = crate::games::solvers().map(|s| s.rule_set.name()).collect();
            Err(CliError::file(
                &args.level,
                format!(
                    "solve has no solver for {rule_set} levels (it solves {} levels)",
                    with.join(" and ")
                ),
            ))
        }
    }
}
