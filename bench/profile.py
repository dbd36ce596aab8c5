#!/usr/bin/env python3
"""CPU cost per request of the hot paths, in instructions counted by valgrind's callgrind: a
number that does not depend on how busy the machine is (wall-clock rates on a shared machine
do). Run by hand next to bench/run:

    bench/profile.py target/bench/release/fad-campaign [ROW ...]

Rows: R1 (GET /api/v1/forces/{id}), P1 (the page /forces/{id}, session cookie), P2 (the page
/battles/{id} of a played battle, session cookie), W1 (POST /api/v1/scenarios one-shot), W2 (a
post-battle sequence: result, confirm, then roll, reinforcements, purchases and finalize for
both sides, per step); all five by default. It prints each beside its target where there is
one (R1, P2 against R1, W2). It seeds a fresh
PostgreSQL database at full speed, restarts the server under callgrind with instrumentation off,
then for each row sends a few warm-up requests, zeroes the counters, sends the measured requests
one after another on one keep-alive connection and dumps. It prints instructions per request
(every thread of the server, the idle ones included) and writes each dump and its
callgrind_annotate summary (inclusive, top functions) to FAD_PROFILE_OUT (default
target/profile/). FAD_PROFILE_REQUESTS sets the measured requests of R1 and P1 (default 2000);
W1 takes a quarter as many, W2 runs FAD_PROFILE_BATTLES sequences (default 8). Needs valgrind
and the PostgreSQL of bench/run; the server runs with RUST_LOG=info as in production.
"""

import http.client
import json
import os
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402  (the seeding, client and server helpers)

REQUESTS = int(os.environ.get("FAD_PROFILE_REQUESTS", "2000"))
BATTLES = int(os.environ.get("FAD_PROFILE_BATTLES", "8"))
OUT = os.environ.get("FAD_PROFILE_OUT") or os.path.join(bench.ROOT, "target", "profile")
ROWS = ("R1", "P1", "P2", "W1", "W2")
# Instructions per request: R1 at most this, P2 at most this many R1s, a W2 step at most this.
TARGETS = {"R1": 170_000, "P2_R1": 3.0, "W2": 1_800_000}
# No webhook polling inside the measured windows: it is background work, not a request's.
QUIET = {"FAD_WEBHOOK_POLL_MS": "3600000", "FAD_WORKERS": "2"}


def callgrind_control(*args):
    subprocess.run(["callgrind_control", *args], check=True, capture_output=True)


def newest_dump(pid, before):
    """The dump file written since `before` (the set of files already there)."""
    deadline = time.time() + 60
    while time.time() < deadline:
        found = sorted(set(os.listdir(OUT)) - before)
        found = [f for f in found if f.startswith(f"callgrind.out.{pid}")]
        if found:
            path = os.path.join(OUT, found[-1])
            time.sleep(0.5)  # let callgrind finish writing it
            return path
        time.sleep(0.2)
    raise RuntimeError("callgrind wrote no dump")


def total_instructions(path):
    with open(path) as f:
        for line in f:
            m = re.match(r"(?:summary|totals):\s+(\d+)", line)
            if m:
                return int(m.group(1))
    raise RuntimeError(f"no totals in {path}")


def measure(pid, name, count, load, warmup):
    """Runs `warmup`, zeroes, runs `load` (which sends `count` requests), dumps; returns
    instructions per request and keeps the dump as OUT/NAME.callgrind with its summary."""
    warmup()
    callgrind_control("--zero", str(pid))
    started = time.time()
    load()
    elapsed = time.time() - started
    before = set(os.listdir(OUT))
    callgrind_control("--dump", str(pid))
    dump = newest_dump(pid, before)
    target = os.path.join(OUT, f"{name}.callgrind")
    shutil.move(dump, target)
    annotated = subprocess.run(
        ["callgrind_annotate", "--inclusive=yes", "--threshold=99", target],
        capture_output=True, text=True).stdout
    with open(os.path.join(OUT, f"{name}.txt"), "w") as f:
        f.write(annotated)
    per_request = total_instructions(target) / count
    bench.log(f"{name}: {count} requests in {elapsed:.0f} s under callgrind, "
              f"{per_request:,.0f} instructions per request")
    return per_request


