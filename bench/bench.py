#!/usr/bin/env python3
"""The load benchmark, run by `bench/run` (which builds the release binary first).

Against a fresh PostgreSQL database on the local cluster it seeds a campaign over the HTTP API
(2 players, 20-unit forces of 4 platoons, 20 completed battles), starts the server and measures:

  L   pgbench -S, 8 clients, on the same cluster: the database's own single-row read ceiling
  R1  GET /api/v1/forces/{id} (20 units), 64 connections, wrk
  P1  GET /forces/{id}, the roster page as HTML, signed in by session cookie (logged in through
      the login form with its CSRF token), 64 connections, wrk
  P2  GET /battles/{id}, the battle page, likewise; skipped with a message while that path
      answers 404 (a build without the battle page)
  R2  GET /api/v1/campaigns/{id}/standings with an integration key, 64 connections, wrk
  W1  POST /api/v1/scenarios, one-shot, two inline 20-unit forces, server dice, from 64
      accounts in turn (a club's members, each within an hour's quota), wrk + Lua
  W2  whole post-battle sequences (result, confirm, roll, reinforcements, purchases, finalize)
      of many battles in parallel, latency per step (Python client threads)
  S1  game night's live streams (bench/streams.py): N battle streams (FAD_BENCH_S1, default
      1000,5000) open and idle for FAD_BENCH_S1_IDLE seconds (default 20): server and
      PostgreSQL CPU, server RSS; then the battle's result fanned out to all of them: time until
      each stream has its event, p50/p99 and the last
  M1  a game night on one process (bench/mix.py): 1,000 open streams over 50 battles while
      client threads send battle pages, roster pages, post-battle steps and one-shot scenarios
      in a fixed ratio for 20 s: p50/p99 per kind, CPU per request of the mix

then, with FAD_BENCH_PEER=1, the peer (bench/peer/: the same read in Django + PostgreSQL under
gunicorn, one worker per core, in a virtualenv this script creates) on its own database of the
same cluster; then R1 and W1 again on the embedded SQLite default. It prints a table and writes
it to bench/RESULTS.md with the date, commit, machine and load average. Standard library only
(the peer's packages go into its virtualenv).

Usage: bench.py BINARY   (environment: FAD_BENCH_SECONDS per run, default 10;
FAD_BENCH_PG server URL, default postgres://postgres@127.0.0.1:5432; FAD_BENCH_PGSSLMODE, libpq's
sslmode for every client (the server, pgbench, psql), default disable as in the Docker
deployment (prefer encrypts on a server with TLS on); FAD_BENCH_RUST_LOG, default
info as in production: the access log line per request is part of the cost;
FAD_BENCH_MIMALLOC_PURGE_DELAY, default 0, FAD_BENCH_MALLOC_ARENA_MAX, default 2, and
FAD_BENCH_MALLOC_MMAP_THRESHOLD, default 131072, as the Docker image sets them, empty for the
allocators' defaults; FAD_BENCH_PEER=1 adds the peer,
FAD_BENCH_PEER_VENV its virtualenv, default target/bench/peer-venv; FAD_BENCH_ONLY=S1 or M1 runs
that row alone and prints it without writing bench/RESULTS.md; FAD_BENCH_M1_STREAMS,
FAD_BENCH_M1_BATTLES, FAD_BENCH_M1_SECONDS size M1)
"""

import datetime
import http.client
import json
import os
import queue
import re
import resource
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

import mix
import streams

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SECONDS = int(os.environ.get("FAD_BENCH_SECONDS", "10"))
PG_SERVER = os.environ.get("FAD_BENCH_PG", "postgres://postgres@127.0.0.1:5432").rstrip("/")
# Debian's PostgreSQL package turns TLS on (a self-signed certificate), so libpq's default
# (`prefer`) would encrypt every round trip of the server, pgbench and psql on this loopback; the
# Docker image's PostgreSQL (docker/compose.yml) has no TLS. Every client here inherits this.
PGSSLMODE = os.environ.setdefault("PGSSLMODE", os.environ.get("FAD_BENCH_PGSSLMODE", "disable"))
RUST_LOG = os.environ.get("FAD_BENCH_RUST_LOG", "info")
MIMALLOC_PURGE_DELAY = os.environ.get("FAD_BENCH_MIMALLOC_PURGE_DELAY", "0")
MALLOC_ARENA_MAX = os.environ.get("FAD_BENCH_MALLOC_ARENA_MAX", "2")
MALLOC_MMAP_THRESHOLD = os.environ.get("FAD_BENCH_MALLOC_MMAP_THRESHOLD", "131072")
PEER = os.environ.get("FAD_BENCH_PEER", "") not in ("", "0")
PEER_DIR = os.path.join(ROOT, "bench", "peer")
PEER_VENV = os.environ.get("FAD_BENCH_PEER_VENV") or os.path.join(ROOT, "target", "bench",
                                                                    "peer-venv")
