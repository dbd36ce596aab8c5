"""M1, a game night on one process: M1_STREAMS battle pages' live streams open (spread over
M1_BATTLES battles, as each table's players and onlookers watch their battle) while client
threads send a mix of the requests a game night makes, for M1_SECONDS: p50/p99 per kind, and
the CPU the server and PostgreSQL spend per request of the mix.

The mix is a reading, not a measurement of a real club: per 20 requests, 9 battle pages, 5
roster pages, 4 post-battle steps (result, confirm, then both sides' roll, reinforcements,
purchases and finalize, run in order on the watched battles, so each step wakes that battle's
streams) and 2 one-shot scenarios. People look far more often than they write.

The load comes from Python threads in this process, which shares the machine's cores with the
server and PostgreSQL: the latencies include this client's own time.
"""

import http.client
import os
import queue
import random
import threading
import time
import urllib.parse

import bench
import streams

M1_STREAMS = int(os.environ.get("FAD_BENCH_M1_STREAMS", "1000"))
M1_BATTLES = int(os.environ.get("FAD_BENCH_M1_BATTLES", "50"))
M1_SECONDS = int(os.environ.get("FAD_BENCH_M1_SECONDS", "20"))
M1_WORKERS = 16
MIX = (("battle page", 9), ("roster page", 5), ("post-battle step", 4), ("scenario", 2))
KINDS = [kind for kind, _ in MIX]


def battle_steps(tokens, battle, a, b, i):
    """The post-battle steps of `battle` between forces `a` (alice's) and `b` (bob's) in order:
    (token, path, body)."""
    hit = [(3 * i + k) % 20 for k in range(3)]
    losses = [{"unit_id": ids[n], "figures_lost": 1, "eliminated": False,
               "vehicle_damage": None} for ids in (bench.unit_ids(a), bench.unit_ids(b))
              for n in hit]
    result = {"outcome": "win", "winner_force_id": a["id"], "losses": losses}
    yield tokens["alice"], f"/api/v1/battles/{battle}/result", result
    yield tokens["bob"], f"/api/v1/battles/{battle}/result/confirm", {}
    for token, force in ((tokens["alice"], a), (tokens["bob"], b)):
        for step, body in bench.aftermath_steps():
            yield token, f"/api/v1/battles/{battle}/aftermath/{force['id']}/{step}", body


class Pages:
    """One keep-alive connection for pages, signed in by a session cookie (as a browser)."""

    def __init__(self, base, cookie):
        self.base, self.cookie = base, cookie
        self.conn = None

    def get(self, path):
        for attempt in range(2):
            if self.conn is None:
                url = urllib.parse.urlparse(self.base)
                self.conn = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
            try:
                self.conn.request("GET", path, headers={"Cookie": self.cookie,
                                                        "Accept": "text/html"})
                response = self.conn.getresponse()
                response.read()
                return response.status
            except (http.client.HTTPException, ConnectionError):
                self.conn.close()
                self.conn = None
                if attempt:
                    raise
        return 0


def new_battle(client, s, tokens, n):
    """A battle between two fresh forces (a force plays one battle at a time), and the forces."""
    a = bench.create_force(client, s, tokens["alice"], f"M1 A{n}")
    b = bench.create_force(client, s, tokens["bob"], f"M1 B{n}")
    _, battle = client.call("POST", f"/api/v1/campaigns/{s.campaign}/battles",
                            {"sides": [{"force_id": a["id"]}, {"force_id": b["id"]}]},
                            tokens["alice"], expect=201)
    return battle["id"], a, b


