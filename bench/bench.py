#!/usr/bin/env python3
"""The load benchmark of issue 8, run by `bench/run` (which builds the release binary first).

Against a fresh PostgreSQL database on the local cluster it seeds a campaign over the HTTP API
(2 players, 20-unit forces of 4 platoons, 20 completed battles), starts the server and measures:

  L   pgbench -S, 8 clients, on the same cluster: the database's own single-row read ceiling
  R1  GET /api/v1/forces/{id} (20 units), 64 connections, wrk
  R2  GET /api/v1/campaigns/{id}/standings with an integration key, 64 connections, wrk
  W1  POST /api/v1/scenarios, one-shot, two inline 20-unit forces, server dice, wrk + Lua
  W2  whole post-battle sequences (result, confirm, roll, reinforcements, purchases, finalize)
      of many battles in parallel, latency per step (Python client threads)

then R1 and W1 again on the embedded SQLite default. It prints a table and writes it to
bench/RESULTS.md with the date, commit, machine and load average. Standard library only.

Usage: bench.py BINARY   (environment: FAD_BENCH_SECONDS per run, default 10;
FAD_BENCH_PG server URL, default postgres://postgres@127.0.0.1:5432; FAD_BENCH_RUST_LOG, default
info as in production: the access log line per request is part of the cost; FAD_BENCH_MALLOC_ARENA_MAX,
default 2 as the Docker image sets it, empty for glibc's default)
"""

import datetime
import http.client
import json
import os
import queue
import re
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SECONDS = int(os.environ.get("FAD_BENCH_SECONDS", "10"))
PG_SERVER = os.environ.get("FAD_BENCH_PG", "postgres://postgres@127.0.0.1:5432").rstrip("/")
RUST_LOG = os.environ.get("FAD_BENCH_RUST_LOG", "info")
MALLOC_ARENA_MAX = os.environ.get("FAD_BENCH_MALLOC_ARENA_MAX", "2")
PASSWORD = "bench walrus copper meadow tango"
W2_BATTLES = 64
W2_WORKERS = 32

TARGETS = {
    "ratio": 0.30,
    "r1_p99_ms": 25.0,
    "w1_rps": 2000.0,
    "w2_p99_ms": 50.0,
    "rss_mb": 100.0,
}


def log(message):
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


# ---------------------------------------------------------------- HTTP client (seeding, W2)