PASSWORD = "bench walrus copper meadow tango"
S1_SIZES = [int(n) for n in os.environ.get("FAD_BENCH_S1", "1000,5000").split(",") if n.strip()]
S1_IDLE = int(os.environ.get("FAD_BENCH_S1_IDLE", "20"))
ONLY = os.environ.get("FAD_BENCH_ONLY", "")
W2_BATTLES = 64
W1_ACCOUNTS = 64
W2_WORKERS = 32

TARGETS = {
    "r1_ratio": 0.40,  # R1 / L
    "r1_p99_ms": 20.0,
    "w1_ratio": 0.12,  # W1 / L
    "w2_p99_ms": 50.0,
    "p1_r1": 0.80,  # P1 / R1
    "r1_peer": 5.0,  # R1 / peer
    "rss_mb": 100.0,
    "s1_idle_core_pct": 3.0,  # 5,000 idle streams, server + PostgreSQL, % of one core
    "s1_fanout_p99_ms": 250.0,  # one change to 1,000 streams
    "p2_r1": 0.50,  # P2 / R1
    "p2_p99_ms": 50.0,
}


# W1's one-shot scenario (also M1's): two inline 20-unit forces, server dice.
SCENARIO = {"sides": [
    {"name": "Red", "platoons": 4, "stance": "offensive", "attitude": "aggressive",
     "mission_bonuses": ["strike", "assault"], "recon_unit_ids": ["Red 1"],
     "units": [{"name": f"Red {i + 1}", "kind": "squad", "resolve": "steady"}
               for i in range(20)]},
    {"name": "Blue", "platoons": 4, "stance": "defensive", "attitude": "cautious",
     "mission_bonuses": ["hold"],
     "units": [{"name": f"Blue {i + 1}", "kind": "squad", "resolve": "steady"}
               for i in range(20)]}]}


def log(message):
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


# ---------------------------------------------------------------- HTTP client (seeding, W2)


class Client:
    """One keep-alive HTTP connection."""

    def __init__(self, base, timeout=30):
        url = urllib.parse.urlparse(base)
        self.host, self.port, self.timeout = url.hostname, url.port, timeout
        self.conn = http.client.HTTPConnection(self.host, self.port, timeout=timeout)

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
                self.conn = http.client.HTTPConnection(self.host, self.port,
                                                       timeout=self.timeout)
                if attempt:
                    raise
        if response.getheader("Connection", "").lower() == "close":
            self.conn.close()
            self.conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
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
    s.battle = None
    for i in range(battles):
        battle = start_battle(c, s, s.force_a, s.force_b, i)
        s.battle = battle
        for token, force in ((s.alice, s.force_a), (s.bob, s.force_b)):
            for step, body in aftermath_steps():
                c.call("POST", f"/api/v1/battles/{battle}/aftermath/{force['id']}/{step}", body,
                       token, expect=200)
    return s


def page_session(base, username):
    """Logs in through the login page as a browser does (its form cookie and CSRF token) and
    returns the `Cookie` header value of the new session."""
    url = urllib.parse.urlparse(base)
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
    conn.request("GET", "/login")
    response = conn.getresponse()
    html = response.read().decode()
    if response.status != 200:
        raise RuntimeError(f"GET /login: {response.status}")
    form_cookie = cookies(response).get("fad_form")
    token = re.search(r'name="csrf_token" value="([^"]+)"', html)
    if not form_cookie or not token:
        raise RuntimeError("GET /login: no form cookie or CSRF token")
    body = urllib.parse.urlencode({"username": username, "password": PASSWORD,
                                   "csrf_token": token.group(1), "next": "/"})
    conn.request("POST", "/login", body=body, headers={
        "Content-Type": "application/x-www-form-urlencoded", "Cookie": f"fad_form={form_cookie}"})
    response = conn.getresponse()
    response.read()
    session = cookies(response).get("fad_session")
    conn.close()
    if response.status != 303 or not session:
        raise RuntimeError(f"POST /login: {response.status}, session cookie {bool(session)}")
    return f"fad_session={session}"


def cookies(response):
    """name → value of a response's `Set-Cookie` headers."""
    found = {}
    for header in response.msg.get_all("Set-Cookie") or []:
        name, _, rest = header.partition("=")
        found[name.strip()] = rest.split(";", 1)[0].strip()
    return found


