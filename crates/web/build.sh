#!/usr/bin/env bash
# Builds the web player: tessera's engine (crates/web) compiled to WebAssembly, written to
# target/web/tessera_web.wasm, where `tessera export` and the editor's Export find it.
#
#   crates/web/build.sh            (from anywhere; prints the module's path and size)
#
# Two routes, the first that works:
# 1. rustup's wasm32-unknown-unknown target, where it is installed
#    (`rustup target add wasm32-unknown-unknown`): a plain `cargo build --target`.
# 2. Debian's Rust for the web (apt-get install -y rustc-web cargo-web rust-web-src and lld):
#    its cargo and rustc build the standard library for wasm32 from rust-web-src
#    (RUSTC_BOOTSTRAP=1 -Zbuild-std), linked with lld's wasm-ld. Debian 12's rustc-web is 1.85,
#    older than the workspace's rust-version: the build then ignores rust-version and turns on,
#    for tessera's own crates only, the two features stabilised since that the engine uses
#    (let chains, is_multiple_of).
# The wasm build has its own target directory (target/web), so it never disturbs the native one.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
out="$root/target/web"
mkdir -p "$out"
profile=(--profile web -p tessera-web --target wasm32-unknown-unknown --target-dir "$out")
built="$out/wasm32-unknown-unknown/web/tessera_web.wasm"

if command -v rustup >/dev/null && rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  echo "building with rustup's wasm32-unknown-unknown target" >&2
  cargo build "${profile[@]}"
elif [ -x /usr/bin/cargo ] && [ -x /usr/bin/rustc ] && [ -d /usr/lib/rustlib/src/rust/library ]; then
  ld=""
  for v in 22 21 20 19 18 17 16; do
    if command -v "wasm-ld-$v" >/dev/null; then ld="wasm-ld-$v"; break; fi
  done
  if [ -z "$ld" ] && command -v wasm-ld >/dev/null; then ld=wasm-ld; fi
  [ -n "$ld" ] || { echo "no wasm-ld: apt-get install -y lld (or lld-19, lld-22)" >&2; exit 2; }
  echo "building with Debian's $(/usr/bin/rustc -V) and $ld (-Zbuild-std)" >&2
  flags='["-Zcrate-attr=feature(let_chains)","-Zcrate-attr=feature(unsigned_is_multiple_of)"]'
  cfg=()
  for p in tessera-puzzlescript tessera-core tessera-replay tessera-sound tessera-web; do
    cfg+=(--config "profile.web.package.$p.rustflags=$flags")
  done
  # rustup's proxies must not pick the toolchain: Debian's cargo, rustc and standard library
  # go together.
  env -u RUSTUP_TOOLCHAIN PATH="/usr/bin:$PATH" RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 \
    CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER="$ld" \
    /usr/bin/cargo build -Zbuild-std=std,panic_abort -Zprofile-rustflags "${cfg[@]}" --ignore-rust-version "${profile[@]}"
else
  cat >&2 <<'MSG'
No WebAssembly toolchain: either `rustup target add wasm32-unknown-unknown`, or (Debian)
`apt-get install -y rustc-web cargo-web rust-web-src lld`, then run crates/web/build.sh again.
MSG
  exit 2
fi
# (a temporary name of this run's own, so two builds at once never write one file)
tmp="$out/tessera_web.wasm.$$.tmp"
cp "$built" "$tmp"
mv -f "$tmp" "$out/tessera_web.wasm"
echo "$out/tessera_web.wasm ($(wc -c <"$out/tessera_web.wasm") bytes)"