class Client:
    """One keep-alive HTTP connection."""

    def __init__(self, base):
        url = urllib.parse.urlparse(base)
        self.host, self.port = url.hostname, url.port
        self.conn = http.client.HTTPConnection(self.host, self.port, timeout=30)

    def call(self, method, path, body=None, token=None, key=None, expect=None, parse=True):
        """Sends one request and reads the whole answer; `parse=False` skips decoding the JSON
        (W2's step answers are tens of kB the workload never looks at: decoding them in this
        one Python process would cost as much CPU as the server's step, on the same cores)."""
        headers = {"Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if token:
            headers["Authorization"] = f"Bearer {token}"
        if key:
            headers["X-Api-Key"] = key
        for attempt in range(2):
            try:
                self.conn.request(method, path, body=data, headers=headers)
                response = self.conn.getresponse()
                text = response.read()
                break
            except (http.client.HTTPException, ConnectionError):
                # The server closed a keep-alive connection (e.g. after an error answer).
                self.conn.close()
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
                if attempt:
                    raise
        if response.getheader("Connection", "").lower() == "close":
            self.conn.close()
            self.conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
        value = json.loads(text) if text and (parse or not 200 <= response.status < 300) else None
        if expect is not None and response.status != expect:
            raise RuntimeError(f"{method} {path}: {response.status} {text[:400]!r}")
        return response.status, value


def squad(name):
    return {"name": name, "kind": "squad", "quality": "regular", "resolve": "steady",
            "strength": 8, "starting_strength": 8, "armour": "improved",
            "basic_weapon": "assault_rifles"}


def roster(name):
    """4 platoons of 5 squads: a 20-unit force."""
    return {"name": name, "platoons": [
        {"name": f"Platoon {p + 1}", "units": [squad(f"P{p + 1} Squad {u + 1}") for u in range(5)]}
        for p in range(4)]}


def unit_ids(force):
    return [u["id"] for p in force["platoons"] for u in p["units"]]


def register(c, name):
    c.call("POST", "/api/v1/auth/register", {"username": name, "password": PASSWORD}, expect=201)
    _, body = c.call("POST", "/api/v1/auth/login", {"username": name, "password": PASSWORD},
                     expect=200)
    return body["access_token"]


class Seeded:
    pass


def seed_campaign(base, battles):
    """2 players, a campaign with an integration key, a 20-unit force each, `battles` complete
    battles between them. Returns tokens and ids."""
    c = Client(base)
    s = Seeded()
    s.alice, s.bob = register(c, "alice"), register(c, "bob")
    _, campaign = c.call("POST", "/api/v1/campaigns", {"name": "Bench"}, s.alice, expect=201)
    s.campaign = campaign["id"]
    _, invite = c.call("POST", f"/api/v1/campaigns/{s.campaign}/invites", {}, s.alice, expect=201)
    c.call("POST", "/api/v1/campaigns/join", {"code": invite["code"]}, s.bob, expect=201)
    _, key = c.call("POST", f"/api/v1/campaigns/{s.campaign}/api-keys", {"name": "club site"},
                    s.alice, expect=201)
    s.key = key["key"]
    s.force_a = create_force(c, s, s.alice, "Alpha")
    s.force_b = create_force(c, s, s.bob, "Bravo")
    for i in range(battles):
        battle = start_battle(c, s, s.force_a, s.force_b, i)
        for token, force in ((s.alice, s.force_a), (s.bob, s.force_b)):
            for step, body in aftermath_steps():
                c.call("POST", f"/api/v1/battles/{battle}/aftermath/{force['id']}/{step}", body,
                       token, expect=200)
    return s


def create_force(c, s, token, name):
    _, force = c.call("POST", f"/api/v1/campaigns/{s.campaign}/forces", roster(name), token,
                      expect=201)
    return force


def start_battle(c, s, a, b, i, timings=None):
    """Creates a battle between forces a (alice) and b (bob), records a result (alice) and
    confirms it (bob). Returns the battle id."""
    _, battle = c.call("POST", f"/api/v1/campaigns/{s.campaign}/battles",
                       {"sides": [{"force_id": a["id"]}, {"force_id": b["id"]}]}, s.alice,
                       expect=201)
    battle = battle["id"]
    # Three units a side lose a figure, different ones each battle (20 battles hit each 3 times).
    hit = [(3 * i + k) % 20 for k in range(3)]
    losses = [{"unit_id": ids[n], "figures_lost": 1, "eliminated": False, "vehicle_damage": None}
              for ids in (unit_ids(a), unit_ids(b)) for n in hit]
    winner = a if i % 2 == 0 else b
    result = {"outcome": "win", "winner_force_id": winner["id"], "losses": losses}
    for step, token, path, body in (
            ("result", s.alice, f"/api/v1/battles/{battle}/result", result),
            ("confirm", s.bob, f"/api/v1/battles/{battle}/result/confirm", {})):
        started = time.perf_counter()
        status, answer = c.call("POST", path, body, token, parse=timings is None)
        if timings is not None:
            timings.record(step, started, status)
        elif status != 200:
            raise RuntimeError(f"{step}: {status} {answer}")
    return battle


def aftermath_steps():
    return (("roll", {}),
            ("reinforcements", {"allocations": [], "new_squad": None}),
            ("purchases", {"purchases": [{"item": "extra_reinforcement_die"}]}),
            ("finalize", {}))


# ---------------------------------------------------------------- server and processes


class Server:
    def __init__(self, binary, database_url, data_dir, name):
        self.log_path = os.path.join(data_dir, f"{name}.log")
        env = dict(os.environ,
                   DATABASE_URL=database_url, FAD_BIND="127.0.0.1:0", FAD_DATA_DIR=data_dir,
                   FAD_JWT_SECRET=secrets.token_hex(32), RUST_LOG=RUST_LOG,
                   FAD_AUTH_RATE_PER_MINUTE="100000", FAD_AUTH_RATE_BURST="100000")
        # As the Docker image runs it (docker/Dockerfile).
        if MALLOC_ARENA_MAX:
            env["MALLOC_ARENA_MAX"] = MALLOC_ARENA_MAX
        self.log_file = open(self.log_path, "w")
        self.proc = subprocess.Popen([binary, "serve"], env=env, stdout=subprocess.PIPE,
                                     stderr=self.log_file, text=True)
        deadline = time.time() + 60
        self.base = None
        while time.time() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                break
            m = re.search(r"listening on (http://\S+)", line)
            if m:
                self.base = m.group(1)
                break
        if not self.base:
            self.stop()
            raise RuntimeError(f"server did not start; see {self.log_path}")
        # Keep draining stdout so the server never blocks on a full pipe.
        threading.Thread(target=self.proc.stdout.read, daemon=True).start()
        self.peak_rss_kb = 0
        self._sampling = True
        threading.Thread(target=self._sample_rss, daemon=True).start()

    def _status(self, field):
        try:
            with open(f"/proc/{self.proc.pid}/status") as f:
                for line in f:
                    if line.startswith(field + ":"):
                        return int(line.split()[1])
        except OSError:
            pass
        return 0

    def _sample_rss(self):
        while self._sampling:
            self.peak_rss_kb = max(self.peak_rss_kb, self._status("VmRSS"))
            time.sleep(0.1)

    def rss_mb(self):
        """(RSS now, peak RSS) in MB; the kernel's VmHWM is the exact peak."""
        return self._status("VmRSS") / 1024, max(self._status("VmHWM"), self.peak_rss_kb) / 1024

    def stop(self):
        self._sampling = False
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=35)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        self.log_file.close()


