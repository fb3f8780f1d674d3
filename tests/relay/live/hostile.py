#!/usr/bin/env python3
"""The softchat CLI against hostile relays on loopback (tests/relay/live/hostile_relay.py: a
relay scripted frame by frame; tests/relay/live/tls_front.py: its TLS), one scenario per way
a relay can hurt the client, each with the checks of the bound or behaviour the CLI keeps:

  neg_msg_memory  a NEG-MSG of 100,000 ids: peak memory a small multiple of the message
  neg_endless     a reconciliation that never ends, fresh ids every round: the ids to fetch
                  stop at their bound
  auth_flood      AUTH challenges as fast as the relay can: the send queue stays bounded (a
                  relay that never reads), answers at most one a second (one that reads)
  big_messages    a 20 MB NOTICE, a 2 MB EVENT: over their type's limit, dropped unstored;
                  a message dripped slowly: --timeout holds
  sync_filter     sync's fetch by id keeps kinds and #p: an event of another kind is dropped
  terminal_text   C0, C1 and bidi controls in an OK reason: none reaches the terminal
  stderr_flood    100,000 malformed messages: a few lines of stderr and a count
  handshake       a redirect is not followed; the Host header carries the port
  unnamed_ok      refusals whose OK id is empty (nostr-relay's): each shown for its event
  no_nip77        a relay without NIP-77, silent or saying so: sync lists by REQ in seconds
  tls             wss:// with a test CA (--ca-file); other hosts' and self-signed
                  certificates refused

  hostile.py --cli PATH [--backend NAME] [--only NAME[,NAME...]] [--measure] [--sanitized]

Every CLI run is its own process group, killed whole when the run ends (passed, failed or timed
out) and again, for any still alive, when the driver exits. The memory checks read each run's
peak resident size (wait4's ru_maxrss); --measure prints the numbers of every run;
--sanitized (a sanitizer build) leaves them unjudged, saying so. Python standard library
only, and the openssl command for the TLS certificates."""

import argparse
import asyncio
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hostile_relay as hr  # noqa: E402
import tls_front  # noqa: E402

CHECKS = []
GROUPS = set()  # the process groups of every CLI run still alive


def check(name, ok, detail=""):
    CHECKS.append((name, ok))
    print("%s %s%s" % ("ok  " if ok else "FAIL", name, (": " + detail) if detail and not ok else ""))
    sys.stdout.flush()


# Runs argv[2:] as a child (stdin, stdout, stderr inherited) and writes its exit status and
# peak RSS in KiB (wait4's ru_maxrss) to the file argv[1]. A small process of its own, so the
# child's peak before exec is this one's, a few MiB, not the driver's.
SPAWN = """
import os, sys
pid = os.fork()
if pid == 0:
    try:
        os.execv(sys.argv[2], sys.argv[2:])
    finally:
        os._exit(127)
_, status, ru = os.wait4(pid, 0)
with open(sys.argv[1], "w") as f:
    f.write("%d %d" % (os.waitstatus_to_exitcode(status), ru.ru_maxrss))
"""