def m1(binary, database_url, tmp, s, scenario):
    """M1 on a server of its own (stream caps raised to fit) on the seeded database `s`;
    `scenario` is W1's one-shot body. Answers (rows by kind, notes' CPU figures)."""
    server = bench.Server(binary, database_url, tmp, "server-m1", extra_env={
        "FAD_MAX_STREAMS": str(M1_STREAMS + 100),
        "FAD_MAX_STREAMS_PER_ACCOUNT": str(M1_STREAMS + 100),
        "FAD_MAX_STREAMS_PER_ADDRESS": str(M1_STREAMS + 100)})
    socks = []
    try:
        c = bench.Client(server.base)
        tokens = {}
        for name in ("alice", "bob"):
            _, body = c.call("POST", "/api/v1/auth/login",
                             {"username": name, "password": bench.PASSWORD}, expect=200)
            tokens[name] = body["access_token"]
        cookie = bench.page_session(server.base, "alice")
        scenario_tokens = bench.w1_accounts(server.base, "m1")
        played = [new_battle(c, s, tokens, n) for n in range(M1_BATTLES)]
        watched = [battle for battle, _, _ in played]
        bench.log(f"M1: opening {M1_STREAMS} streams over {M1_BATTLES} battles")
        per_battle = max(1, M1_STREAMS // M1_BATTLES)
        for battle in watched:
            socks += streams.open_streams(server.base, f"/battles/{battle}/events",
                                          tokens["alice"], per_battle)
        reader = threading.Thread(target=streams.drain, args=(socks, M1_SECONDS + 5),
                                  daemon=True)
        reader.start()
        work = queue.Queue()
        for i, game in enumerate(played):
            work.put((i, game))
        timings = bench.Timings()
        failures = []
        deadline = time.perf_counter() + M1_SECONDS
        weights = [w for _, w in MIX]

        def worker(n):
            client = bench.Client(server.base)
            pages = Pages(server.base, cookie)
            rng = random.Random(n)
            steps = iter(())
            made = 0
            while time.perf_counter() < deadline:
                kind = rng.choices(KINDS, weights)[0]
                started = time.perf_counter()
                if kind == "battle page":
                    status = pages.get(f"/battles/{rng.choice(watched)}")
                elif kind == "roster page":
                    status = pages.get(f"/forces/{s.force_a['id']}")
                elif kind == "scenario":
                    status, _ = client.call("POST", "/api/v1/scenarios", scenario,
                                            rng.choice(scenario_tokens), parse=False)
                else:
                    step = next(steps, None)
                    if step is None:
                        # The next watched battle, or, when each has been played, a new one.
                        try:
                            i, (battle, a, b) = work.get_nowait()
                        except queue.Empty:
                            made += 1
                            i = 1000 * (n + 1) + made
                            battle, a, b = new_battle(client, s, tokens, i)
                        steps = battle_steps(tokens, battle, a, b, i)
                        step = next(steps)
                        started = time.perf_counter()
                    token, path, body = step
                    status, answer = client.call("POST", path, body, token, parse=False)
                    if not 200 <= status < 300 and not failures:
                        failures.append(f"{path}: {status} {str(answer)[:300]}")
                timings.record(kind, started, status)

        cpu = bench.CpuSplit(server.proc.pid)
        bench.log(f"M1: the mix for {M1_SECONDS}s, {M1_WORKERS} client threads")
        started = time.perf_counter()
        threads = [threading.Thread(target=worker, args=(n,)) for n in range(M1_WORKERS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        wall = time.perf_counter() - started
        requests = sum(len(v) for v in timings.samples.values())
        split = cpu.per_request(requests)
        for failure in failures:
            bench.log(f"M1: a step failed: {failure}")
        rows = {}
        for kind in KINDS:
            samples = timings.samples.get(kind, [])
            rows[kind] = {"rps": len(samples) / wall, "p50": bench.percentile(samples, 50),
                          "p99": bench.percentile(samples, 99),
                          "errors": timings.errors.get(kind, 0), "requests": len(samples)}
        notes = {"requests": requests, "wall": wall, "server": split["server"],
                 "postgres": split["postgres"], "rss_mb": server.rss_mb()[1]}
        return rows, notes
    finally:
        streams.close(socks)
        server.stop()


def m1_rows(binary, database_url, tmp, s, scenario):
    """M1's table rows and notes' line."""
    rows, notes = m1(binary, database_url, tmp, s, scenario)
    table = [(f"M1 {kind}", f"{kind}, game-night mix beside {M1_STREAMS:,} open streams", row)
             for kind, row in rows.items()]
    line = (f"- M1 ({notes['requests']:,} requests in {notes['wall']:.1f} s, "
            f"{M1_WORKERS} client threads, {M1_STREAMS:,} streams over {M1_BATTLES} battles; "
            f"mix per 20 requests: "
            + ", ".join(f"{w} {k}" for k, w in MIX)
            + f"): CPU per request of the mix: server {notes['server']:.2f} ms, PostgreSQL "
            f"{notes['postgres']:.2f} ms; server peak RSS {notes['rss_mb']:.1f} MB")
    return table, [line]