def psql(sql, db="postgres"):
    subprocess.run(["psql", f"{PG_SERVER}/{db}", "-v", "ON_ERROR_STOP=1", "-q", "-c", sql],
                   check=True, stdout=subprocess.DEVNULL)


# ---------------------------------------------------------------- load generators

UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0}


def parse_wrk(out):
    def number(pattern, default=0.0):
        m = re.search(pattern, out)
        return float(m.group(1)) if m else default

    percentiles = {}
    for p, value, unit in re.findall(r"^\s+(50|99)%\s+([\d.]+)(us|ms|s)\s*$", out, re.M):
        percentiles[p] = float(value) * UNITS[unit]
    socket = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    errors = int(number(r"Non-2xx or 3xx responses: (\d+)"))
    if socket:
        errors += sum(int(x) for x in socket.groups())
    return {"rps": number(r"Requests/sec:\s+([\d.]+)"), "p50": percentiles.get("50"),
            "p99": percentiles.get("99"), "errors": errors,
            "requests": int(number(r"(\d+) requests in"))}


def wrk(url, connections, headers=(), lua=None, seconds=SECONDS):
    cmd = ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency", "--timeout", "5s"]
    for h in headers:
        cmd += ["-H", h]
    if lua:
        cmd += ["-s", lua]
    out = subprocess.run(cmd + [url], check=True, capture_output=True, text=True).stdout
    result = parse_wrk(out)
    if not result["rps"]:
        raise RuntimeError(f"wrk printed no rate:\n{out}")
    return result


def post_script(tmp, name, token, body):
    """A wrk Lua script that POSTs `body` as JSON with a bearer token."""
    path = os.path.join(tmp, f"{name}.lua")
    text = json.dumps(body)
    assert "]==]" not in text
    with open(path, "w") as f:
        f.write('wrk.method = "POST"\n')
        f.write(f"wrk.body = [==[{text}]==]\n")
        f.write('wrk.headers["Content-Type"] = "application/json"\n')
        f.write(f'wrk.headers["Authorization"] = "Bearer {token}"\n')
    return path


