//! The README's and the guides' examples of `tessera`, checked so that they cannot go stale.
//!
//! - Every `console` block of `README.md` and `docs/*.md` runs with trycmd: each `$ tessera …`
//!   line is run with this build's binary and its output (stdout and stderr together) compared
//!   with the lines under it (`...` on a line of its own skips lines, `[..]` skips within one).
//!   The commands run from a scratch folder in which `fixtures` is the repository's, so an
//!   example names `fixtures/levels/…` and writes its own files beside it, never into the
//!   repository. `TRYCMD=overwrite cargo test -p tessera-cli --test docs` rewrites the outputs.
//! - Every other `tessera …` command the pages show (synopses in `sh` blocks, commands in inline
//!   code, `cargo run -p tessera-cli -- …`) names subcommands that exist and only options that
//!   the subcommand's `--help` lists, so a renamed flag or command fails here, not for a reader.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("the workspace root")
}

/// README.md, then docs/*.md in name order.
fn pages() -> Vec<PathBuf> {
    let root = root();
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/")
        .map(|e| e.expect("a docs/ entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    let mut pages = vec![root.join("README.md")];
    pages.extend(docs);
    pages
}

/// Whether a page has a `console` block (trycmd runs those).
fn has_console_block(text: &str) -> bool {
    text.lines().any(|l| l.trim_start().starts_with("```console"))
}

#[test]
fn console_examples_run_as_shown() {
    let root = root();
    let scratch = std::env::temp_dir().join(format!("tessera-docs-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).expect("the scratch folder");
    #[cfg(unix)]
    std::os::unix::fs::symlink(root.join("fixtures"), scratch.join("fixtures")).expect("fixtures link");
    // This test is alone in its binary, so the working directory is its own to set: the
    // commands run where a reader runs them, with `fixtures/` beside them.
    std::env::set_current_dir(&scratch).expect("cd scratch");
    let cases = trycmd::TestCases::new();
    cases.register_bin("tessera", trycmd::cargo::cargo_bin!("tessera"));
    cases.env("NO_COLOR", "1");
    cases.timeout(std::time::Duration::from_secs(120));
    let mut any = false;
    for page in pages() {
        let text = std::fs::read_to_string(&page).expect("a page");
        if has_console_block(&text) {
            cases.case(&page);
            any = true;
        }
    }
    assert!(any, "no console block in the README or docs/");
    cases.run();
    drop(cases);
    let _ = std::fs::remove_dir_all(&scratch);
}

/// A `tessera` command line found in a page: where, and its words after `tessera`.
#[derive(Debug)]
struct Shown {
    page: String,
    line: usize,
    words: Vec<String>,
}

/// The text of a page's fenced blocks that are not `console` (with their first line's number),
/// and of its inline code spans outside blocks.
fn code_of(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut fence: Option<(bool, String)> = None;
    let mut prose = String::new();
    let mut prose_start = 1;
    let flush = |prose: &mut String, start: usize, out: &mut Vec<(usize, String)>| {
        let mut rest = prose.as_str();
        while let Some(a) = rest.find('`') {
            let after = &rest[a + 1..];
            let Some(b) = after.find('`') else { break };
            let line = start + prose[..prose.len() - rest.len() + a].matches('\n').count();
            out.push((line, after[..b].replace('\n', " ")));
            rest = &after[b + 1..];
        }
        prose.clear();
    };
    for (i, l) in text.lines().enumerate() {
        let n = i + 1;
        let t = l.trim_start();
        match &fence {
            Some((console, ticks)) => {
                if t.starts_with(ticks.as_str()) {
                    fence = None;
                } else if !console {
                    out.push((n, l.to_string()));
                }
            }
            None if t.starts_with("```") => {
                flush(&mut prose, prose_start, &mut out);
                let ticks: String = t.chars().take_while(|&c| c == '`').collect();
                let console = t[ticks.len()..].trim().starts_with("console");
                fence = Some((console, ticks));
            }
            None => {
                if prose.is_empty() {
                    prose_start = n;
                }
                prose.push_str(l);
                prose.push('\n');
                if t.is_empty() {
                    flush(&mut prose, prose_start, &mut out);
                }
            }
        }
    }
    flush(&mut prose, prose_start, &mut out);
    out
}

/// The `tessera` commands in a piece of code: after a word `tessera` (or `-p tessera-cli --`),
/// up to a pipe, `;`, `&&`, a comment or the end.
fn commands_in(code: &str) -> Vec<Vec<String>> {
    let code = code.split(" #").next().unwrap_or("");
    let words: Vec<&str> = code.split_whitespace().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let start = if words[i] == "tessera" || words[i].ends_with("/tessera") {
            Some(i + 1)
        } else if words[i] == "tessera-cli" && words.get(i + 1) == Some(&"--") {
            Some(i + 2)
        } else {
            None
        };
        let Some(start) = start else {
            i += 1;
            continue;
        };
        let end = (start..words.len())
            .find(|&j| matches!(words[j], "|" | ";" | "&&" | "||" | ">" | "<"))
            .unwrap_or(words.len());
        out.push(words[start..end].iter().map(|w| w.to_string()).collect());
        i = end;
    }
    out
}

/// What `tessera … --help` says of a command: its subcommands and its help text.
struct HelpTree {
    cache: BTreeMap<Vec<String>, (Vec<String>, String)>,
}

impl HelpTree {
    fn get(&mut self, path: &[String]) -> &(Vec<String>, String) {
        self.cache.entry(path.to_vec()).or_insert_with(|| {
            let out = Command::new(env!("CARGO_BIN_EXE_tessera"))
                .args(path)
                .arg("--help")
                .output()
                .expect("tessera --help runs");
            assert!(out.status.success(), "tessera {} --help fails", path.join(" "));
            let help = String::from_utf8(out.stdout).expect("help is UTF-8");
            let mut subs = Vec::new();
            let mut in_commands = false;
            for l in help.lines() {
                if l.starts_with("Commands:") {
                    in_commands = true;
                } else if in_commands && l.starts_with("  ") {
                    if let Some(name) = l.split_whitespace().next() {
                        subs.push(name.to_string());
                    }
                } else if !l.starts_with(' ') {
                    in_commands = false;
                }
            }
            (subs, help)
        })
    }
}

/// The option a word names, `--name` from `[--name`, `--name=V`, `--name,`, `(--name)`, … .
fn option_of(word: &str) -> Option<&str> {
    let w = word.trim_start_matches(['[', '(', '`', '"', '\'']);
    let w = w.strip_prefix("--")?;
    let end = w.find(|c: char| !(c.is_ascii_alphanumeric() || c == '-')).unwrap_or(w.len());
    (end > 0).then(|| &w[..end])
}

/// Whether a help text lists `--name` as an option.
fn lists_option(help: &str, name: &str) -> bool {
    let flag = format!("--{name}");
    help.match_indices(&flag).any(|(i, _)| {
        help[i + flag.len()..].chars().next().is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '-'))
    })
}

fn shown_commands() -> Vec<Shown> {
    let root = root();
    let mut shown = Vec::new();
    for page in pages() {
        let text = std::fs::read_to_string(&page).expect("a page");
        let name = page.strip_prefix(&root).unwrap_or(&page).display().to_string();
        for (line, code) in code_of(&text) {
            for words in commands_in(&code) {
                shown.push(Shown { page: name.clone(), line, words });
            }
        }
    }
    shown
}

/// Checks one command's subcommands and options against `--help`; the problems, in words.
fn check(tree: &mut HelpTree, shown: &Shown) -> Vec<String> {
    let mut path: Vec<String> = Vec::new();
    let mut problems = Vec::new();
    let mut words = shown.words.iter().peekable();
    // `tessera help pack add` names the command it asks about: check that command.
    if words.peek().is_some_and(|w| *w == "help") {
        words.next();
    }
    while let Some(w) = words.peek() {
        let (subs, _) = tree.get(&path);
        if subs.iter().any(|s| s == *w) {
            path.push(w.to_string());
            words.next();
        } else {
            break;
        }
    }
    let (subs, help) = tree.get(&path).clone();
    if let Some(first) = words.peek()
        && !subs.is_empty()
        && first.chars().all(|c| c.is_ascii_lowercase() || c == '-')
        && !first.starts_with('-')
    {
        problems.push(format!(
            "{}:{}: `tessera {}`: `{first}` is not a subcommand of `tessera {}` ({})",
            shown.page,
            shown.line,
            shown.words.join(" "),
            path.join(" "),
            subs.join(", ")
        ));
    }
    for w in words {
        if let Some(name) = option_of(w)
            && !lists_option(&help, name)
        {
            problems.push(format!(
                "{}:{}: `tessera {}`: `tessera {}` has no option `--{name}`",
                shown.page,
                shown.line,
                shown.words.join(" "),
                path.join(" ")
            ));
        }
    }
    problems
}

#[test]
fn every_command_shown_names_options_that_exist() {
    let shown = shown_commands();
    assert!(shown.len() > 50, "only {} `tessera` commands found in the pages", shown.len());
    let mut tree = HelpTree { cache: BTreeMap::new() };
    let problems: Vec<String> = shown.iter().flat_map(|s| check(&mut tree, s)).collect();
    assert!(
        problems.is_empty(),
        "commands in the docs that `tessera` does not take:\n{}",
        problems.join("\n")
    );
}

/// An option named alone in a page's prose (`--seed N`), under a heading that names `tessera`
/// commands (`## \`tessera play\``, `## \`tessera bot\`, \`difficulty\` and \`solve\``): where, the
/// option, and the commands of the heading.
struct Mentioned {
    page: String,
    line: usize,
    option: String,
    commands: Vec<Vec<String>>,
}

/// The commands a heading names: `tessera …` spans, and bare words that are `tessera`'s own
/// subcommands.
fn heading_commands(heading: &str, tree: &mut HelpTree) -> Vec<Vec<String>> {
    let top = tree.get(&[]).0.clone();
    let mut out = Vec::new();
    for (_, span) in code_of(heading) {
        let found = commands_in(&span);
        if !found.is_empty() {
            out.extend(found);
        } else if top.contains(&span) {
            out.push(vec![span]);
        }
    }
    out
}

fn mentioned_options(tree: &mut HelpTree) -> Vec<Mentioned> {
    let root = root();
    let mut out = Vec::new();
    for page in pages() {
        let text = std::fs::read_to_string(&page).expect("a page");
        let name = page.strip_prefix(&root).unwrap_or(&page).display().to_string();
        let lines: Vec<&str> = text.lines().collect();
        let mut start = 0;
        while start < lines.len() {
            let end = (start + 1..lines.len()).find(|&i| lines[i].starts_with("## ")).unwrap_or(lines.len());
            let commands =
                if lines[start].starts_with('#') { heading_commands(lines[start], tree) } else { vec![] };
            if !commands.is_empty() {
                let section = lines[start + 1..end].join("\n");
                for (line, span) in code_of(&section) {
                    let first = span.split_whitespace().next().unwrap_or("");
                    if let Some(option) = option_of(first)
                        && commands_in(&span).is_empty()
                    {
                        let option = option.to_string();
                        out.push(Mentioned {
                            page: name.clone(),
                            line: start + 1 + line,
                            option,
                            commands: commands.clone(),
                        });
                    }
                }
            }
            start = end;
        }
    }
    out
}

/// Whether one of `commands` (or, for a command with subcommands, one of those) lists `--name`.
fn any_lists(tree: &mut HelpTree, commands: &[Vec<String>], name: &str) -> bool {
    commands.iter().any(|c| {
        let (subs, help) = tree.get(c).clone();
        lists_option(&help, name)
            || subs.iter().filter(|s| *s != "help").any(|s| {
                let mut path = c.clone();
                path.push(s.clone());
                lists_option(&tree.get(&path).1.clone(), name)
            })
    })
}

#[test]
fn every_option_named_under_a_command_heading_is_one_of_its_options() {
    let mut tree = HelpTree { cache: BTreeMap::new() };
    let mentioned = mentioned_options(&mut tree);
    assert!(mentioned.len() > 30, "only {} options named under command headings", mentioned.len());
    let problems: Vec<String> = mentioned
        .iter()
        .filter(|m| !any_lists(&mut tree, &m.commands, &m.option))
        .map(|m| {
            let names: Vec<String> =
                m.commands.iter().map(|c| format!("`tessera {}`", c.join(" "))).collect();
            format!("{}:{}: `--{}` is not an option of {}", m.page, m.line, m.option, names.join(", "))
        })
        .collect();
    assert!(
        problems.is_empty(),
        "options in the docs that `tessera` does not take:\n{}",
        problems.join("\n")
    );
}

#[test]
fn a_renamed_option_or_command_is_caught() {
    let mut tree = HelpTree { cache: BTreeMap::new() };
    let ok = Shown {
        page: "x".into(),
        line: 1,
        words: commands_in("tessera solve L --states 5 --jobs 1").remove(0),
    };
    assert!(check(&mut tree, &ok).is_empty(), "{:?}", check(&mut tree, &ok));
    let renamed =
        Shown { page: "x".into(), line: 1, words: commands_in("tessera solve L --state 5").remove(0) };
    assert_eq!(check(&mut tree, &renamed).len(), 1);
    let nested = Shown {
        page: "x".into(),
        line: 1,
        words: commands_in("[--x] | tessera replay verify L --allow-torn-tails").remove(0),
    };
    assert_eq!(check(&mut tree, &nested).len(), 1);
    let unknown =
        Shown { page: "x".into(), line: 1, words: commands_in("tessera replay verifies L").remove(0) };
    assert_eq!(check(&mut tree, &unknown).len(), 1);
    let help = Shown { page: "x".into(), line: 1, words: commands_in("tessera help pack merge").remove(0) };
    assert!(check(&mut tree, &help).is_empty(), "{:?}", check(&mut tree, &help));
}