def get_page(base, path, cookie):
    """(status, content type, body) of one GET with the session cookie."""
    url = urllib.parse.urlparse(base)
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
    conn.request("GET", path, headers={"Cookie": cookie, "Accept": "text/html"})
    response = conn.getresponse()
    body = response.read().decode(errors="replace")
    conn.close()
    return response.status, response.getheader("Content-Type", ""), body


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
            ("finalize", {"forgo_reinforcements": True}))


# ---------------------------------------------------------------- server and processes


class Server:
    """The server on a free port. `wrapper` runs it under another program (bench/profile.py's
    valgrind), `jwt_secret` keeps tokens valid across restarts, `extra_env` adds variables."""

    def __init__(self, binary, database_url, data_dir, name, wrapper=(), jwt_secret=None,
                 extra_env=None):
        self.log_path = os.path.join(data_dir, f"{name}.log")
        env = dict(os.environ,
                   DATABASE_URL=database_url, FAD_BIND="127.0.0.1:0", FAD_DATA_DIR=data_dir,
                   FAD_JWT_SECRET=jwt_secret or secrets.token_hex(32), RUST_LOG=RUST_LOG,
                   FAD_AUTH_RATE_PER_MINUTE="100000", FAD_AUTH_RATE_BURST="100000",
                   # The quotas would answer W1 and W2 with 429 within a second. W1 spreads its
                   # writes over W1_ACCOUNTS accounts, so each account's hour holds about as
                   # many as the default quota allows (the quota check reads at most that many).
                   FAD_MAX_SCENARIOS_PER_ACCOUNT_PER_HOUR="4000000000",
                   FAD_MAX_BATTLES_PER_CAMPAIGN_PER_DAY="4000000000",
                   FAD_MAX_FORCES_PER_CAMPAIGN="4000000000")
        # As the Docker image runs it (docker/Dockerfile).
        if MIMALLOC_PURGE_DELAY:
            env["MIMALLOC_PURGE_DELAY"] = MIMALLOC_PURGE_DELAY
        if MALLOC_ARENA_MAX:
            env["MALLOC_ARENA_MAX"] = MALLOC_ARENA_MAX
        if MALLOC_MMAP_THRESHOLD:
            env["MALLOC_MMAP_THRESHOLD_"] = MALLOC_MMAP_THRESHOLD
        env.update(extra_env or {})
        self.log_file = open(self.log_path, "w")
        self.proc = subprocess.Popen([*wrapper, binary, "serve"], env=env,
                                     stdout=subprocess.PIPE, stderr=self.log_file, text=True)
        deadline = time.time() + (600 if wrapper else 60)
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


class Peer:
    """The Django peer (bench/peer/) under gunicorn, one sync worker per core, on `db`: creates
    its virtualenv when missing or when bench/peer/requirements.txt changed, migrates, seeds
    (`manage.py seed`), starts gunicorn on a free port. `token` and `force_id` are the seeded
    reader's."""

    def __init__(self, db, data_dir):
        python = peer_python()
        env = dict(os.environ, PEER_DATABASE_URL=f"{PG_SERVER}/{db}",
                   DJANGO_SETTINGS_MODULE="peer.settings", PYTHONDONTWRITEBYTECODE="1")
        manage = [python, os.path.join(PEER_DIR, "manage.py")]
        subprocess.run(manage + ["migrate", "-v0"], env=env, check=True, cwd=PEER_DIR)
        seeded = json.loads(subprocess.run(manage + ["seed"], env=env, check=True, cwd=PEER_DIR,
                                           capture_output=True, text=True).stdout)
        self.token, self.force_id = seeded["token"], seeded["force_id"]
        self.log_path = os.path.join(data_dir, "peer.log")
        self.log_file = open(self.log_path, "w")
        gunicorn = os.path.join(os.path.dirname(python), "gunicorn")
        self.proc = subprocess.Popen(
            [gunicorn, "--chdir", PEER_DIR, "--workers", str(os.cpu_count() or 1),
             "--bind", "127.0.0.1:0", "--no-control-socket", "peer.wsgi"],
            env=env, stdout=self.log_file, stderr=subprocess.PIPE, text=True)
        self.base = None
        deadline = time.time() + 60
        while time.time() < deadline:
            line = self.proc.stderr.readline()
            if not line:
                break
            self.log_file.write(line)
            m = re.search(r"Listening at: (http://\S+)", line)
            if m:
                self.base = m.group(1)
                break
        if not self.base:
            self.stop()
            raise RuntimeError(f"the peer did not start; see {self.log_path}")
        threading.Thread(target=self._drain, daemon=True).start()
        # gunicorn listens before its workers have loaded Django: wait for a first answer.
        while time.time() < deadline:
            try:
                status, _, _ = get_page(self.base, f"/api/forces/{self.force_id}",
                                        "")
            except OSError:
                status = None
            if status is not None:
                break
            time.sleep(0.2)

    def _drain(self):
        for line in self.proc.stderr:
            self.log_file.write(line)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=35)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        self.log_file.close()