def pgbench(db, tmp):
    """pgbench -S with 8 clients for SECONDS; latency percentiles from a 10 % sample log."""
    url = urllib.parse.urlparse(PG_SERVER)
    conn = ["-h", url.hostname or "127.0.0.1", "-p", str(url.port or 5432),
            "-U", url.username or "postgres"]
    subprocess.run(["pgbench", "-i", "-q", "-s", "1", *conn, db], check=True,
                   capture_output=True)
    prefix = os.path.join(tmp, "pgbench")
    out = subprocess.run(["pgbench", "-S", "-n", "-c", "8", "-j", "2", "-T", str(SECONDS),
                          "-l", "--sampling-rate=0.1", f"--log-prefix={prefix}", *conn, db],
                         check=True, capture_output=True, text=True).stdout
    tps = float(re.search(r"tps = ([\d.]+)", out).group(1))
    failed = re.search(r"number of failed transactions: (\d+)", out)
    latencies = []
    for name in os.listdir(tmp):
        if name.startswith("pgbench."):
            with open(os.path.join(tmp, name)) as f:
                latencies += [int(line.split()[2]) / 1000.0 for line in f if line.strip()]
    return {"rps": tps, "p50": percentile(latencies, 50), "p99": percentile(latencies, 99),
            "errors": int(failed.group(1)) if failed else 0}


def percentile(values, p):
    if not values:
        return None
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100.0 * (len(values) - 1))))]


class Timings:
    def __init__(self):
        self.lock = threading.Lock()
        self.samples = {}
        self.errors = {}

    def record(self, step, started, status):
        elapsed = (time.perf_counter() - started) * 1000.0
        with self.lock:
            self.samples.setdefault(step, []).append(elapsed)
            if not 200 <= status < 300:
                self.errors[step] = self.errors.get(step, 0) + 1


