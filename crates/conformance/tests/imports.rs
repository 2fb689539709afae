//! The workspace's layout rule (ARCHITECTURE.md, "Imports inside a crate"): no circle of
//! imports between the files of a crate. A file's module uses another's (`use crate::a::b`,
//! `crate::a::f()`, `use super::{x, y}`) only one way; what two files both need lives in a
//! third that both import.
//!
//! The check reads each crate's `src/` as text: a reference to a module is any `crate::…` or
//! `super::…` path outside comments and `#[cfg(test)] mod tests`, matched to the longest
//! module path that is a file. A module's own children and its parent are not counted (a
//! parent declares its children; a child sees its parent's items by `use super::*`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`.
fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The module path of `file` under `src` (`a::b` for `src/a/b.rs` or `src/a/b/mod.rs`; empty for
/// the crate root).
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).expect("under src");
    let mut parts: Vec<String> = rel.iter().map(|c| c.to_string_lossy().into_owned()).collect();
    let last = parts.pop().expect("a file name");
    let stem = last.trim_end_matches(".rs").to_string();
    if !matches!(stem.as_str(), "mod" | "lib" | "main") {
        parts.push(stem);
    }
    parts
}

/// `text` without comments and without its `#[cfg(test)] mod tests { … }`.
fn code(text: &str) -> String {
    let text = text.split("#[cfg(test)]\nmod tests {").next().unwrap_or_default();
    let mut out = String::new();
    let mut block = 0usize;
    for line in text.lines() {
        let mut rest = line;
        let mut kept = String::new();
        loop {
            if block > 0 {
                match rest.find("*/") {
                    Some(i) => {
                        block -= 1;
                        rest = &rest[i + 2..];
                    }
                    None => break,
                }
            } else if let Some(i) = rest.find("/*") {
                kept.push_str(&rest[..i]);
                block += 1;
                rest = &rest[i + 2..];
            } else {
                kept.push_str(rest.split("//").next().unwrap_or_default());
                break;
            }
        }
        out.push_str(&kept);
        out.push('\n');
    }
    out
}

/// The paths `code` names from the crate's root: `crate::…` and `super::…` paths, and the items
/// of `use …::{…}` groups, each as its segments.
fn paths(code: &str, module: &[String], is_mod_file: bool) -> Vec<Vec<String>> {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = Vec::new();
    let bytes: Vec<char> = code.chars().collect();
    let mut i = 0;
    while i < bytes.len() {
        let starts = |w: &str| code_at(&bytes, i, w) && (i == 0 || !ident(bytes[i - 1]));
        let (mut base, mut j) = if starts("crate::") {
            (Vec::new(), i + "crate::".len())
        } else if starts("super::") {
            // `super` of a file `a/b.rs` (module a::b) or `a/b/mod.rs` (a::b) is `a`.
            let _ = is_mod_file;
            let mut base = module.to_vec();
            let mut j = i;
            while code_at(&bytes, j, "super::") {
                base.pop();
                j += "super::".len();
            }
            (base, j)
        } else {
            i += 1;
            continue;
        };
        // The path's plain segments, then maybe a `{…}` group.
        loop {
            let s = j;
            while j < bytes.len() && ident(bytes[j]) {
                j += 1;
            }
            if j > s {
                base.push(bytes[s..j].iter().collect());
            }
            if code_at(&bytes, j, "::") {
                j += 2;
                if j < bytes.len() && bytes[j] == '{' {
                    let end = matching(&bytes, j);
                    let group: String = bytes[j + 1..end].iter().collect();
                    group_paths(&group, &base, &mut out);
                    j = end + 1;
                    break;
                }
            } else {
                out.push(base.clone());
                break;
            }
        }
        i = j.max(i + 1);
    }
    out
}

fn code_at(chars: &[char], i: usize, w: &str) -> bool {
    w.chars().enumerate().all(|(k, c)| chars.get(i + k) == Some(&c))
}

/// The index of the `}` that closes the `{` at `open`.
fn matching(chars: &[char], open: usize) -> usize {
    let mut depth = 0;
    for (k, &c) in chars.iter().enumerate().skip(open) {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return k;
                }
            }
            _ => {}
        }
    }
    chars.len() - 1
}

