#!/usr/bin/env bash
# Run the unit, API and UI tests (the vitest projects `node` and `ui`) on another Node.js line than the
# machine's, e.g. `scripts/test-on-node.sh 24`; .ci/run does this for Node 24 after `npm test`. Extra
# arguments go to vitest (`scripts/test-on-node.sh 24 tests/api/auth.test.ts`).
#
# Needs a clone after `npm ci` and npm's registry (nothing else from the internet). Steps:
#   1. `npm pack node-linux-<arch>@<line>`: the Node binary and its headers, unpacked once into the cache
#      directory (CHIDAO_CI_CACHE, default ${XDG_CACHE_HOME:-$HOME/.cache}/chidao-ci), outside the clone;
#   2. better-sqlite3, the one native module, built for that Node (`npm rebuild` with npm_config_nodedir set
#      to the unpacked package: without it node-gyp may take the headers of the machine's Node, and the module
#      then builds but refuses to load). The build is kept in the cache for the next run with the same versions;
#   3. vitest with that Node first on PATH (vitest's workers and any `node` a test starts run on it);
#   4. always, even when a step failed: the machine's build of better-sqlite3 put back and checked, so the
#      clone works with the machine's Node as before.
set -euo pipefail

cd "$(dirname "$0")/.."

log() { printf 'test-on-node: %s\n' "$*" >&2; }
die() {
  log "error: $*"
  exit 1
}

[ $# -ge 1 ] && [[ $1 =~ ^[0-9]+$ ]] || die "usage: scripts/test-on-node.sh <Node major version, e.g. 24> [vitest arguments]"
line="$1"
shift

case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) platform=linux-x64 ;;
  Linux-aarch64 | Linux-arm64) platform=linux-arm64 ;;
  *) die "no node-<platform> package on npm for $(uname -sm)" ;;
esac

addon=node_modules/better-sqlite3/build/Release/better_sqlite3.node
[ -f "$addon" ] || die "$addon is missing: run 'npm ci' first"
sqlite_version="$(node -p 'require("./node_modules/better-sqlite3/package.json").version')"

cache="${CHIDAO_CI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/chidao-ci}"
mkdir -p "$cache"

# --- 1. Node <line> from the npm registry ------------------------------------------------------------
log "fetching node-$platform@$line with npm pack"
tarball="$(cd "$cache" && npm pack --silent "node-$platform@$line" | tail -n 1)"
[ -f "$cache/$tarball" ] || die "npm pack node-$platform@$line gave no tarball"
version="${tarball#"node-$platform-"}"
version="${version%.tgz}"
nodedir="$cache/node-v$version-$platform"
if [ ! -x "$nodedir/bin/node" ]; then
  unpacking="$(mktemp -d "$cache/unpacking.XXXXXX")"
  chmod 755 "$unpacking"
  tar -xzf "$cache/$tarball" -C "$unpacking" --strip-components=1
  [ -d "$unpacking/include/node" ] || die "$tarball has no include/node: better-sqlite3 cannot be built against it"
  rm -rf "$nodedir"
  mv "$unpacking" "$nodedir"
fi
rm -f "$cache/$tarball"
[ "$("$nodedir/bin/node" --version)" = "v$version" ] || die "$nodedir/bin/node is not Node $version"
log "Node $version in $nodedir"

# --- 2. better-sqlite3 for that Node; the machine's build put back on exit ----------------------------
machine_build="$(mktemp -d)"
cp "$addon" "$machine_build/"
put_back() {
  mkdir -p "$(dirname "$addon")"
  cp "$machine_build/better_sqlite3.node" "$addon"
  rm -rf "$machine_build"
  if node -e 'new (require("better-sqlite3"))(":memory:").close()'; then
    log "better-sqlite3 is back to the build for the machine's Node $(node --version)"
  else
    log "error: better-sqlite3 does not load on the machine's Node $(node --version): run 'npm rebuild better-sqlite3'"
    exit 1
  fi
}
trap put_back EXIT

on_node=(env "PATH=$nodedir/bin:$PATH")
kept="$cache/better-sqlite3-$sqlite_version-node-v$version-$platform.node"
if [ -f "$kept" ]; then
  log "better-sqlite3 $sqlite_version for Node $version: the build kept from an earlier run"
  cp "$kept" "$addon"
else
  log "building better-sqlite3 $sqlite_version for Node $version (npm rebuild, about a minute and a half)"
  "${on_node[@]}" npm_config_nodedir="$nodedir" npm rebuild better-sqlite3 >&2
  cp "$addon" "$kept.partial"
  mv "$kept.partial" "$kept"
fi
"${on_node[@]}" node -e 'new (require("better-sqlite3"))(":memory:").close()' ||
  die "better-sqlite3 does not load on Node $version"

# --- 3. the tests --------------------------------------------------------------------------------------
log "vitest run --project node --project ui on Node $version"
started=$SECONDS
status=0
"${on_node[@]}" node_modules/.bin/vitest run --project node --project ui "$@" || status=$?
log "the node and ui projects on Node $version took $((SECONDS - started)) s and $([ "$status" -eq 0 ] && echo passed || echo "failed (exit $status)")"
exit "$status"