def w2(base, s):
    """W2_BATTLES battles between fresh 20-unit forces, run by W2_WORKERS threads at once: each
    takes a battle and runs its result, confirmation and both sides' sequences."""
    c = Client(base)
    pairs = [(create_force(c, s, s.alice, f"A{i}"), create_force(c, s, s.bob, f"B{i}"))
             for i in range(W2_BATTLES)]
    work = queue.Queue()
    for i, pair in enumerate(pairs):
        work.put((i, pair))
    timings = Timings()

    def worker():
        client = Client(base)
        while True:
            try:
                i, (a, b) = work.get_nowait()
            except queue.Empty:
                return
            battle = start_battle(client, s, a, b, i, timings)
            for token, force in ((s.alice, a), (s.bob, b)):
                for step, body in aftermath_steps():
                    started = time.perf_counter()
                    status, _ = client.call(
                        "POST", f"/api/v1/battles/{battle}/aftermath/{force['id']}/{step}",
                        body, token, parse=False)
                    timings.record(step, started, status)

    started = time.perf_counter()
    threads = [threading.Thread(target=worker) for _ in range(W2_WORKERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - started
    rows = {}
    for step in ("result", "confirm", "roll", "reinforcements", "purchases", "finalize"):
        samples = timings.samples.get(step, [])
        rows[step] = {"rps": len(samples) / wall, "p50": percentile(samples, 50),
                      "p99": percentile(samples, 99), "errors": timings.errors.get(step, 0),
                      "requests": len(samples)}
    return rows


# ---------------------------------------------------------------- the run


def fmt(value, digits=1):
    return "–" if value is None else f"{value:,.{digits}f}"


def machine():
    with open("/proc/meminfo") as f:
        mem_kb = int(re.search(r"MemTotal:\s+(\d+)", f.read()).group(1))
    model = ""
    try:
        with open("/proc/cpuinfo") as f:
            m = re.search(r"model name\s*:\s*(.+)", f.read())
            model = m.group(1).strip() if m else ""
    except OSError:
        pass
    return f"{os.cpu_count()} cores ({model}), {mem_kb / 1024 / 1024:.1f} GiB memory"


def commit():
    def git(*args):
        return subprocess.run(["git", "-C", ROOT, *args], capture_output=True, text=True).stdout
    sha = git("rev-parse", "--short", "HEAD").strip() or "unknown"
    dirty = [line for line in git("status", "--porcelain").splitlines()
             if not line.endswith("bench/RESULTS.md")]
    return sha + ("-dirty" if dirty else "")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    binary = sys.argv[1]
    started = time.time()
    load_start = loadavg()
    tmp = tempfile.mkdtemp(prefix="fad-bench-")
    tag = secrets.token_hex(4)
    app_db, pgbench_db = f"fad_bench_{tag}", f"fad_bench_pgbench_{tag}"
    rows, servers = [], []
    try:
        psql(f"CREATE DATABASE {app_db}")
        psql(f"CREATE DATABASE {pgbench_db}")

        log("PostgreSQL: starting the server and seeding (2 players, 20 complete battles)")
        pg = Server(binary, f"{PG_SERVER}/{app_db}", tmp, "server-postgres")
        servers.append(pg)
        s = seed_campaign(pg.base, 20)
        force_url = f"{pg.base}/api/v1/forces/{s.force_a['id']}"
        auth = [f"Authorization: Bearer {s.alice}"]

        log(f"L: pgbench -S -c 8 for {SECONDS}s")
        lrow = pgbench(pgbench_db, tmp)
        rows.append(("L", "pgbench -S, 8 clients (PostgreSQL)", lrow))

        log("R1: GET /forces/{id}, 64 connections")
        wrk(force_url, 64, auth, seconds=2)  # warm-up: pool, statement caches
        r1 = wrk(force_url, 64, auth)
        rows.append(("R1", "GET /forces/{id}, 20 units, 64 conns", r1))

        log("R2: GET /campaigns/{id}/standings with an integration key, 64 connections")
        r2 = wrk(f"{pg.base}/api/v1/campaigns/{s.campaign}/standings", 64,
                 [f"X-Api-Key: {s.key}"])
        rows.append(("R2", "GET standings (API key, 2 forces, 20 battles), 64 conns", r2))

        scenario = {"sides": [
            {"name": "Red", "platoons": 4, "stance": "offensive", "attitude": "aggressive",
             "mission_bonuses": ["strike", "assault"], "recon_unit_ids": ["Red 1"],
             "units": [{"name": f"Red {i + 1}", "kind": "squad", "resolve": "steady"}
                       for i in range(20)]},
            {"name": "Blue", "platoons": 4, "stance": "defensive", "attitude": "cautious",
             "mission_bonuses": ["hold"],
             "units": [{"name": f"Blue {i + 1}", "kind": "squad", "resolve": "steady"}
                       for i in range(20)]}]}
        Client(pg.base).call("POST", "/api/v1/scenarios", scenario, s.alice, expect=201)
        log("W1: POST /scenarios (one-shot, 2 × 20 inline units, server dice), 64 connections")
        w1 = wrk(f"{pg.base}/api/v1/scenarios", 64,
                 lua=post_script(tmp, "w1", s.alice, scenario))
        rows.append(("W1", "POST /scenarios one-shot, 2×20 inline units, 64 conns", w1))

        log(f"W2: {W2_BATTLES} battles' post-battle sequences, {W2_WORKERS} at once")
        for step, row in w2(pg.base, s).items():
            rows.append((f"W2 {step}", f"{step}, {W2_WORKERS} battles in parallel", row))
        pg_rss_end, pg_rss_peak = pg.rss_mb()
        load_pg = loadavg()
        pg.stop()

        log("SQLite: starting the server on the embedded default and seeding")
        lite = Server(binary, f"sqlite://{tmp}/bench.sqlite3", tmp, "server-sqlite")
        servers.append(lite)
        ls = seed_campaign(lite.base, 2)
        lite_force = f"{lite.base}/api/v1/forces/{ls.force_a['id']}"
        wrk(lite_force, 64, [f"Authorization: Bearer {ls.alice}"], seconds=2)
        log("SQLite R1")
        rows.append(("R1 SQLite", "GET /forces/{id}, 20 units, 64 conns",
                     wrk(lite_force, 64, [f"Authorization: Bearer {ls.alice}"])))
        log("SQLite W1")
        rows.append(("W1 SQLite", "POST /scenarios one-shot, 64 conns",
                     wrk(f"{lite.base}/api/v1/scenarios", 64,
                         lua=post_script(tmp, "w1lite", ls.alice, scenario))))
        lite_rss_end, lite_rss_peak = lite.rss_mb()
        lite.stop()
    finally:
        for server in servers:
            server.stop()
        for db in (app_db, pgbench_db):
            try:
                psql(f"DROP DATABASE IF EXISTS {db} WITH (FORCE)")
            except subprocess.CalledProcessError:
                log(f"could not drop database {db}")
        shutil.rmtree(tmp, ignore_errors=True)

    ratio = r1["rps"] / lrow["rps"]
    w2_p99 = max(row["p99"] for name, _, row in rows if name.startswith("W2"))
    w2_errors = sum(row["errors"] for name, _, row in rows if name.startswith("W2"))
    elapsed = time.time() - started

    def verdict(ok):
        return "met" if ok else "**missed**"

    lines = [
        "# Benchmark results (issue 8)",
        "",
        "Written by `bench/run`; the newest run replaces this file.",
        "",
        f"- Date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC",
        f"- Commit: {commit()}",
        f"- Machine: {machine()}; PostgreSQL, the server and the load generators share it",
        f"- Load average (1/5/15 min): {load_start} at the start, {load_pg} after the "
        f"PostgreSQL runs, {loadavg()} at the end",
        f"- {SECONDS} s per run, wrk with 2 threads, RUST_LOG={RUST_LOG}, server "
        f"MALLOC_ARENA_MAX={MALLOC_ARENA_MAX or '(glibc default)'}; whole run "
        f"{elapsed:.0f} s",
        "",
        "| Run | What | req/s | p50 ms | p99 ms | errors |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for name, what, row in rows:
        lines.append(f"| {name} | {what} | {fmt(row['rps'], 0)} | {fmt(row['p50'], 2)} | "
                     f"{fmt(row['p99'], 2)} | {row['errors']} |")
    lines += [
        "",
        f"- R1 / L = {ratio:.2f} (target ≥ {TARGETS['ratio']:.2f}: "
        f"{verdict(ratio >= TARGETS['ratio'])}); R1 p99 {r1['p99']:.1f} ms (target < "
        f"{TARGETS['r1_p99_ms']:.0f} ms: {verdict(r1['p99'] < TARGETS['r1_p99_ms'])}); "
        f"R1 errors {r1['errors']} ({verdict(r1['errors'] == 0)})",
        f"- W1 {w1['rps']:,.0f} scenarios/s (target ≥ {TARGETS['w1_rps']:,.0f}: "
        f"{verdict(w1['rps'] >= TARGETS['w1_rps'])})",
        f"- W2 worst step p99 {w2_p99:.1f} ms (target < {TARGETS['w2_p99_ms']:.0f} ms: "
        f"{verdict(w2_p99 < TARGETS['w2_p99_ms'])}); W2 errors {w2_errors}",
        f"- Server RSS, PostgreSQL run: {pg_rss_end:.1f} MB at the end, peak {pg_rss_peak:.1f} MB "
        f"(target < {TARGETS['rss_mb']:.0f} MB: {verdict(pg_rss_end < TARGETS['rss_mb'])}); "
        f"SQLite run: {lite_rss_end:.1f} MB at the end, peak {lite_rss_peak:.1f} MB",
        "",
        "W2 rates are steps completed per second of the whole W2 phase (all steps interleave); "
        "W2 latencies are measured by the Python client and include its own overhead.",
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    with open(os.path.join(ROOT, "bench", "RESULTS.md"), "w") as f:
        f.write(text)
    log(f"written to bench/RESULTS.md in {elapsed:.0f} s")


if __name__ == "__main__":
    main()
