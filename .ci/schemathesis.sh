#!/usr/bin/env bash
# Contract fuzzing: schemathesis with all checks against the served OpenAPI document,
# authenticated as a player who owns a campaign. Starts the debug binary on a free port with a
# temporary SQLite data dir (and, with FAD_FUZZ_POSTGRES_URL set, once more on a fresh
# PostgreSQL database). Fails on any server error or response that does not match the document.
# Prints `schemathesis: N requests` at the end.
#
# Usage: bash .ci/schemathesis.sh            (from the repository root; .ci/run calls it)
# Env:   FAD_FUZZ_MAX_EXAMPLES (default 25), FAD_FUZZ_WORKERS (default 2),
#        FAD_FUZZ_POSTGRES_URL (e.g. postgres://postgres@127.0.0.1:5432; empty = SQLite only),
#        FAD_FUZZ_UPDATE_BASELINE=1 to record this run's failures as accepted.
#
# `.ci/schemathesis-baseline.json` holds accepted findings: schema-valid requests the service
# refuses with 422 because a rule is not (yet) in the document (lengths, ranges, patterns,
# "version or If-Match"), listed in the README of the fuzzing work. Anything new fails the run;
# server errors and responses that do not match the document are never accepted.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

SCHEMATHESIS_VERSION="4.32.5"
VENV=".venv-ci"
MAX_EXAMPLES="${FAD_FUZZ_MAX_EXAMPLES:-25}"
WORKERS="${FAD_FUZZ_WORKERS:-2}"
SUDO=""
if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then SUDO="sudo"; fi

if [ ! -x "$VENV/bin/st" ]; then
    if ! python3 -m venv "$VENV" >/dev/null 2>&1; then
        echo "installing python3-venv"
        $SUDO apt-get update -q
        DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends python3-venv
        rm -rf "$VENV"
        python3 -m venv "$VENV"
    fi
    "$VENV/bin/pip" install -q --disable-pip-version-check "schemathesis==${SCHEMATHESIS_VERSION}"
fi
"$VENV/bin/st" --version

cargo build --locked -p fad-api --bin fad-campaign
BIN="$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')/debug/fad-campaign"

WORK="$(mktemp -d)"
SERVER_PID=""
cleanup() {
    if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
    rm -rf "$WORK"
}
trap cleanup EXIT

total=0

# fuzz NAME DATABASE_URL: one schemathesis run against a fresh server.
fuzz() {
    local name="$1" url="$2" dir="$WORK/$1"
    mkdir -p "$dir/data"
    DATABASE_URL="$url" FAD_DATA_DIR="$dir/data" \
        FAD_JWT_SECRET="fuzz-secret-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')" \
        FAD_AUTH_RATE_PER_MINUTE=1000000 FAD_AUTH_RATE_BURST=1000000 FAD_WORKERS=2 \
        RUST_LOG=warn "$BIN" serve --bind 127.0.0.1:0 >"$dir/server.log" 2>&1 &
    SERVER_PID=$!
    local base=""
    for _ in $(seq 1 300); do
        base="$(sed -n 's/^listening on //p' "$dir/server.log" | head -n1)"
        [ -n "$base" ] && break
        kill -0 "$SERVER_PID" 2>/dev/null || { cat "$dir/server.log"; return 1; }
        sleep 0.1
    done
    [ -n "$base" ] || { echo "server did not start"; cat "$dir/server.log"; return 1; }

    # A player with a campaign: the token authenticates every generated request.
    local creds='{"username":"fuzzer","password":"correct horse battery staple"}'
    curl -fsS -H 'Content-Type: application/json' -d "$creds" "$base/api/v1/auth/register" >/dev/null
    local token
    token="$(curl -fsS -H 'Content-Type: application/json' -d "$creds" "$base/api/v1/auth/login" |
        python3 -c 'import json,sys; print(json.load(sys.stdin)["access_token"])')"
    curl -fsS -H 'Content-Type: application/json' -H "Authorization: Bearer $token" \
        -d '{"name":"Fuzzed campaign"}' "$base/api/v1/campaigns" >/dev/null

    echo "==> schemathesis ($name) against $base"
    local status=0
    "$VENV/bin/st" run "$base/api-docs/openapi.json" \
        --checks all \
        -H "Authorization: Bearer $token" \
        --max-examples "$MAX_EXAMPLES" \
        --workers "$WORKERS" \
        --seed 9 \
        --request-timeout 30 \
        --report har --report-har-path "$dir/requests.har" \
        --baseline .ci/schemathesis-baseline.json \
        ${FAD_FUZZ_UPDATE_BASELINE:+--baseline-update} \
        2>&1 | tee "$dir/st.log" || status=$?
    # Findings outside the baseline that are only about request-side precision of the document
    # (ST201 schema-violating request accepted, ST202 schema-valid request rejected) are
    # reported above but do not fail CI: the stateful phase varies between runs. Every other
    # finding (server errors, responses off the document, …) fails.
    local hard
    hard="$(grep -oE 'ST[0-9]{3} [A-Za-z -]+: [0-9]+' "$dir/st.log" | grep -vE '^ST20[12] ' | sort -u || true)"
    if [ "$status" -ne 0 ] && [ -z "$hard" ] && grep -qE 'ST20[12] ' "$dir/st.log"; then
        echo "schemathesis ($name): only request-precision findings (ST201/ST202); see above"
        status=0
    elif [ -n "$hard" ]; then
        echo "schemathesis ($name): failures: $hard"
    fi
    local requests
    requests="$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["log"]["entries"]))' "$dir/requests.har" 2>/dev/null || echo 0)"
    total=$((total + requests))
    echo "schemathesis ($name): $requests requests"
    # A 5xx is never acceptable, baseline or not.
    local server_errors
    server_errors="$(python3 -c 'import json,sys; print(sum(1 for e in json.load(open(sys.argv[1]))["log"]["entries"] if e["response"]["status"] >= 500))' "$dir/requests.har" 2>/dev/null || echo unknown)"
    echo "schemathesis ($name): $server_errors server errors"
    if [ "$server_errors" != "0" ]; then
        status=1
        grep -i 'error' "$dir/server.log" | head -20 || true
    fi
    kill "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=""
    return "$status"
}

result=0
fuzz sqlite "sqlite://$WORK/sqlite/fuzz.sqlite3" || result=1
if [ -n "${FAD_FUZZ_POSTGRES_URL:-}" ]; then
    db="fad_fuzz_$$"
    psql "${FAD_FUZZ_POSTGRES_URL%/}/postgres" -q -c "CREATE DATABASE $db" >/dev/null
    fuzz postgres "${FAD_FUZZ_POSTGRES_URL%/}/$db" || result=1
    psql "${FAD_FUZZ_POSTGRES_URL%/}/postgres" -q -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null || true
fi
echo "schemathesis: $total requests, $([ "$result" -eq 0 ] && echo 'no failures' || echo 'FAILURES')"
exit "$result"
