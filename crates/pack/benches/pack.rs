//! Pack rating speed: a pack of the fixture levels (2048, SameGame, match-3, Sokoban, tactics)
//! rated by `rate::run` on 1 and 2 threads, and the merge of its 4 shard files.
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

fn plan(path: &Path, opened: &Opened) -> Plan {
    let mut bots = BTreeMap::new();
    bots.insert(ANY_RULE_SET.to_string(), BotSpec::new(BotKind::GREEDY));
    let settings =
        Settings { bots, games: 20, seed: 0, config: GameConfig { max_moves: 300, keep_going: false } };
    opened.plan(path, settings, 5).expect("a plan")
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
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