def peer_python():
    """The peer virtualenv's python, creating or updating the virtualenv first."""
    requirements = os.path.join(PEER_DIR, "requirements.txt")
    stamp = os.path.join(PEER_VENV, "bench-requirements.txt")
    python = os.path.join(PEER_VENV, "bin", "python")
    with open(requirements) as f:
        wanted = f.read()
    try:
        with open(stamp) as f:
            current = f.read()
    except OSError:
        current = None
    if current != wanted or not os.path.exists(python):
        log(f"peer: installing bench/peer/requirements.txt into {PEER_VENV}")
        subprocess.run([sys.executable, "-m", "venv", PEER_VENV], check=True)
        subprocess.run([python, "-m", "pip", "install", "-q", "--disable-pip-version-check",
                        "-r", requirements], check=True)
        with open(stamp, "w") as f:
            f.write(wanted)
    return python


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


def post_script(tmp, name, tokens, body):
    """A wrk Lua script that POSTs `body` as JSON, each request with the next of the bearer
    `tokens` in turn."""
    path = os.path.join(tmp, f"{name}.lua")
    text = json.dumps(body)
    assert "]==]" not in text
    with open(path, "w") as f:
        f.write('wrk.method = "POST"\n')
        f.write(f"wrk.body = [==[{text}]==]\n")
        f.write("local tokens = {%s}\n" % ", ".join(f'"{t}"' for t in tokens))
        f.write("local sent = 0\n")
        f.write("request = function()\n"
                "  sent = sent + 1\n"
                "  return wrk.format(nil, nil, {[\"Content-Type\"] = \"application/json\",\n"
                "    [\"Authorization\"] = \"Bearer \" .. tokens[sent % #tokens + 1]})\n"
                "end\n")
    return path


def log_rss(server):
    """Logs the server's RSS after a phase (which phase grows it)."""
    now, peak = server.rss_mb()
    log(f"server RSS {now:.1f} MB, peak {peak:.1f} MB")


def w1_accounts(base, prefix="w1"):
    """W1_ACCOUNTS accounts that generate the W1 scenarios, as a club's members would: one
    account's quota window stays as short as a real account's (`prefix` names them: each phase
    on one database registers its own)."""
    c = Client(base)
    return [register(c, f"{prefix}-{i:02}") for i in range(W1_ACCOUNTS)]


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


def cpu_seconds(pids):
    """CPU seconds (user + system) each of `pids` has used so far, by pid (gone ones left out)."""
    tick = os.sysconf("SC_CLK_TCK")
    used = {}
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            used[pid] = (int(fields[11]) + int(fields[12])) / tick
        except (OSError, IndexError, ValueError):
            pass
    return used


def postgres_pids():
    out = subprocess.run(["pgrep", "-x", "postgres"], capture_output=True, text=True).stdout
    return [int(p) for p in out.split()]


class CpuSplit:
    """CPU time the server, PostgreSQL and the load generator (this script's finished children,
    wrk) spend from its creation to `per_request`: what bounds a rate on the shared cores."""

    def __init__(self, server_pid):
        self.server_pid, self.pg_pids = server_pid, postgres_pids()
        self.before = self._now()

    def _now(self):
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        return (cpu_seconds([self.server_pid]), cpu_seconds(self.pg_pids),
                children.ru_utime + children.ru_stime)

    def per_request(self, requests):
        """Milliseconds per request of each, and the rate the cores allow at that cost."""
        after = self._now()

        def spent(i):
            return sum(after[i][p] - self.before[i][p] for p in after[i] if p in self.before[i])

        ms = {"server": spent(0), "postgres": spent(1), "load": after[2] - self.before[2]}
        ms = {k: 1000 * v / max(requests, 1) for k, v in ms.items()}
        ms["ceiling"] = os.cpu_count() * 1000 / sum(ms.values())
        return ms


