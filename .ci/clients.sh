#!/usr/bin/env bash
# Generated clients: from the committed openapi/openapi.json, the Python client
# (openapi-python-client) and the TypeScript types (openapi-typescript, compiled with
# `tsc --strict`). Fails on an operation a generator dropped, an untyped field or model not on
# .ci/clients-allow.txt, or a component named after a Rust type (.ci/clients_check.py). Then a
# small program in each language (tests/clients/drive.py, tests/clients/drive.ts) plays a battle
# through its client against a fresh debug server on SQLite.
#
# Usage: bash .ci/clients.sh   (from the repository root; .ci/run calls it)
# The tools come from PyPI and npm at the versions pinned in tests/clients/requirements.txt and
# tests/clients/package-lock.json, installed once into target/clients/ and reinstalled only when
# a pin changes.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

TOOLS="target/clients"
OUT="$TOOLS/out"
# The TypeScript output sits under the node tools so that the compiled driver finds openapi-fetch.
TS="$TOOLS/node/out"
mkdir -p "$TOOLS"

# Python: a virtualenv with the pinned generator, rebuilt when the pins change.
if ! cmp -s tests/clients/requirements.txt "$TOOLS/venv.pins" 2>/dev/null; then
    rm -rf "$TOOLS/venv"
    python3 -m venv "$TOOLS/venv"
    "$TOOLS/venv/bin/pip" install -q --disable-pip-version-check -r tests/clients/requirements.txt
    cp tests/clients/requirements.txt "$TOOLS/venv.pins"
fi
# Node: the locked generator, compiler and fetch client.
if ! cmp -s tests/clients/package-lock.json "$TOOLS/node/package-lock.json" 2>/dev/null ||
    [ ! -x "$TOOLS/node/node_modules/.bin/tsc" ]; then
    rm -rf "$TOOLS/node"
    mkdir -p "$TOOLS/node"
    cp tests/clients/package.json tests/clients/package-lock.json "$TOOLS/node/"
    (cd "$TOOLS/node" && npm ci --no-audit --no-fund --loglevel=error)
fi

rm -rf "$OUT" "$TS"
mkdir -p "$OUT" "$TS"
echo "==> openapi-python-client $("$TOOLS/venv/bin/openapi-python-client" --version | awk '{print $NF}')"
# ruff (a dependency of the generator) formats the output when it is on PATH.
PATH="$PWD/$TOOLS/venv/bin:$PATH" "$TOOLS/venv/bin/openapi-python-client" generate \
    --path openapi/openapi.json --output-path "$OUT/py" --overwrite >"$OUT/py.log" 2>&1 ||
    { cat "$OUT/py.log"; exit 1; }
PACKAGE="$OUT/py/fad_campaign_client"
echo "==> openapi-typescript $("$TOOLS/node/node_modules/.bin/openapi-typescript" --version 2>&1 | tail -n1)"
"$TOOLS/node/node_modules/.bin/openapi-typescript" openapi/openapi.json -o "$TS/schema.d.ts" >"$OUT/ts.log" 2>&1 ||
    { cat "$OUT/ts.log"; exit 1; }

"$TOOLS/venv/bin/python" .ci/clients_check.py openapi/openapi.json "$PACKAGE" "$OUT/py.log" \
    "$TS/schema.d.ts" .ci/clients-allow.txt

# The driver as an ES module next to the types; strict, and no output when it does not check.
cp tests/clients/drive.ts "$TS/drive.mts"
echo "==> tsc --strict (the types and tests/clients/drive.ts)"
"$TOOLS/node/node_modules/.bin/tsc" --strict --noEmitOnError --target es2022 --module esnext \
    --moduleResolution bundler --lib es2022,dom "$TS/drive.mts"

# FAD_CLIENTS_BIN names a server binary already built (skips the build).
BIN="${FAD_CLIENTS_BIN:-}"
if [ -z "$BIN" ]; then
    cargo build --locked -p fad-api --bin fad-campaign
    BIN="$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')/debug/fad-campaign"
fi

WORK="$(mktemp -d)"
SERVER_PID=""
cleanup() {
    if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
    rm -rf "$WORK"
}
trap cleanup EXIT

# drive NAME COMMAND...: runs COMMAND with FAD_BASE_URL of a fresh server on a new SQLite file.
drive() {
    local name="$1" dir="$WORK/$1"
    shift
    mkdir -p "$dir/data"
    : >"$dir/server.log"
    DATABASE_URL="sqlite://$dir/clients.sqlite3" FAD_DATA_DIR="$dir/data" \
        FAD_JWT_SECRET="clients-secret-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')" \
        FAD_WORKERS=1 RUST_LOG=warn "$BIN" serve --bind 127.0.0.1:0 >"$dir/server.log" 2>&1 &
    SERVER_PID=$!
    local base=""
    for _ in $(seq 1 300); do
        base="$(sed -n 's/^listening on //p' "$dir/server.log" | head -n1)"
        [ -n "$base" ] && break
        kill -0 "$SERVER_PID" 2>/dev/null || { cat "$dir/server.log"; return 1; }
        sleep 0.1
    done
    [ -n "$base" ] || { echo "server did not start"; cat "$dir/server.log"; return 1; }
    local status=0
    FAD_BASE_URL="$base" "$@" || status=$?
    if [ "$status" -ne 0 ]; then
        echo "clients: $name failed; the server said:"
        tail -n 20 "$dir/server.log"
    fi
    kill "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=""
    return "$status"
}

result=0
drive python env PYTHONPATH="$OUT/py" "$TOOLS/venv/bin/python" tests/clients/drive.py || result=1
drive typescript node "$TS/drive.mjs" || result=1
echo "clients: $([ "$result" -eq 0 ] && echo 'both drivers played their battle' || echo 'FAILURES')"
exit "$result"
