#!/usr/bin/env bash
# Installs what building and testing Sprout needs, idempotently. Called by `cargo xtask`.
#
# - A wasm32 toolchain: the ordinary rustup target where it can be had; otherwise Debian's
#   rustc-web toolchain (used with -Zbuild-std), which is how this project's machines get one.
# - wasm-bindgen-cli at exactly the version of the wasm-bindgen crate in Cargo.lock,
#   installed into target/tools so a CI run on a reused machine finds it cached.
# - Chromium + ChromeDriver (browser tests) and playwright-core (end-to-end tests).
#
# Prints one line per tool; `--quiet` prints nothing on success.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
say() { [ "${QUIET:-0}" = 1 ] || echo "ensure-tools: $*"; }
[ "${1:-}" = "--quiet" ] && QUIET=1

apt_packages=()
have_rustup_wasm() {
  command -v rustup >/dev/null 2>&1 || return 1
  rustup target list --installed 2>/dev/null | grep -q '^wasm32-unknown-unknown$' && return 0
  # An ordinary machine: try to add the target (answers at once with an error here).
  timeout 120 rustup target add wasm32-unknown-unknown >/dev/null 2>&1
}
if have_rustup_wasm; then
  say "wasm32: rustup target wasm32-unknown-unknown"
elif [ -x /usr/bin/rustc ] && [ -d /usr/lib/rustlib/src/rust/library ] && [ -x /usr/bin/rust-lld ]; then
  say "wasm32: Debian rustc-web $(/usr/bin/rustc --version | cut -d' ' -f2) with -Zbuild-std"
else
  apt_packages+=(rustc-web cargo-web rust-web-src rust-web-llvm libstd-rust-web-dev lld-22)
fi
if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
  apt_packages+=(chromium chromium-driver)
fi
# A Chinese font, so that the lesson screenshots in 中文 show characters rather than boxes.
if command -v fc-list >/dev/null 2>&1 && [ -z "$(fc-list :lang=zh 2>/dev/null)" ]; then
  apt_packages+=(fonts-wqy-microhei)
fi
if [ ${#apt_packages[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "ensure-tools: please install: ${apt_packages[*]} (needs root and apt-get)" >&2
    exit 1
  fi
  say "apt-get install ${apt_packages[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq "${apt_packages[@]}" >/dev/null
fi

# wasm-bindgen-cli must equal the wasm-bindgen crate version in Cargo.lock exactly.
want=$(awk '/^name = "wasm-bindgen"$/{getline; gsub(/version = |"/,""); print; exit}' Cargo.lock 2>/dev/null || true)
want=${want:-0.2.130}
tools="$root/target/tools"
if [ -x "$tools/bin/wasm-bindgen" ] && "$tools/bin/wasm-bindgen" --version | grep -q " $want\$"; then
  say "wasm-bindgen-cli $want (cached in target/tools)"
else
  say "cargo install wasm-bindgen-cli $want into target/tools (a few minutes, once)"
  # Not --locked: its lockfile pins a webpki-roots version the registry no longer serves.
  env -u RUSTUP_TOOLCHAIN -u CARGO -u CARGO_TARGET_DIR \
    cargo install -q wasm-bindgen-cli --version "$want" --root "$tools" --target-dir "$root/target/tools-build"
fi

# Installed again whenever package-lock.json changes (a stamp holds the hash it was installed
# from), so a package added to the lock file (axe-core) reaches machines that already had
# node_modules.
lock_hash=$(sha256sum tests/e2e/package-lock.json | cut -d' ' -f1)
stamp=tests/e2e/node_modules/.sprout-lock-sha256
if [ ! -d tests/e2e/node_modules/playwright-core ] || [ "$(cat "$stamp" 2>/dev/null)" != "$lock_hash" ]; then
  say "npm ci (playwright-core, axe-core) in tests/e2e"
  (cd tests/e2e && npm ci --no-audit --no-fund --silent)
  echo "$lock_hash" > "$stamp"
fi
say "ready"
