//! Pack rating speed: a pack of the fixture levels (2048, SameGame, match-3, Sokoban, tactics)
//! rated by `rate::run` on 1 and 2 threads, and the merge of its 4 shard files.
//! Also (issue 29.11) opening and planning a pack of 20,000 small level files: the duplicate
//! check, the plan and the curve are linear (the quadratic check took 16.7 s per command).
//! Run: `cargo bench -p tessera-pack`. On the shared 2-core machine the 2-thread figure only
//! improves on the 1-thread one when the other core is free: give the load average with it.
//!
//! Figures of 2026-11-24, load average 9.6 (other builds on both cores): rate 614 ms on 1
//! thread, 706 ms on 2 (no core to spare at that load); merge of the 4 shards 49 µs.

use criterion::{Criterion, criterion_group, criterion_main};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use tessera_bots::{BotKind, BotSpec, GameConfig};
use tessera_pack::rate::{self, ANY_RULE_SET};
use tessera_pack::{Entry, Opened, Pack, Plan, Settings, Shard};

/// The fixture levels in one pack (in a temporary folder), and its opened form.
fn fixture_pack() -> (PathBuf, Opened) {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/levels");
    let dir = std::env::temp_dir().join(format!("tessera-pack-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("bench folder");
    let mut pack = Pack::new("bench");
    let mut names: Vec<PathBuf> = std::fs::read_dir(&fixtures)
        .expect("fixtures")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    names.sort();
    for p in names {
        pack.add(Entry::path(p.display().to_string()), None).expect("added");
    }
    let path = dir.join("bench.json");
    pack.save(&path).expect("saved");
    let opened = Opened::open(&path).expect("opens");
    (path, opened)
}

fn plan_settings() -> Settings {
    let mut bots = BTreeMap::new();
    bots.insert(ANY_RULE_SET.to_string(), BotSpec::new(BotKind::GREEDY));
    Settings { bots, games: 20, seed: 0, config: GameConfig { max_moves: 300, keep_going: false } }
}

fn plan(path: &Path, opened: &Opened) -> Plan {
    opened.plan(path, plan_settings(), 5).expect("a plan")
}

/// A pack of `n` distinct small 2048 level files (in a temporary folder).
fn big_pack(n: usize) -> (PathBuf, usize) {
    let dir = std::env::temp_dir().join(format!("tessera-pack-bench-big-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("bench folder");
    let mut pack = Pack::new("big");
    for i in 0..n {
        let name = format!("l{i}.json");
        let level = format!(r#"{{"rule_set": "slide", "width": 3, "height": 3, "seed": {i}}}"#);
        std::fs::write(dir.join(&name), level).expect("level");
        pack.add(Entry::path(name), None).expect("added");
    }
    let path = dir.join("big.json");
    pack.save(&path).expect("saved");
    (path, n)
}

fn bench(c: &mut Criterion) {
    let (path, opened) = fixture_pack();
    let plan = plan(&path, &opened);
    let stop = AtomicBool::new(false);
    let mut g = c.benchmark_group("pack");
    g.sample_size(10);
    for jobs in [1, 2] {
        g.bench_function(format!("rate fixture pack, 20 games a level, {jobs} thread(s)"), |b| {
            b.iter(|| rate::run(&plan, Shard::ALL, jobs, &stop, &|_| {}).expect("rated"))
        });
    }
    let shards: Vec<(String, rate::ShardFile)> = (0..4)
        .map(|index| {
            let s = rate::run(&plan, Shard { index, count: 4 }, 1, &stop, &|_| {}).expect("shard");
            (format!("shard {index}"), s)
        })
        .collect();
    g.bench_function("merge 4 shards", |b| {
        b.iter(|| rate::merge(&plan, &opened.results, &opened.entries, &shards).expect("merged").to_json())
    });
    let (big, _) = big_pack(20_000);
    g.bench_function("open, plan and curve of a 20,000-level pack", |b| {
        b.iter(|| {
            let opened = Opened::open(&big).expect("opens");
            let p = opened.plan(&big, plan_settings(), 5).expect("a plan");
            (p.units.len(), opened.curve().entries.len())
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