def client_cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def w2(base, s, server_pid):
    """W2_BATTLES battles between fresh 20-unit forces, run by W2_WORKERS threads at once: each
    takes a battle and runs its result, confirmation and both sides' sequences. Also answers
    the CPU time the server, PostgreSQL and this client spent per step meanwhile: what bounds
    the latency when W2_WORKERS steps are always in flight on the machine's cores."""
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

    pg_pids = postgres_pids()
    cpu_before = (cpu_seconds([server_pid]), cpu_seconds(pg_pids), client_cpu_seconds())
    started = time.perf_counter()
    threads = [threading.Thread(target=worker) for _ in range(W2_WORKERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - started
    cpu_after = (cpu_seconds([server_pid]), cpu_seconds(pg_pids), client_cpu_seconds())

    def spent(before, after):
        return sum(after[p] - before[p] for p in after if p in before)

    steps = sum(len(v) for v in timings.samples.values())
    cpu = {"steps": steps, "wall": wall,
           "server": spent(cpu_before[0], cpu_after[0]),
           "postgres": spent(cpu_before[1], cpu_after[1]),
           "client": cpu_after[2] - cpu_before[2]}
    rows = {}
    for step in ("result", "confirm", "roll", "reinforcements", "purchases", "finalize"):
        samples = timings.samples.get(step, [])
        rows[step] = {"rps": len(samples) / wall, "p50": percentile(samples, 50),
                      "p99": percentile(samples, 99), "errors": timings.errors.get(step, 0),
                      "requests": len(samples)}
    return rows, cpu


# ---------------------------------------------------------------- the run


def pages(base, cookie, s):
    """P1 and P2: the force page and the battle page, signed in by `cookie`. P2 is a skipped
    row while the battle page answers 404 (a build without it)."""
    force_path = f"/forces/{s.force_a['id']}"
    status, kind, body = get_page(base, force_path, cookie)
    if status != 200 or not kind.startswith("text/html") or "Alpha" not in body:
        raise RuntimeError(f"GET {force_path}: {status} {kind} {body[:300]!r}")
    log("P1: GET /forces/{id} as a page, session cookie, 64 connections")
    header = [f"Cookie: {cookie}"]
    wrk(f"{base}{force_path}", 64, header, seconds=2)
    p1 = wrk(f"{base}{force_path}", 64, header)
    battle_path = f"/battles/{s.battle}"
    status, kind, body = get_page(base, battle_path, cookie)
    if status == 404:
        reason = f"{battle_path} answers 404 (no battle page in this build)"
        log(f"P2 skipped: {reason}")
        return p1, {"skipped": reason}
    if status != 200 or not kind.startswith("text/html"):
        raise RuntimeError(f"GET {battle_path}: {status} {kind} {body[:300]!r}")
    log("P2: GET /battles/{id} as a page, session cookie, 64 connections")
    wrk(f"{base}{battle_path}", 64, header, seconds=2)
    return p1, wrk(f"{base}{battle_path}", 64, header)


def s1(binary, database_url, tmp, s, n):
    """S1 for `n` streams on a server of its own (caps raised to fit them) on the seeded
    database: a fresh battle of the two forces, `n` streams of it as alice, S1_IDLE seconds idle,
    then alice records its result. Answers the row and what the notes say."""
    server = Server(binary, database_url, tmp, f"server-s1-{n}", extra_env={
        "FAD_MAX_STREAMS": str(n + 100), "FAD_MAX_STREAMS_PER_ACCOUNT": str(n + 100),
        "FAD_MAX_STREAMS_PER_ADDRESS": str(n + 100)})
    socks = []
    try:
        c = Client(server.base)
        _, body = c.call("POST", "/api/v1/auth/login", {"username": "alice", "password": PASSWORD},
                         expect=200)
        token = body["access_token"]
        _, battle = c.call("POST", f"/api/v1/campaigns/{s.campaign}/battles",
                           {"sides": [{"force_id": s.force_a["id"]},
                                      {"force_id": s.force_b["id"]}]}, token, expect=201)
        battle = battle["id"]
        log(f"S1: opening {n} streams of one battle")
        socks = streams.open_streams(server.base, f"/battles/{battle}/events", token, n)
        rss_open = server.rss_mb()[0]
        log(f"S1: {n} streams idle for {S1_IDLE}s")
        pg_pids = postgres_pids()
        before = (cpu_seconds([server.proc.pid]), cpu_seconds(pg_pids))
        started = time.perf_counter()
        streams.drain(socks, S1_IDLE)
        wall = time.perf_counter() - started
        after = (cpu_seconds([server.proc.pid]), cpu_seconds(pg_pids))

        def pct(i):
            used = sum(after[i][p] - before[i][p] for p in after[i] if p in before[i])
            return 100.0 * used / wall

        idle = {"server": pct(0), "postgres": pct(1), "rss_mb": server.rss_mb()[0],
                "rss_open_mb": rss_open}
        log(f"S1: the battle's result fanned out to {n} streams")
        losses = [{"unit_id": unit_ids(f)[0], "figures_lost": 1, "eliminated": False,
                   "vehicle_damage": None} for f in (s.force_a, s.force_b)]
        result = {"outcome": "win", "winner_force_id": s.force_a["id"], "losses": losses}
        started = time.perf_counter()
        streams.post(server.base, f"/api/v1/battles/{battle}/result", token, result)
        times = [1000.0 * t for t in streams.drain(socks, 30, until_event=True, started=started)]
        row = {"rps": None, "p50": percentile(times, 50), "p99": percentile(times, 99),
               "errors": n - len(times), "last": max(times) if times else None}
        return row, idle
    finally:
        streams.close(socks)
        server.stop()


def s1_notes(results):
    """The notes' lines for S1's runs (`results`: n → (row, idle))."""
    lines = []
    for n, (row, idle) in results.items():
        total = idle["server"] + idle["postgres"]
        line = (f"- S1 {n:,} idle streams for {S1_IDLE} s: server {idle['server']:.2f} % of a "
                f"core, PostgreSQL {idle['postgres']:.2f} %, together {total:.2f} %")
        if n >= 5000:
            line += (f" (target < {TARGETS['s1_idle_core_pct']:.0f} % at 5,000: "
                     f"{'met' if total < TARGETS['s1_idle_core_pct'] else '**missed**'})")
        line += (f"; server RSS {idle['rss_open_mb']:.1f} MB with them open, "
                 f"{idle['rss_mb']:.1f} MB after idling")
        if n >= 5000:
            ok = idle["rss_mb"] < TARGETS["rss_mb"]
            line += f" (target < {TARGETS['rss_mb']:.0f} MB: {'met' if ok else '**missed**'})"
        p99 = row["p99"]
        line += (f"; fan-out of one change: p50 {fmt(row['p50'], 1)} ms, p99 {fmt(p99, 1)} ms, "
                 f"last {fmt(row['last'], 1)} ms, {row['errors']} streams without it")
        if n == 1000 and p99 is not None:
            ok = p99 < TARGETS["s1_fanout_p99_ms"] and row["errors"] == 0
            line += (f" (target p99 < {TARGETS['s1_fanout_p99_ms']:.0f} ms at 1,000: "
                     f"{'met' if ok else '**missed**'})")
        lines.append(line)
    return lines


def s1_rows(binary, database_url, tmp, s):
    """S1 for each size in S1_SIZES: the table's rows and the notes' lines."""
    results = {n: s1(binary, database_url, tmp, s, n) for n in S1_SIZES}
    rows = [(f"S1 {n}", f"one change to {n:,} open battle streams (ms until each has it)", row)
            for n, (row, _) in results.items()]
    return rows, s1_notes(results)


def only(binary, which):
    """FAD_BENCH_ONLY=S1 or M1: seeds a fresh database, runs that row alone, prints it."""
    tmp = tempfile.mkdtemp(prefix="fad-bench-")
    app_db = f"fad_bench_{secrets.token_hex(4)}"
    try:
        psql(f"CREATE DATABASE {app_db}")
        url = f"{PG_SERVER}/{app_db}"
        seeder = Server(binary, url, tmp, "server-seed")
        try:
            s = seed_campaign(seeder.base, 0)
        finally:
            seeder.stop()
        if which == "M1":
            rows, notes = mix.m1_rows(binary, url, tmp, s, SCENARIO)
        else:
            rows, notes = s1_rows(binary, url, tmp, s)
    finally:
        psql(f"DROP DATABASE IF EXISTS {app_db} WITH (FORCE)")
        shutil.rmtree(tmp, ignore_errors=True)
    print("| Run | What | req/s | p50 ms | p99 ms | errors |\n|---|---|---:|---:|---:|---:|")
    for name, what, row in rows:
        print(f"| {name} | {what} | {fmt(row['rps'], 0)} | {fmt(row['p50'], 2)} | "
              f"{fmt(row['p99'], 2)} | {row['errors']} |")
    print("\n" + "\n".join(notes))


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
    if ONLY in ("S1", "M1"):
        return only(binary, ONLY)
    started = time.time()
    load_start = loadavg()
    tmp = tempfile.mkdtemp(prefix="fad-bench-")
    tag = secrets.token_hex(4)
    app_db, pgbench_db = f"fad_bench_{tag}", f"fad_bench_pgbench_{tag}"
    peer_db = f"fad_bench_peer_{tag}"
    rows, servers = [], []
    p1 = p2 = peer_row = None
    try:
        psql(f"CREATE DATABASE {app_db}")
        psql(f"CREATE DATABASE {pgbench_db}")
        if PEER:
            psql(f"CREATE DATABASE {peer_db}")

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
        log_rss(pg)

        cookie = page_session(pg.base, "alice")
        p1, p2 = pages(pg.base, cookie, s)
        rows.append(("P1", "page /forces/{id} (HTML, session cookie), 64 conns", p1))
        rows.append(("P2", "page /battles/{id} (HTML, session cookie), 64 conns", p2))
        log_rss(pg)

        log("R2: GET /campaigns/{id}/standings with an integration key, 64 connections")
        r2 = wrk(f"{pg.base}/api/v1/campaigns/{s.campaign}/standings", 64,
                 [f"X-Api-Key: {s.key}"])
        rows.append(("R2", "GET standings (API key, 2 forces, 20 battles), 64 conns", r2))
        log_rss(pg)

        scenario = SCENARIO
        Client(pg.base).call("POST", "/api/v1/scenarios", scenario, s.alice, expect=201)
        log("W1: POST /scenarios (one-shot, 2 × 20 inline units, server dice), 64 connections")
        w1_lua = post_script(tmp, "w1", w1_accounts(pg.base), scenario)
        w1_cpu = CpuSplit(pg.proc.pid)
        w1 = wrk(f"{pg.base}/api/v1/scenarios", 64, lua=w1_lua)
        w1_cpu = w1_cpu.per_request(w1["requests"])
        rows.append(("W1", "POST /scenarios one-shot, 2×20 inline units, 64 conns", w1))
        log_rss(pg)

        log(f"W2: {W2_BATTLES} battles' post-battle sequences, {W2_WORKERS} at once")
        w2_rows, w2_cpu = w2(pg.base, s, pg.proc.pid)
        for step, row in w2_rows.items():
            rows.append((f"W2 {step}", f"{step}, {W2_WORKERS} battles in parallel", row))
        log_rss(pg)
        pg_rss_end, pg_rss_peak = pg.rss_mb()
        pg.stop()

        log(f"M1: the game-night mix beside {mix.M1_STREAMS} open streams")
        m1_table, m1_lines = mix.m1_rows(binary, f"{PG_SERVER}/{app_db}", tmp, s, scenario)
        rows += m1_table

        log(f"S1: {', '.join(map(str, S1_SIZES))} open battle streams")
        s1_table, s1_lines = s1_rows(binary, f"{PG_SERVER}/{app_db}", tmp, s)
        rows += s1_table
        load_pg = loadavg()

        if PEER:
            log("Peer: Django + gunicorn on its own database, seeding")
            peer = Peer(peer_db, tmp)
            servers.append(peer)
            peer_url = f"{peer.base}/api/forces/{peer.force_id}"
            peer_auth = [f"Authorization: Token {peer.token}"]
            wrk(peer_url, 64, peer_auth, seconds=2)
            log("Peer R1: GET /api/forces/{id}, 64 connections")
            peer_row = wrk(peer_url, 64, peer_auth)
            rows.append(("Peer R1", f"Django + gunicorn ({os.cpu_count()} workers), same read, "
                                    "64 conns", peer_row))
            peer.stop()

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
                         lua=post_script(tmp, "w1lite", w1_accounts(lite.base), scenario))))
        lite_rss_end, lite_rss_peak = lite.rss_mb()
        lite.stop()
    finally:
        for server in servers:
            server.stop()
        for db in (app_db, pgbench_db) + ((peer_db,) if PEER else ()):
            try:
                psql(f"DROP DATABASE IF EXISTS {db} WITH (FORCE)")
            except subprocess.CalledProcessError:
                log(f"could not drop database {db}")
        shutil.rmtree(tmp, ignore_errors=True)

    ratio = r1["rps"] / lrow["rps"]
    w1_ratio = w1["rps"] / lrow["rps"]
    w2_p99 = max(row["p99"] for name, _, row in rows if name.startswith("W2"))
    w2_errors = sum(row["errors"] for name, _, row in rows if name.startswith("W2"))
    elapsed = time.time() - started

    def verdict(ok):
        return "met" if ok else "**missed**"

    lines = [
        "# Benchmark results",
        "",
        "Written by `bench/run`; the newest run replaces this file.",
        "",
        f"- Date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC",
        f"- Commit: {commit()}",
        f"- Machine: {machine()}; PostgreSQL, the server and the load generators share it",
        f"- Load average (1/5/15 min): {load_start} at the start, {load_pg} after the "
        f"PostgreSQL runs, {loadavg()} at the end",
        f"- {SECONDS} s per run, wrk with 2 threads, PGSSLMODE={PGSSLMODE}, RUST_LOG={RUST_LOG}, server "
        f"MIMALLOC_PURGE_DELAY={MIMALLOC_PURGE_DELAY or '(mimalloc default)'} "
        f"MALLOC_ARENA_MAX={MALLOC_ARENA_MAX or '(glibc default)'} "
        f"MALLOC_MMAP_THRESHOLD_={MALLOC_MMAP_THRESHOLD or '(glibc default)'}; whole run "
        f"{elapsed:.0f} s",
        "",
        "| Run | What | req/s | p50 ms | p99 ms | errors |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for name, what, row in rows:
        if row.get("skipped"):
            lines.append(f"| {name} | {what}: skipped, {row['skipped']} | – | – | – | – |")
            continue
        lines.append(f"| {name} | {what} | {fmt(row['rps'], 0)} | {fmt(row['p50'], 2)} | "
                     f"{fmt(row['p99'], 2)} | {row['errors']} |")
    lines += [
        "",
        f"- R1 / L = {ratio:.2f} (target ≥ {TARGETS['r1_ratio']:.2f}: "
        f"{verdict(ratio >= TARGETS['r1_ratio'])}); R1 p99 {r1['p99']:.1f} ms (target < "
        f"{TARGETS['r1_p99_ms']:.0f} ms at 64 connections: "
        f"{verdict(r1['p99'] < TARGETS['r1_p99_ms'])}); "
        f"R1 errors {r1['errors']} ({verdict(r1['errors'] == 0)})",
        f"- P1 / R1 = {p1['rps'] / r1['rps']:.2f} (target ≥ {TARGETS['p1_r1']:.2f}: "
        f"{verdict(p1['rps'] / r1['rps'] >= TARGETS['p1_r1'])}); P1 p99 {p1['p99']:.1f} ms, "
        f"errors {p1['errors']}",
        (f"- P2 skipped: {p2['skipped']}" if p2.get("skipped") else
         f"- P2 / R1 = {p2['rps'] / r1['rps']:.2f} (target ≥ {TARGETS['p2_r1']:.2f}: "
         f"{verdict(p2['rps'] / r1['rps'] >= TARGETS['p2_r1'])}); P2 {p2['rps']:,.0f} pages/s, "
         f"p99 {p2['p99']:.1f} ms (target < {TARGETS['p2_p99_ms']:.0f} ms at 64 connections: "
         f"{verdict(p2['p99'] < TARGETS['p2_p99_ms'])}), errors {p2['errors']}"),
        (f"- R1 / peer = {r1['rps'] / peer_row['rps']:.1f} (target ≥ "
         f"{TARGETS['r1_peer']:.0f}: {verdict(r1['rps'] / peer_row['rps'] >= TARGETS['r1_peer'])})"
         f"; peer p99 {peer_row['p99']:.1f} ms, errors {peer_row['errors']}"
         if peer_row else "- Peer not run (FAD_BENCH_PEER=1 runs it)"),
        f"- W1 / L = {w1_ratio:.3f}, {w1['rps']:,.0f} scenarios/s (target ≥ "
        f"{TARGETS['w1_ratio']:.2f}: {verdict(w1_ratio >= TARGETS['w1_ratio'])})",
        f"- W1 CPU per scenario: server {w1_cpu['server']:.2f} ms, PostgreSQL "
        f"{w1_cpu['postgres']:.2f} ms, wrk {w1_cpu['load']:.2f} ms; {os.cpu_count()} cores / "
        f"their sum = {w1_cpu['ceiling']:,.0f} scenarios/s is the most the machine allows",
        f"- W2 worst step p99 {w2_p99:.1f} ms (target < {TARGETS['w2_p99_ms']:.0f} ms: "
        f"{verdict(w2_p99 < TARGETS['w2_p99_ms'])}); W2 errors {w2_errors}",
        f"- W2 CPU per step ({w2_cpu['steps']} steps in {w2_cpu['wall']:.1f} s, "
        f"{W2_WORKERS} always in flight on {os.cpu_count()} cores): server "
        f"{1000 * w2_cpu['server'] / w2_cpu['steps']:.2f} ms, PostgreSQL "
        f"{1000 * w2_cpu['postgres'] / w2_cpu['steps']:.2f} ms, this client "
        f"{1000 * w2_cpu['client'] / w2_cpu['steps']:.2f} ms; "
        f"{W2_WORKERS} × their sum / {os.cpu_count()} cores = "
        f"{W2_WORKERS * 1000 * (w2_cpu['server'] + w2_cpu['postgres'] + w2_cpu['client']) / w2_cpu['steps'] / os.cpu_count():.0f} ms"
        " is the mean latency the machine allows",
        f"- Server RSS, PostgreSQL run: {pg_rss_end:.1f} MB at the end, peak {pg_rss_peak:.1f} MB "
        f"(target < {TARGETS['rss_mb']:.0f} MB: {verdict(pg_rss_end < TARGETS['rss_mb'])}); "
        f"SQLite run: {lite_rss_end:.1f} MB at the end, peak {lite_rss_peak:.1f} MB",
        *m1_lines,
        *s1_lines,
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