def main():
    args = sys.argv[1:]
    if not args or args[0].startswith("-"):
        sys.exit(__doc__)
    binary, rows = args[0], [r.upper() for r in args[1:]] or list(ROWS)
    unknown = set(rows) - set(ROWS)
    if unknown:
        sys.exit(f"unknown rows {sorted(unknown)}; choose from {ROWS}")
    if not shutil.which("valgrind"):
        sys.exit("valgrind is missing (apt-get install valgrind)")
    os.makedirs(OUT, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="fad-profile-")
    db = f"fad_profile_{secrets.token_hex(4)}"
    url = f"{bench.PG_SERVER}/{db}"
    secret = secrets.token_hex(32)
    server = None
    results = {}
    try:
        bench.psql(f"CREATE DATABASE {db}")
        bench.log("seeding at full speed")
        server = bench.Server(binary, url, tmp, "seed", jwt_secret=secret, extra_env=QUIET)
        s = bench.seed_campaign(server.base, 2)
        cookie = bench.page_session(server.base, "alice")
        c = bench.Client(server.base)
        pairs = [(bench.create_force(c, s, s.alice, f"A{i}"),
                  bench.create_force(c, s, s.bob, f"B{i}")) for i in range(BATTLES + 1)]
        server.stop()

        bench.log("restarting under callgrind")
        wrapper = ["valgrind", "--tool=callgrind", "--instr-atstart=no",
                   f"--callgrind-out-file={OUT}/callgrind.out.%p"]
        server = bench.Server(binary, url, tmp, "callgrind", wrapper=wrapper, jwt_secret=secret,
                              extra_env=QUIET)
        pid = server.proc.pid
        callgrind_control("--instr=on", str(pid))
        client = bench.Client(server.base, timeout=600)

        if "R1" in rows:
            path = f"/api/v1/forces/{s.force_a['id']}"

            def r1(n):
                return lambda: [client.call("GET", path, token=s.alice, expect=200,
                                            parse=False) for _ in range(n)]
            results["R1"] = measure(pid, "R1", REQUESTS, r1(REQUESTS), r1(20))

        base = urllib.parse.urlparse(server.base)

        def page(path, n):
            def run():
                conn = http.client.HTTPConnection(base.hostname, base.port, timeout=600)
                for _ in range(n):
                    conn.request("GET", path, headers={"Cookie": cookie})
                    response = conn.getresponse()
                    response.read()
                    if response.status != 200:
                        raise RuntimeError(f"GET {path}: {response.status}")
                conn.close()
            return run

        for name, path in (("P1", f"/forces/{s.force_a['id']}"), ("P2", f"/battles/{s.battle}")):
            if name in rows:
                results[name] = measure(pid, name, REQUESTS, page(path, REQUESTS), page(path, 20))

        if "W1" in rows:
            body = bench.SCENARIO
            count = max(1, REQUESTS // 4)

            def w1(n):
                return lambda: [client.call("POST", "/api/v1/scenarios", body, s.alice,
                                            expect=201, parse=False) for _ in range(n)]
            results["W1"] = measure(pid, "W1", count, w1(count), w1(10))

        if "W2" in rows:
            steps_per_battle = 2 + 2 * len(bench.aftermath_steps())
            queue = list(enumerate(pairs))

            def w2(n):
                def run():
                    for _ in range(n):
                        i, (a, b) = queue.pop()
                        battle = bench.start_battle(client, s, a, b, i)
                        for token, force in ((s.alice, a), (s.bob, b)):
                            for step, step_body in bench.aftermath_steps():
                                client.call("POST", f"/api/v1/battles/{battle}/aftermath/"
                                            f"{force['id']}/{step}", step_body, token,
                                            expect=200, parse=False)
                return run
            results["W2"] = measure(pid, "W2", BATTLES * steps_per_battle, w2(BATTLES), w2(1))
    finally:
        if server:
            server.stop()
        try:
            bench.psql(f"DROP DATABASE IF EXISTS {db} WITH (FORCE)")
        except subprocess.CalledProcessError:
            bench.log(f"could not drop database {db}")
        shutil.rmtree(tmp, ignore_errors=True)

    print(f"commit {bench.commit()}; PGSSLMODE={bench.PGSSLMODE}; instructions per request "
          "(callgrind, all server threads)")
    for name, value in results.items():
        print(f"{name}\t{value:,.0f}{verdict(name, value, results)}")
    with open(os.path.join(OUT, "summary.json"), "w") as f:
        json.dump({"commit": bench.commit(), "pgsslmode": bench.PGSSLMODE,
                   "per_request": results}, f, indent=1)


def verdict(name, value, results):
    """The row's target and whether it is met, if it has one."""
    if name == "R1":
        return f"\t(target ≤ {TARGETS['R1']:,}: {'met' if value <= TARGETS['R1'] else 'missed'})"
    if name == "P2" and "R1" in results:
        ratio = value / results["R1"]
        ok = ratio <= TARGETS["P2_R1"]
        return f"\t= {ratio:.1f} × R1 (target ≤ {TARGETS['P2_R1']:.0f}: {'met' if ok else 'missed'})"
    if name == "W2":
        return f"\t(target ≤ {TARGETS['W2']:,}: {'met' if value <= TARGETS['W2'] else 'missed'})"
    return ""


if __name__ == "__main__":
    main()
