"""S1, the game-night streams: N battle pages' live streams open on one server and
idle for a while (the server's and PostgreSQL's CPU meanwhile, and the server's RSS), then one
public change to the battle (its result) fanned out to all of them (the time from sending the
change until each stream has its event: p50, p99 and the last).

Every stream is one raw socket read by one `selectors` loop in this process, so thousands fit
(the open-file limit is raised to its hard limit first). The times include this loop's own
reading; the change is sent from this process too. Standard library only.
"""

import http.client
import json
import resource
import selectors
import socket
import time
import urllib.parse

EVENT = b"event: changed"


def raise_open_files(n):
    """Room for `n` sockets, or an error that says so."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        soft = hard
    if soft != resource.RLIM_INFINITY and soft < n + 64:
        raise RuntimeError(f"S1: the open-file limit {soft} is too low for {n} streams")


def open_streams(base, path, token, n):
    """`n` streams of `path` with the bearer `token`; each answered 200 before this returns."""
    raise_open_files(n)
    url = urllib.parse.urlparse(base)
    request = (f"GET {path} HTTP/1.1\r\nHost: {url.hostname}:{url.port}\r\n"
               f"Authorization: Bearer {token}\r\nAccept: text/event-stream\r\n\r\n").encode()
    socks = []
    for _ in range(n):
        s = socket.create_connection((url.hostname, url.port), timeout=30)
        s.sendall(request)
        socks.append(s)
    for s in socks:
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = s.recv(4096)
            if not chunk:
                raise RuntimeError(f"S1: a stream closed before answering: {head[:200]!r}")
            head += chunk
        status = head.split(b"\r\n", 1)[0]
        if b" 200 " not in status:
            raise RuntimeError(f"S1: a stream answered {status!r}")
        s.setblocking(False)
    return socks


def drain(socks, seconds, until_event=False, started=None):
    """Reads every socket for `seconds` (keep-alives); with `until_event`, until each has sent
    an event, answering the seconds from `started` to each one's event (missing ones left out)."""
    selector = selectors.DefaultSelector()
    for i, s in enumerate(socks):
        selector.register(s, selectors.EVENT_READ, i)
    seen, tails = {}, {}
    deadline = time.perf_counter() + seconds
    try:
        while time.perf_counter() < deadline and not (until_event and len(seen) == len(socks)):
            for key, _ in selector.select(timeout=0.05):
                i = key.data
                try:
                    data = key.fileobj.recv(65536)
                except BlockingIOError:
                    continue
                if not data:
                    selector.unregister(key.fileobj)
                    continue
                if until_event and i not in seen:
                    text = tails.get(i, b"") + data
                    if EVENT in text:
                        seen[i] = time.perf_counter() - started
                    tails[i] = text[-len(EVENT):]
    finally:
        selector.close()
    return list(seen.values())


def close(socks):
    for s in socks:
        try:
            s.close()
        except OSError:
            pass


def post(base, path, token, body):
    url = urllib.parse.urlparse(base)
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
    conn.request("POST", path, body=json.dumps(body), headers={
        "Content-Type": "application/json", "Authorization": f"Bearer {token}"})
    response = conn.getresponse()
    text = response.read()
    conn.close()
    if response.status != 200:
        raise RuntimeError(f"S1: POST {path}: {response.status} {text[:300]!r}")