/// The items of a use group `a, b::{c, d}, e::f` under `base`.
fn group_paths(group: &str, base: &[String], out: &mut Vec<Vec<String>>) {
    let mut depth = 0;
    let mut item = String::new();
    let mut items = Vec::new();
    for c in group.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(std::mem::take(&mut item));
                continue;
            }
            _ => {}
        }
        item.push(c);
    }
    items.push(item);
    for it in items {
        let it: String = it.split_whitespace().collect::<Vec<_>>().join(" ");
        let it = it.split(" as ").next().unwrap_or_default().trim().to_string();
        if it.is_empty() {
            continue;
        }
        if let Some(open) = it.find("::{") {
            let mut b = base.to_vec();
            b.extend(it[..open].split("::").map(str::to_string));
            group_paths(&it[open + 3..it.len() - 1], &b, out);
        } else {
            let mut b = base.to_vec();
            b.extend(it.split("::").filter(|s| *s != "self").map(str::to_string));
            out.push(b);
        }
    }
}

/// The circles (strongly connected sets of more than one module) of `graph`.
fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    // Kosaraju: an order by finish time, then the reversed graph in reverse order.
    fn visit(
        v: &str,
        g: &BTreeMap<String, BTreeSet<String>>,
        seen: &mut BTreeSet<String>,
        order: &mut Vec<String>,
    ) {
        if !seen.insert(v.to_string()) {
            return;
        }
        for w in &g[v] {
            visit(w, g, seen, order);
        }
        order.push(v.to_string());
    }
    let mut seen = BTreeSet::new();
    let mut order = Vec::new();
    for v in graph.keys() {
        visit(v, graph, &mut seen, &mut order);
    }
    let mut reversed: BTreeMap<String, BTreeSet<String>> =
        graph.keys().map(|k| (k.clone(), BTreeSet::new())).collect();
    for (v, ws) in graph {
        for w in ws {
            reversed.get_mut(w).expect("a module").insert(v.clone());
        }
    }
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for v in order.iter().rev() {
        let mut comp = Vec::new();
        visit(v, &reversed, &mut seen, &mut comp);
        if comp.len() > 1 {
            comp.sort();
            out.push(comp);
        }
    }
    out
}

/// The graph of references between the modules (files) of the crate at `src`.
fn graph_of(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut all = Vec::new();
    files(src, &mut all);
    let modules: BTreeMap<Vec<String>, PathBuf> =
        all.iter().map(|f| (module_of(src, f), f.clone())).collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (m, file) in &modules {
        let key = m.join("::");
        let edges = graph.entry(key.clone()).or_default();
        let text = std::fs::read_to_string(file).expect("a readable source file");
        let is_mod = file.file_name().is_some_and(|n| n == "mod.rs");
        for p in paths(&code(&text), m, is_mod) {
            let Some(target) = (1..=p.len()).rev().map(|k| &p[..k]).find(|k| modules.contains_key(*k)) else {
                continue;
            };
            let related = target.starts_with(m) || m.starts_with(target);
            if !related {
                edges.insert(target.join("::"));
            }
        }
    }
    graph
}

#[test]
fn no_crate_has_a_circle_of_imports_between_its_files() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut crates = Vec::new();
    for group in ["crates", "apps"] {
        for e in std::fs::read_dir(root.join(group)).expect("the workspace's folders").flatten() {
            let src = e.path().join("src");
            if src.is_dir() {
                crates.push(src);
            }
        }
    }
    crates.sort();
    assert!(crates.len() >= 10, "the workspace's crates: {crates:?}");
    let found: Vec<String> = crates
        .iter()
        .flat_map(|src| {
            circles(&graph_of(src)).into_iter().map(move |c| format!("{}: {}", src.display(), c.join(" ↔ ")))
        })
        .collect();
    assert!(found.is_empty(), "circles of imports between files:\n{}", found.join("\n"));
}

#[test]
fn the_check_sees_a_circle_and_the_paths_it_is_made_of() {
    let dir = std::env::temp_dir().join(format!("tessera-imports-{}", std::process::id()));
    let src = dir.join("src");
    std::fs::create_dir_all(src.join("b")).unwrap();
    std::fs::write(src.join("lib.rs"), "mod a;\nmod b;\n").unwrap();
    std::fs::write(src.join("a.rs"), "use crate::b::{c::{self, D}, E};\n// use crate::z;\n").unwrap();
    std::fs::write(src.join("b/mod.rs"), "mod c;\npub(crate) struct E;\n").unwrap();
    std::fs::write(src.join("b/c.rs"), "pub(crate) struct D;\nfn f() { super::super::a::g(); }\n").unwrap();
    let g = graph_of(&src);
    assert_eq!(g["a"], BTreeSet::from(["b".to_string(), "b::c".to_string()]));
    assert_eq!(g["b::c"], BTreeSet::from(["a".to_string()]));
    assert_eq!(circles(&g), vec![vec!["a".to_string(), "b::c".to_string()]]);
    // One way only: no circle.
    std::fs::write(src.join("b/c.rs"), "pub(crate) struct D;\n").unwrap();
    assert!(circles(&graph_of(&src)).is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}