def check_memory(cli, name, r, limit_mib):
    """The peak RSS of run r under limit_mib; not judged in a sanitizer build (--sanitized),
    whose shadow memory and quarantine of freed blocks are in the RSS: said, not counted."""
    if cli.o.sanitized:
        print("skip %s: peak %d MiB not judged in a sanitizer build" % (name, r.maxrss // 1024))
        return
    check("%s: peak %d MiB, under %d" % (name, r.maxrss // 1024, limit_mib),
          r.maxrss < limit_mib * 1024, repr(r))


def kill_group(pgid):
    try:
        os.killpg(pgid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    GROUPS.discard(pgid)


class Run:
    """A finished CLI run: exit status, output, peak RSS (KiB) and wall time."""

    def __init__(self, rc, out, err, maxrss, took):
        self.rc, self.out, self.err, self.maxrss, self.took = rc, out, err, maxrss, took

    def __repr__(self):
        return "rc %s, %.1f s, %d MiB peak, stderr %d bytes: %s" % (
            self.rc, self.took, self.maxrss // 1024, len(self.err),
            self.err[:600].decode("utf-8", "replace"))


class Cli:
    def __init__(self, o, tmp):
        self.o, self.tmp = o, tmp

    def argv(self, args):
        return [self.o.cli] + (["--backend", self.o.backend] if self.o.backend else []) + args

    def run(self, args, stdin=b"", timeout=120):
        """Runs the CLI in a process group of its own, through SPAWN (so its peak RSS is its
        own, not this driver's copied by fork); the group is killed when it ends."""
        t0 = time.monotonic()
        fd, report = tempfile.mkstemp(dir=self.tmp)
        os.close(fd)
        p = subprocess.Popen([sys.executable, "-S", "-c", SPAWN, report] + self.argv(args),
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, start_new_session=True)
        GROUPS.add(p.pid)
        bufs = {}

        def pump(name, f):
            bufs[name] = f.read()

        def feed():
            try:
                p.stdin.write(stdin)
                p.stdin.close()
            except (BrokenPipeError, OSError):
                pass

        threads = [threading.Thread(target=pump, args=("out", p.stdout)),
                   threading.Thread(target=pump, args=("err", p.stderr)),
                   threading.Thread(target=feed)]
        for t in threads:
            t.daemon = True
            t.start()
        timer = threading.Timer(timeout, kill_group, args=(p.pid,))
        timer.start()
        try:
            p.wait()
        finally:
            timer.cancel()
            kill_group(p.pid)  # whatever it started dies with it
        for t in threads:
            t.join(10)
        with open(report) as f:
            fields = f.read().split()
        os.unlink(report)
        rc, maxrss = (int(fields[0]), int(fields[1])) if len(fields) == 2 else (-9, 0)
        r = Run(rc, bufs.get("out", b""), bufs.get("err", b""), maxrss, time.monotonic() - t0)
        if self.o.measure:
            print("     run %s: %r" % (" ".join(args[:2]), r))
        return r

    def key(self, name):
        path = os.path.join(self.tmp, name + ".key")
        if not os.path.exists(path):
            r = self.run(["key", "new", "--out", path])
            assert r.rc == 0, r.err
        pub = self.run(["key", "pub", "--sec-file", path]).out.decode().strip()
        return path, pub

    def sign(self, key, template):
        r = self.run(["event", "sign", "--sec-file", key], json.dumps(template).encode())
        assert r.rc == 0, r.err
        return json.loads(r.out)


def serve(script, **kw):
    return hr.ScriptedRelay(script, **kw)


SCENARIOS = []


def scenario(fn):
    SCENARIOS.append(fn)
    return fn


def fetch_args(relay, *extra):
    return ["relay", "fetch", "--url", relay.url, "--filter", '{"kinds":[1059]}'] + list(extra)


async def answer_req(c, m):
    """An honest relay's answer to a REQ with nothing stored: EOSE."""
    if m[0] == "REQ":
        await c.send(["EOSE", m[1]])


# ---- 1. a NEG-MSG's memory -------------------------------------------------------------------
@scenario
def neg_msg_memory(cli):
    """A relay answers an empty --have with every id it holds in one NEG-MSG (what an honest
    relay sends, too): the CLI's peak memory stays a small multiple of the message."""
    key, _ = cli.key("bob")
    n = 100000
    msg = (b"\x61" + hr.neg_id_list([os.urandom(32) for _ in range(n)])).hex()

    async def script(c):
        while True:
            m = await c.recv_json()
            if m[0] == "NEG-OPEN":
                await c.send(["NEG-MSG", m[1], msg])
            await answer_req(c, m)

    relay = serve(script)
    try:
        r = cli.run(["relay", "sync", "--url", relay.url, "--sec-file", key, "--timeout", "60"])
    finally:
        relay.stop()
    mib = len(msg) / 2 / 1048576.0
    check("neg-msg memory: a NEG-MSG of %d ids (%.1f MiB of ids) read, its ids asked for" % (
        n, mib), r.rc == 1 and b"did not send %d" % n in r.err, repr(r))
    check_memory(cli, "neg-msg memory", r, 64)


# ---- 2. the ids to fetch -----------------------------------------------------------------------
@scenario
def neg_endless(cli):
    """A relay that never ends the reconciliation, listing fresh ids in every round: the list
    of ids to fetch stops at its stated bound (exit 1, said) instead of growing."""
    key, _ = cli.key("bob")
    rounds = [0]

    async def script(c):
        while True:
            m = await c.recv_json()
            if m[0] in ("NEG-OPEN", "NEG-MSG"):
                rounds[0] += 1
                ids = [os.urandom(32) for _ in range(50000)]
                body = b"\x61" + hr.neg_id_list(ids, bound_ts=1000) + \
                    hr.neg_fingerprint(os.urandom(16), prev_ts=1000)
                await c.send(["NEG-MSG", m[1], body.hex()])
            await answer_req(c, m)

    relay = serve(script)
    try:
        r = cli.run(["relay", "sync", "--url", relay.url, "--sec-file", key, "--timeout", "60"])
    finally:
        relay.stop()
    check("neg endless: the ids to fetch stop at 1,000,000 (%d rounds, %.1f s)" % (
        rounds[0], r.took), r.rc == 1 and b"1000000" in r.err and r.took < 50, repr(r))
    check_memory(cli, "neg endless", r, 160)


# ---- 3. an AUTH flood ---------------------------------------------------------------------------
@scenario
def auth_flood(cli):
    """A relay that sends AUTH challenges as fast as it can: one that never reads (the send
    queue must not grow) and one that reads (the CLI signs at a bounded rate)."""
    key, _ = cli.key("bob")
    seconds = 8

    async def deaf(c):
        i = 0
        while True:  # a thousand challenges a write
            await c.send_raw(b"".join(c.frame(b'["AUTH","challenge-%d"]' % (i + k))
                                      for k in range(1000)))
            i += 1000

    relay = serve(deaf)
    try:
        r = cli.run(fetch_args(relay, "--sec-file", key, "--timeout", str(seconds)))
    finally:
        relay.stop()
    check("auth flood: a relay that never reads: the command ends at its timeout (%d s)" %
          seconds, r.rc == 2 and b"timed out" in r.err, repr(r))
    check_memory(cli, "auth flood: a relay that never reads, after %d s" % seconds, r, 20)

    answers = [0]

    async def reading(c):
        async def count():
            while True:
                m = await c.recv_json()
                answers[0] += m[0] == "AUTH"

        reader = asyncio.ensure_future(count())
        try:
            i = 0
            while not reader.done():
                i += 1
                await c.send(["AUTH", "challenge-%d" % i])
                if i % 100 == 0:
                    await asyncio.sleep(0.01)
        finally:
            reader.cancel()

    relay = serve(reading)
    try:
        r = cli.run(fetch_args(relay, "--sec-file", key, "--timeout", "5"))
    finally:
        relay.stop()
    check("auth flood: a relay that reads gets %d AUTH answers in 5 s, at most 10" % answers[0],
          r.rc == 2 and 1 <= answers[0] <= 10, repr(r))


# ---- 5. message sizes by type ---------------------------------------------------------------
@scenario
def big_messages(cli):
    """A 20 MB NOTICE and a 2 MB EVENT: each over its type's limit, dropped without being
    stored whole; the fetch then ends at the EOSE."""
    notice = json.dumps(["NOTICE", "x" * (20 << 20)])

    async def script(c):
        while True:
            m = await c.recv_json()
            if m[0] == "REQ":
                await c.send(notice)
                await c.send(json.dumps(["EVENT", m[1], {"content": "y" * (2 << 20)}]))
                await c.send(["EOSE", m[1]])

    relay = serve(script)
    try:
        r = cli.run(fetch_args(relay, "--timeout", "30"))
    finally:
        relay.stop()
    check("big messages: a 20 MB NOTICE and a 2 MB EVENT dropped, said; the EOSE ends the fetch",
          r.rc == 0 and b"limit" in r.err, repr(r))
    check_memory(cli, "big messages", r, 32)

    async def drip(c):
        while True:
            m = await c.recv_json()
            if m[0] == "REQ":
                await c.send_raw(bytes([0x81, 127]) + (50 << 20).to_bytes(8, "big") +
                                 b'["NEG-MSG","sync","')
                while True:
                    await c.send_raw(b"00" * 512)
                    await asyncio.sleep(0.05)

    relay = serve(drip)
    try:
        r = cli.run(fetch_args(relay, "--timeout", "3"))
    finally:
        relay.stop()
    check("big messages: a message dripped slowly ends at --timeout (%.1f s)" % r.took,
          r.rc == 2 and b"timed out" in r.err and r.took < 6, repr(r))


# ---- 6. sync's fetch by id -------------------------------------------------------------------
@scenario
def sync_filter(cli):
    """A relay lists the id of an event that is no gift wrap to the key and sends it when asked:
    the fetch by id keeps kinds:[1059] and #p, the event is not printed."""
    key, pub = cli.key("bob")
    other, _ = cli.key("mallory")
    ev = cli.sign(other, {"kind": 1, "content": "not a wrap", "tags": []})
    reqs = []

    async def script(c):
        while True:
            m = await c.recv_json()
            if m[0] == "NEG-OPEN":
                body = b"\x61" + hr.neg_id_list([bytes.fromhex(ev["id"])])
                await c.send(["NEG-MSG", m[1], body.hex()])
            elif m[0] == "REQ":
                reqs.append(m[2:])
                await c.send(["EVENT", m[1], ev])
                await c.send(["EOSE", m[1]])

    relay = serve(script)
    try:
        r = cli.run(["relay", "sync", "--url", relay.url, "--sec-file", key, "--timeout", "20"])
    finally:
        relay.stop()
    f = reqs[0][0] if reqs and reqs[0] else {}
    check("sync filter: the fetch by id asks for kinds [1059] and #p (%s)" % json.dumps(f)[:160],
          f.get("kinds") == [1059] and f.get("#p") == [pub] and f.get("ids") == [ev["id"]],
          json.dumps(reqs)[:400])
    check("sync filter: the kind 1 event is not printed (exit 1)",
          r.rc == 1 and r.out == b"", repr(r))


# ---- 7. text for the terminal ------------------------------------------------------------------
BAD_TEXT = "blocked: \x1b[31m \u009b31m \u009d0;title\u0007 \u202eevil\u2066 \u200f"
BAD_BYTES = (b"\x1b", b"\x07", b"\xc2\x9b", b"\xc2\x9d", b"\xe2\x80\xae", b"\xe2\x81\xa6",
             b"\xe2\x80\x8f")


@scenario
def terminal_text(cli):
    """An OK reason and a NOTICE with C0 and C1 controls and bidi overrides: none reaches stderr,
    nor stdout's JSON verbatim."""
    key, _ = cli.key("alice")
    ev = cli.sign(key, {"kind": 1, "content": "hello", "tags": []})

    async def script(c):
        while True:
            m = await c.recv_json()
            if m[0] == "EVENT":
                await c.send(["NOTICE", BAD_TEXT])
                await c.send(["OK", m[1]["id"], False, BAD_TEXT])

    relay = serve(script)
    try:
        r = cli.run(["relay", "publish", "--url", relay.url, "--timeout", "20"],
                    (json.dumps(ev) + "\n").encode())
    finally:
        relay.stop()
    leaked = [b for b in BAD_BYTES if b in r.err or b in r.out]
    line = json.loads(r.out) if r.out.strip() else {}
    check("terminal text: no C0, C1 or bidi control on stderr or stdout (%s)" % (
        leaked or "none"), r.rc == 1 and not leaked and b"blocked:" in r.err and
          line.get("message") == BAD_TEXT, repr(r))


# ---- 8. stderr ------------------------------------------------------------------------------
@scenario
def stderr_flood(cli):
    """100,000 malformed messages: stderr stays a few lines, with a count of the rest."""
    async def script(c):
        while True:
            m = await c.recv_json()
            if m[0] == "REQ":
                for i in range(100000):
                    await c.send('["EOSE"]')
                await c.send(["EOSE", m[1]])

    relay = serve(script)
    try:
        r = cli.run(fetch_args(relay, "--timeout", "60"))
    finally:
        relay.stop()
    check("stderr flood: 100,000 malformed messages: %d bytes of stderr, under 4096" % len(r.err),
          r.rc == 0 and len(r.err) < 4096 and b"100000" in r.err, repr(r))


# ---- 9. the HTTP upgrade ----------------------------------------------------------------------
@scenario
def handshake(cli):
    """A redirect is not followed (to another port here: the AUTH event would still name the
    first URL); the Host header carries the port."""
    async def script(c):
        while True:
            await answer_req(c, await c.recv_json())

    target = serve(script)
    redirect = serve(script, handshake=lambda req: (
        "HTTP/1.1 302 Found\r\nLocation: ws://127.0.0.1:%d/\r\nContent-Length: 0\r\n\r\n" %
        target.port).encode())
    key, _ = cli.key("alice")
    ev = cli.sign(key, {"kind": 1, "content": "hello", "tags": []})
    try:
        r = cli.run(fetch_args(redirect, "--timeout", "10"))
        # publish reconnects after a drop: a redirect is final all the same
        p = cli.run(["relay", "publish", "--url", redirect.url, "--timeout", "30"],
                    (json.dumps(ev) + "\n").encode())
        h = cli.run(fetch_args(target, "--timeout", "10"))
    finally:
        redirect.stop()
        target.stop()
    check("handshake: a redirect to another port is not followed (exit 2 at once, said)",
          r.rc == 2 and p.rc == 2 and target.connections == 1 and b"redirect" in r.err and
          b"redirect" in p.err and p.took < 5, repr(r) + repr(p))
    host = target.requests[-1].get("host") if target.requests else None
    check("handshake: the Host header is host:port (%s)" % host,
          h.rc == 0 and host == "127.0.0.1:%d" % target.port, repr(h))


# ---- real relays' deviations -------------------------------------------------------------------
@scenario
def unnamed_ok(cli):
    """A relay refuses events with an OK whose id is empty (PyPI nostr-relay does): each
    refusal is printed with its reason for the event it answers (the relay answers in order),
    and the accepted event of the same batch gets its line."""
    key, _ = cli.key("alice")
    evs = [cli.sign(key, {"kind": 1, "content": c, "tags": []})
           for c in ("old 1", "fine", "old 2")]

    async def script(c):
        while True:
            m = await c.recv_json()
            if m[0] == "EVENT":
                if m[1]["content"].startswith("old"):
                    await c.send(["OK", "", False, "invalid: event creation date is too old"])
                else:
                    await c.send(["OK", m[1]["id"], True, ""])

    relay = serve(script)
    try:
        r = cli.run(["relay", "publish", "--url", relay.url, "--timeout", "20"],
                    "".join(json.dumps(e) + "\n" for e in evs).encode())
    finally:
        relay.stop()
    lines = [json.loads(l) for l in r.out.decode().splitlines() if l.strip()]
    want = [(e["id"], e["content"] == "fine") for e in evs]
    refused = r.err.count(b"too old")
    got = [(l.get("id"), l.get("accepted")) for l in lines]
    check("unnamed ok: refusals with an empty id printed with their reason, the accepted one "
          "too (%.1f s)" % r.took,
          r.rc == 1 and got == want and r.took < 10 and
          all("too old" in l["message"] for l in lines if not l["accepted"]) and
          refused == 2, repr(r) + " " + r.out.decode()[:400])


@scenario
def no_nip77(cli):
    """A relay without NIP-77 that ignores NEG-OPEN: sync says so within seconds and lists
    the wraps by REQ instead (those missing here printed, exit 0)."""
    alice, _ = cli.key("alice")
    bob, bob_pub = cli.key("bob")
    wraps = []
    for i in range(3):
        w = cli.run(["nip17", "send", "--sec-file", alice, "--to", bob_pub], b"hi %d" % i)
        assert w.rc == 0, w.err
        wraps += [json.loads(l) for l in w.out.decode().splitlines()
                  if ["p", bob_pub] in json.loads(l)["tags"]]
    have = os.path.join(cli.tmp, "have.jsonl")
    with open(have, "w") as f:
        f.write(json.dumps(wraps[0]) + "\n")

    async def script(c):
        while True:
            m = await c.recv_json()
            if m[0] == "REQ":
                f = m[2]
                for w in sorted(wraps, key=lambda w: -w["created_at"]):
                    if w["created_at"] <= f.get("until", 1 << 62):
                        await c.send(["EVENT", m[1], w])
                await c.send(["EOSE", m[1]])

    want = sorted(w["id"] for w in wraps[1:])
    relay = serve(script)
    try:
        r = cli.run(["relay", "sync", "--url", relay.url, "--sec-file", bob, "--have", have])
    finally:
        relay.stop()
    got = sorted(json.loads(l)["id"] for l in r.out.decode().splitlines() if l.strip())
    check("no nip77: a silent relay detected in %.1f s (under 10), the 2 missing wraps listed "
          "by REQ" % r.took,
          r.rc == 0 and got == want and r.took < 10 and b"NIP-77" in r.err, repr(r))

    async def noticing(c):
        while True:
            m = await c.recv_json()
            if m[0] == "NEG-OPEN":
                await c.send(["NOTICE", "ERROR: unknown message type NEG-OPEN"])
            else:
                await script_answer(c, m)

    async def script_answer(c, m):
        if m[0] == "REQ":
            for w in wraps:
                if w["created_at"] <= m[2].get("until", 1 << 62):
                    await c.send(["EVENT", m[1], w])
            await c.send(["EOSE", m[1]])

    relay = serve(noticing)
    try:
        r = cli.run(["relay", "sync", "--url", relay.url, "--sec-file", bob, "--have", have])
    finally:
        relay.stop()
    got = sorted(json.loads(l)["id"] for l in r.out.decode().splitlines() if l.strip())
    check("no nip77: a relay's NOTICE about NEG-OPEN detected in %.1f s (under 2), the wraps "
          "listed by REQ" % r.took,
          r.rc == 0 and got == want and r.took < 2 and b"unknown message type" in r.err,
          repr(r))


# ---- TLS ------------------------------------------------------------------------------------
@scenario
def tls(cli):
    """wss:// to relays that speak TLS themselves: with --ca-file the test CA's certificate is
    taken, for the IP and the name it carries, by each command; the system's store does not
    know that CA; a certificate for another host or a self-signed one is refused."""
    path = tls_front.make_certs(cli.tmp)
    ca = path("ca.pem")
    key, pub = cli.key("bob")

    async def script(c):
        while True:
            m = await c.recv_json()
            if m[0] == "NEG-OPEN":
                await c.send(["NEG-MSG", m[1], "61"])  # nothing on the relay
            elif m[0] == "EVENT":
                await c.send(["OK", m[1]["id"], True, ""])
            await answer_req(c, m)

    relays = {name: serve(script, tls=tls_front.server_context(path(name + ".pem"),
                                                               path(name + ".key")))
              for name in ("good", "wronghost", "self")}
    ev = cli.sign(key, {"kind": 1, "content": "over TLS", "tags": []})
    try:
        good = relays["good"]
        by_ip = cli.run(fetch_args(good, "--ca-file", ca, "--timeout", "10"))
        by_name = cli.run(["relay", "fetch", "--url", "wss://localhost:%d" % good.port, "--filter",
                           '{"kinds":[1059]}', "--ca-file", ca, "--timeout", "10"])
        pub_r = cli.run(["relay", "publish", "--url", good.url, "--ca-file", ca, "--timeout",
                         "10"], (json.dumps(ev) + "\n").encode())
        sync_r = cli.run(["relay", "sync", "--url", good.url, "--sec-file", key, "--ca-file", ca,
                          "--timeout", "10"])
        system = cli.run(fetch_args(good, "--timeout", "10"))
        wrong = cli.run(fetch_args(relays["wronghost"], "--ca-file", ca, "--timeout", "10"))
        wrong_name = cli.run(["relay", "fetch", "--url", "wss://localhost:%d" %
                              relays["wronghost"].port, "--filter", '{"kinds":[1059]}',
                              "--ca-file", ca, "--timeout", "10"])
        selfs = cli.run(fetch_args(relays["self"], "--ca-file", ca, "--timeout", "10"))
        wrong_pub = cli.run(["relay", "publish", "--url", relays["wronghost"].url, "--ca-file",
                             ca, "--timeout", "20"], (json.dumps(ev) + "\n").encode())
    finally:
        for r in relays.values():
            r.stop()
    check("tls: the test CA's certificate taken by fetch (IP and name), publish and sync",
          by_ip.rc == 0 and by_name.rc == 0 and pub_r.rc == 0 and sync_r.rc == 0 and
          b'"accepted":true' in pub_r.out,
          "%r / %r / %r / %r" % (by_ip, by_name, pub_r, sync_r))
    host = good.requests[0].get("host") if good.requests else None
    check("tls: the Host header is host:port over TLS too (%s)" % host,
          host == "127.0.0.1:%d" % good.port)
    check("tls: without --ca-file the system's store does not know the test CA (exit 2)",
          system.rc == 2, repr(system))
    check("tls: a certificate for another host is refused (exit 2, by IP and by name, said), "
          "at once by publish too",
          wrong.rc == 2 and wrong_name.rc == 2 and wrong_pub.rc == 2 and wrong_pub.took < 5 and
          b"mismatch" in wrong.err and b"mismatch" in wrong_name.err,
          "%r / %r / %r" % (wrong, wrong_name, wrong_pub))
    check("tls: a self-signed certificate is refused (exit 2)", selfs.rc == 2, repr(selfs))
    r = cli.run(fetch_args(good, "--ca-file", os.path.join(cli.tmp, "none.pem")))
    check("tls: an unreadable --ca-file is a usage error", r.rc == 2 and b"--ca-file" in r.err,
          repr(r))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--backend")
    ap.add_argument("--only", help="comma-separated scenario names")
    ap.add_argument("--measure", action="store_true", help="print every run's numbers")
    ap.add_argument("--sanitized", action="store_true",
                    help="a sanitizer build: peak memory is not judged")
    o = ap.parse_args()
    only = set(o.only.split(",")) if o.only else None
    with tempfile.TemporaryDirectory() as tmp:
        cli = Cli(o, tmp)
        try:
            for fn in SCENARIOS:
                if only is None or fn.__name__ in only:
                    try:
                        fn(cli)
                    except (AssertionError, OSError, RuntimeError) as e:
                        check("%s: could not finish" % fn.__name__, False, repr(e))
        finally:
            for pgid in list(GROUPS):
                kill_group(pgid)
    passed = sum(1 for _, ok in CHECKS if ok)
    failed = len(CHECKS) - passed
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
