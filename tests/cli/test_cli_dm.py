#!/usr/bin/env python3
"""softchat dm (NIP-17 direct messages over the relay pool), end to end against real relays
on loopback: nostr-relay (PyPI, the relay of relay.live.python) started here, twice (two
relays, so the pool drives several sockets), and rust-nostr's relay builder for auth and
mesh, each in a process group of its own that is killed whole on success and failure
(tests/relay/live/live.py's helpers); the scripted relays and TLS fronts are threads of this
process, stopped the same way.

    test_cli_dm.py --cli PATH --python-relay VENV/bin/nostr-relay [--rust-relay PATH]
                   [--backend NAME]

Scenarios, each a numbered check:
  inbox    alice publishes her inbox list (kind 10050) to R1, bob his (R1 and R2) to R1;
           dm inbox get finds both through R1 as bootstrap (lines and JSON); carol, who has
           none, gets exit 3 and nothing on stdout; an unreachable bootstrap relay is exit 2;
           hank's inbox list lives only on R2, his NIP-65 write relay named by his kind
           10002 on R1: inbox get through R1 finds it there
  send     alice sends bob a message: exit 0, bob's wrap accepted by both his inbox relays
           (one of which, R2, is no bootstrap relay) and alice's copy by hers; bob reads it
           from R2 (relay fetch, nip17 receive); carol (no inbox list): exit 3 and nothing
           sent, then --allow-no-inbox delivers to the bootstrap relay; dave, whose inbox
           relay is down: exit 4, his wrap failed there after 3 attempts; erin, whose inbox
           relay refuses every event (a relay scripted here, hostile_relay.py), gets her
           wrap refused with the relay's reason, and a message to bob and erin is partial:
           bob's delivered, erin's refused, exit 4
  listen   bob listens (--bootstrap: his inbox relays R1 and R2, which both hold alice's
           message): it is printed exactly once; a message alice sends while he listens is
           printed once; SIGTERM is exit 0; a restart with the same --state DB prints
           nothing again; a listener on R2 alone sees R2 killed and restarted, says it lost
           the connection, and prints the message sent after the restart, once; carol, who
           has no inbox list, gets exit 3
  tls      the same over wss:// (tls_front.py: a test CA made at run time, --ca-file): frank's
           inbox is two TLS fronts, over R1 and R2; alice's wrap is accepted by both (two
           TLS handshakes at once) and frank's listener prints it once; gina's inbox relay
           presents a certificate for another host: her wrap fails there, exit 4
  usage    what the dm commands refuse before connecting: exit 2 and the reason, nothing on
           stdout (a missing --to, --state or --bootstrap, a URL that is not ws(s)://, an
           nsec where a public key goes, a message that is not UTF-8: exit 1)
  auth     (with --rust-relay: rust-nostr's relay builder, tests/relay/live/rust-relay, with
           NIP-42 required for reading and writing) ivan's inbox relay requires AUTH: alice's
           wrap is accepted there once the pool authenticated as alice, and ivan's listener,
           authenticated as ivan, prints it once
  mesh     (with --rust-relay) five relays at once, fresh keys: R1 nostr-relay (the bootstrap,
           alice's inbox), R2 rust-nostr requiring AUTH, R3 rust-nostr behind a TLS front
           (wss://, --ca-file), R4 down, R5 refusing every event; bob's inbox is R1, R2, R5,
           carol's R2, R3, R4. Both listen (a --state DB each); alice sends to both: bob's
           wrap accepted by R1 and R2 and refused by R5 with its reason, carol's accepted by
           R2 and R3 and failed on R4 after 3 attempts, exit 0 (every receiver delivered);
           R1 is killed and restarted on its port and data (bob's listener connects to it
           again), alice sends again: each listener prints both messages once though two of
           its relays hold each; SIGTERM is exit 0 for both, and bob's listener restarted
           with the same --state prints nothing
Loopback only (127.0.0.1); every wait is bounded."""

import argparse
import json
import os
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "relay", "live"))
import live  # noqa: E402  (process groups, relays on loopback, checks)
import hostile_relay  # noqa: E402  (a relay scripted frame by frame)
import tls_front  # noqa: E402  (a test CA, TLS fronts)
from live import (check, have_tools, run_scenarios, GROUPS, kill_group,  # noqa: E402
                  free_port, port_closed, Relay)

NO_INBOX = 3
UNDELIVERED = 4


def lines(out):
    return [json.loads(l) for l in out.decode().splitlines() if l.strip()]


def scenario_inbox(cli, r1, r2, k):
    (alice, alice_pub), (bob, bob_pub), (_, carol_pub) = k["alice"], k["bob"], k["carol"]
    s = cli.run(["dm", "inbox", "set", "--key", alice, "--relay", r1.url])
    got = lines(s.stdout) if s.returncode == 0 else []
    check("inbox set: alice's list accepted by R1", s.returncode == 0 and got == [
        {"relay": r1.url, "result": "accepted", "message": ""}], s.stderr.decode())
    s = cli.run(["dm", "inbox", "set", "--key", bob, "--relay", "%s,%s" % (r1.url, r2.url),
                 "--to-relays", r1.url])
    check("inbox set: bob's list (two relays) accepted by R1 only",
          s.returncode == 0 and [l["relay"] for l in lines(s.stdout)] == [r1.url],
          s.stderr.decode() + s.stdout.decode())
    g = cli.run(["dm", "inbox", "get", bob_pub, "--bootstrap", r1.url])
    check("inbox get: bob's inbox relays, one per line",
          g.returncode == 0 and g.stdout.decode().split() == [r1.url, r2.url],
          g.stderr.decode() + g.stdout.decode())
    g = cli.run(["dm", "inbox", "get", alice_pub, "--bootstrap", r1.url, "--json"])
    got = lines(g.stdout) if g.returncode == 0 else [{}]
    check("inbox get --json: alice's inbox", g.returncode == 0 and len(got) == 1 and
          got[0].get("pubkey") == alice_pub and got[0].get("inbox") == [r1.url] and
          got[0].get("npub", "").startswith("npub1"), g.stderr.decode() + g.stdout.decode())
    g = cli.run(["dm", "inbox", "get", carol_pub, "--bootstrap", r1.url])
    check("inbox get: no inbox list is exit 3, nothing on stdout",
          g.returncode == NO_INBOX and g.stdout == b"" and b"no kind 10050" in g.stderr,
          "rc %d: %s" % (g.returncode, g.stderr.decode()))
    hank, hank_pub = k["hank"]
    ev = cli.run(["event", "sign", "--sec-file", hank], json.dumps(
        {"kind": 10002, "content": "", "tags": [["r", r2.url, "write"]]}).encode())
    p = cli.run(["relay", "publish", "--url", r1.url], ev.stdout)
    s = cli.run(["dm", "inbox", "set", "--key", hank, "--relay", r2.url])
    g = cli.run(["dm", "inbox", "get", hank_pub, "--bootstrap", r1.url, "--json"])
    got = lines(g.stdout) if g.returncode == 0 else [{}]
    check("inbox get: found on the user's NIP-65 write relay (kind 10002 on the bootstrap)",
          ev.returncode == 0 and p.returncode == 0 and s.returncode == 0 and g.returncode == 0
          and got[0].get("inbox") == [r2.url] and got[0].get("write") == [r2.url],
          "rc %d: %s %s %s" % (g.returncode, p.stderr.decode(), s.stderr.decode(),
                               g.stderr.decode()))
    dead = "ws://127.0.0.1:%d" % free_port()
    g = cli.run(["dm", "inbox", "get", bob_pub, "--bootstrap", dead, "--timeout", "20"])
    check("inbox get: an unreachable bootstrap relay is exit 2",
          g.returncode == 2 and b"no bootstrap relay could be reached" in g.stderr,
          "rc %d: %s" % (g.returncode, g.stderr.decode()))


def refusing_relay():
    """A relay that refuses every event with a reason and has no stored events."""
    async def script(c):
        while True:
            m = await c.recv_json()
            if m[0] == "EVENT":
                await c.send(["OK", m[1]["id"], False, "blocked: no DMs here"])
            elif m[0] == "REQ":
                await c.send(["EOSE", m[1]])

    return hostile_relay.ScriptedRelay(script)


def scenario_refused(cli, r1, k):
    (alice, _), (_, bob_pub), (erin, erin_pub) = k["alice"], k["bob"], k["erin"]
    bad = refusing_relay()
    try:
        s = cli.run(["dm", "inbox", "set", "--key", erin, "--relay", bad.url,
                     "--to-relays", r1.url])
        check("send: erin's inbox is a relay that refuses everything", s.returncode == 0,
              s.stderr.decode())
        s = cli.run(["dm", "send", "--key", alice, "--to", erin_pub, "--bootstrap", r1.url, "hi"])
        got = lines(s.stdout)
        check("send: a refusal is exit 4 with the relay's reason, not retried",
              s.returncode == UNDELIVERED and got and got[0]["outcome"] == "failed" and
              got[0]["relays"] == [{"relay": bad.url, "result": "refused", "attempts": 1,
                                    "message": "blocked: no DMs here"}] and
              b"blocked: no DMs here" in s.stderr,
              "rc %d: %s %s" % (s.returncode, s.stderr.decode(), s.stdout.decode()))
        s = cli.run(["dm", "send", "--key", alice, "--to", "%s,%s" % (bob_pub, erin_pub),
                     "--bootstrap", r1.url, "to both"])
        got = lines(s.stdout)
        check("send: bob delivered and erin refused is partial: exit 4, both reported",
              s.returncode == UNDELIVERED and len(got) == 3 and
              [(m["to"], m["outcome"]) for m in got[:2]] == [(bob_pub, "delivered"),
                                                            (erin_pub, "failed")] and
              got[2]["self"] and got[2]["outcome"] == "delivered" and
              b"1 receiver accepted by no relay" in s.stderr,
              "rc %d: %s %s" % (s.returncode, s.stderr.decode(), s.stdout.decode()))
    finally:
        bad.stop()


def scenario_send(cli, r1, r2, k, text):
    (alice, alice_pub), (bob, bob_pub), (_, carol_pub) = k["alice"], k["bob"], k["carol"]
    (dave, dave_pub) = k["dave"]
    s = cli.run(["dm", "send", "--key", alice, "--to", bob_pub, "--bootstrap", r1.url, text])
    got = lines(s.stdout) if s.returncode == 0 else []
    ok = (len(got) == 2 and got[0]["to"] == bob_pub and not got[0]["self"] and
          got[0]["outcome"] == "delivered" and
          sorted((r["relay"], r["result"]) for r in got[0]["relays"]) ==
          sorted([(r1.url, "accepted"), (r2.url, "accepted")]) and
          got[1]["to"] == alice_pub and got[1]["self"] and got[1]["outcome"] == "delivered")
    check("send: bob's wrap accepted by both his inbox relays, alice's copy by hers", ok,
          "rc %d: %s %s" % (s.returncode, s.stderr.decode(), s.stdout.decode()))
    flt = json.dumps({"kinds": [1059], "#p": [bob_pub]})
    f = cli.run(["relay", "fetch", "--url", r2.url, "--filter", flt])
    rcv = cli.run(["nip17", "receive", "--sec-file", bob], f.stdout)
    got = lines(rcv.stdout) if rcv.returncode == 0 else []
    check("send: bob opens it from R2, his inbox relay that is no bootstrap relay",
          f.returncode == 0 and [(m["from"], m["content"]) for m in got] == [(alice_pub, text)],
          f.stderr.decode() + rcv.stderr.decode())
    s = cli.run(["dm", "send", "--key", alice, "--to", "%s,%s" % (bob_pub, carol_pub),
                 "--bootstrap", r1.url, "to carol"])
    check("send: a receiver without inbox list is exit 3, nothing sent",
          s.returncode == NO_INBOX and s.stdout == b"" and b"no kind 10050" in s.stderr,
          "rc %d: %s" % (s.returncode, s.stderr.decode()))
    flt = json.dumps({"kinds": [1059], "#p": [carol_pub]})
    f = cli.run(["relay", "fetch", "--url", r1.url, "--filter", flt])
    check("send: ... and the relay holds nothing for carol", f.returncode == 0 and f.stdout == b"",
          f.stderr.decode() + f.stdout.decode())
    s = cli.run(["dm", "send", "--key", alice, "--to", carol_pub, "--bootstrap", r1.url,
                 "--allow-no-inbox", "to carol"])
    got = lines(s.stdout) if s.returncode == 0 else []
    check("send --allow-no-inbox: carol's wrap goes to the bootstrap relay",
          s.returncode == 0 and got and got[0]["to"] == carol_pub and
          [r["relay"] for r in got[0]["relays"]] == [r1.url] and b"--allow-no-inbox" in s.stderr,
          "rc %d: %s" % (s.returncode, s.stderr.decode()))
    down = "ws://127.0.0.1:%d" % free_port()
    s = cli.run(["dm", "inbox", "set", "--key", dave, "--relay", down, "--to-relays", r1.url])
    check("send: dave's inbox list names a relay that is down", s.returncode == 0,
          s.stderr.decode())
    s = cli.run(["dm", "send", "--key", alice, "--to", dave_pub, "--bootstrap", r1.url, "hi"])
    got = lines(s.stdout)
    check("send: dave's relay down is exit 4, his wrap failed after 3 attempts",
          s.returncode == UNDELIVERED and got and got[0]["outcome"] == "failed" and
          got[0]["relays"][0]["result"] == "failed" and got[0]["relays"][0]["attempts"] == 3,
          "rc %d: %s %s" % (s.returncode, s.stderr.decode(), s.stdout.decode()))


class Listener:
    """dm listen in a process group of its own, stdout and stderr to files."""

    def __init__(self, o, tmp, name, args):
        self.out = os.path.join(tmp, name + ".out")
        self.err = os.path.join(tmp, name + ".err")
        argv = [o.cli] + (["--backend", o.backend] if o.backend else []) + ["dm", "listen"] + args
        with open(self.out, "wb") as out, open(self.err, "wb") as err:
            self.p = subprocess.Popen(argv, stdout=out, stderr=err, stdin=subprocess.DEVNULL,
                                      start_new_session=True)
        GROUPS.add(self.p.pid)

    def text(self, which):
        with open(self.out if which == "out" else self.err, "rb") as f:
            return f.read().decode()

    def wait_for(self, which, pred, timeout=30):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if pred(self.text(which)):
                return True
            if self.p.poll() is not None:
                return pred(self.text(which))
            time.sleep(0.05)
        return False

    def messages(self):
        return lines(self.text("out").encode())

    def stop(self, sig=signal.SIGTERM):
        """sig, then the exit status (None: it had to be killed)."""
        if self.p.poll() is None:
            self.p.send_signal(sig)
        try:
            rc = self.p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            rc = None
        kill_group(self.p.pid, leader=self.p)
        return rc


def scenario_listen(cli, o, tmp, r1, r2, k, sent_text):
    (alice, alice_pub), (bob, bob_pub), (carol, _) = k["alice"], k["bob"], k["carol"]
    db = os.path.join(tmp, "bob.db")
    caught_up = lambda e: "caught up on 2 relays" in e  # noqa: E731
    ln = Listener(o, tmp, "listen1", ["--key", bob, "--state", db, "--bootstrap", r1.url])
    up = ln.wait_for("err", caught_up)
    got = ln.messages()
    check("listen: caught up on bob's two inbox relays", up, ln.text("err"))
    check("listen: alice's message, held by both relays, printed exactly once",
          [(m["from"], m["content"], m["kind"]) for m in got] == [(alice_pub, sent_text, 14)] and
          got[0]["npub"].startswith("npub1") and got[0]["room"] == [alice_pub, bob_pub],
          ln.text("out") + ln.text("err"))
    s = cli.run(["dm", "send", "--key", alice, "--to", bob_pub, "--bootstrap", r1.url, "live"])
    arrived = ln.wait_for("out", lambda t: len(t.splitlines()) >= 2)
    time.sleep(1.0)  # the copy on the other relay, if it were printed, would come now
    got = ln.messages()
    check("listen: a message sent while listening is printed once",
          s.returncode == 0 and arrived and [m["content"] for m in got] == [sent_text, "live"],
          ln.text("out") + ln.text("err") + s.stderr.decode())
    rc = ln.stop()
    check("listen: SIGTERM is exit 0", rc == 0, "rc %r: %s" % (rc, ln.text("err")))
    ln = Listener(o, tmp, "listen2", ["--key", bob, "--state", db, "--bootstrap", r1.url])
    up = ln.wait_for("err", caught_up)
    time.sleep(0.5)
    rc = ln.stop(signal.SIGINT)
    check("listen: a restart with the same --state prints nothing again (SIGINT: exit 0)",
          up and rc == 0 and ln.text("out") == "", "rc %r: %s%s" % (rc, ln.text("out"),
                                                                     ln.text("err")))
    ln = Listener(o, tmp, "listen3", ["--key", bob, "--state", db, "--relay", r2.url])
    up = ln.wait_for("err", lambda e: "caught up on 1 relay" in e)
    gone = r2.kill()
    lost = ln.wait_for("err", lambda e: "connection lost" in e, 15)
    r2.start()
    s = cli.run(["dm", "send", "--key", alice, "--to", bob_pub, "--bootstrap", r1.url,
                 "after the restart"])
    arrived = ln.wait_for("out", lambda t: "after the restart" in t)
    time.sleep(0.5)
    got = ln.messages()
    rc = ln.stop()
    check("listen: R2 killed and restarted; the listener reconnects and prints the new "
          "message once", up and gone and lost and arrived and s.returncode == 0 and
          [m["content"] for m in got] == ["after the restart"] and rc == 0,
          "rc %r, send %d: %s%s%s" % (rc, s.returncode, ln.text("out"), ln.text("err"),
                                      s.stderr.decode()))
    g = cli.run(["dm", "listen", "--key", carol, "--state", os.path.join(tmp, "carol.db"),
                 "--bootstrap", r1.url], timeout=60)
    check("listen: a key without inbox list (and no --relay) is exit 3",
          g.returncode == NO_INBOX and g.stdout == b"", "rc %d: %s" % (g.returncode,
                                                                        g.stderr.decode()))


def scenario_tls(cli, o, tmp, r1, r2, k):
    (alice, _), (frank, frank_pub), (gina, gina_pub) = k["alice"], k["frank"], k["gina"]
    path = tls_front.make_certs(tmp)
    ca = ["--ca-file", path("ca.pem")]
    fronts = [tls_front.TlsFront(r.port, path("good.pem"), path("good.key")) for r in (r1, r2)]
    fronts.append(tls_front.TlsFront(r1.port, path("wronghost.pem"), path("wronghost.key")))
    a, b, wrong = (f.url for f in fronts)
    try:
        s = cli.run(["dm", "inbox", "set", "--key", frank, "--relay", a, "--relay", b,
                     "--to-relays", a] + ca)
        check("tls: frank's inbox list published over wss://", s.returncode == 0,
              s.stderr.decode())
        s = cli.run(["dm", "inbox", "set", "--key", gina, "--relay", wrong, "--to-relays", a] + ca)
        check("tls: gina's inbox list published", s.returncode == 0, s.stderr.decode())
        s = cli.run(["dm", "send", "--key", alice, "--to", frank_pub, "--bootstrap", a,
                     "over tls"] + ca)
        got = lines(s.stdout) if s.returncode == 0 else []
        check("tls: frank's wrap accepted by both his wss:// inbox relays",
              s.returncode == 0 and got and
              sorted((r["relay"], r["result"]) for r in got[0]["relays"]) ==
              sorted([(a, "accepted"), (b, "accepted")]),
              "rc %d: %s %s" % (s.returncode, s.stderr.decode(), s.stdout.decode()))
        ln = Listener(o, tmp, "listen-tls", ["--key", frank, "--state",
                                             os.path.join(tmp, "frank.db"), "--bootstrap", a] + ca)
        up = ln.wait_for("err", lambda e: "caught up on 2 relays" in e)
        got = ln.messages()
        rc = ln.stop()
        check("tls: frank's listener on both wss:// relays prints the message once",
              up and rc == 0 and [m["content"] for m in got] == ["over tls"],
              "rc %r: %s%s" % (rc, ln.text("out"), ln.text("err")))
        s = cli.run(["dm", "send", "--key", alice, "--to", gina_pub, "--bootstrap", a, "hi"] + ca)
        got = lines(s.stdout)
        check("tls: a relay whose certificate names another host is refused: exit 4",
              s.returncode == UNDELIVERED and got and got[0]["outcome"] == "failed" and
              got[0]["relays"][0]["result"] == "failed" and b"certificate" in s.stderr,
              "rc %d: %s %s" % (s.returncode, s.stderr.decode(), s.stdout.decode()))
    finally:
        for f in fronts:
            f.stop()


def scenario_usage(cli, r1, k):
    (alice, _), (_, bob_pub) = k["alice"], k["bob"]
    cases = [
        (["dm"], "needs a command"),
        (["dm", "inbox", "rm"], "unknown dm command"),
        (["dm", "send", "--key", alice, "--bootstrap", r1.url, "x"], "--to"),
        (["dm", "send", "--key", alice, "--to", bob_pub, "x"], "--bootstrap"),
        (["dm", "send", "--to", bob_pub, "--bootstrap", r1.url, "x"], "--key"),
        (["dm", "send", "--key", alice, "--to", bob_pub, "--bootstrap", "http://x", "x"],
         "not a ws:// or wss:// URL"),
        (["dm", "send", "--key", alice, "--to", "nsec1" + "q" * 58, "--bootstrap", r1.url, "x"],
         "--to"),
        (["dm", "listen", "--key", alice, "--bootstrap", r1.url], "--state"),
        (["dm", "listen", "--key", alice, "--state", "x.db"], "--relay"),
        (["dm", "inbox", "set", "--key", alice], "--relay"),
        (["dm", "inbox", "get", "--bootstrap", r1.url], "KEY"),
    ]
    for args, word in cases:
        r = cli.run(args)
        check("usage: %s is exit 2" % " ".join(a if len(a) < 20 else a[:12] + "..." for a in args),
              r.returncode == 2 and r.stdout == b"" and word.encode() in r.stderr,
              "rc %d: %s" % (r.returncode, r.stderr.decode()))
    r = cli.run(["dm", "send", "--key", alice, "--to", bob_pub, "--bootstrap", r1.url],
                b"\xff\xfe not UTF-8")
    check("usage: a message that is not UTF-8 is exit 1, nothing sent",
          r.returncode == 1 and r.stdout == b"" and b"UTF-8" in r.stderr,
          "rc %d: %s" % (r.returncode, r.stderr.decode()))


def scenario_auth(cli, o, tmp, r1, k, relays):
    (alice, _), (ivan, ivan_pub) = k["alice"], k["ivan"]
    a = Relay("rust", o, tmp, free_port(), ["--auth"])
    relays.append(a)
    a.start()
    s = cli.run(["dm", "inbox", "set", "--key", ivan, "--relay", a.url, "--to-relays", r1.url])
    check("auth: ivan's inbox is a relay that requires AUTH", s.returncode == 0,
          s.stderr.decode())
    s = cli.run(["dm", "send", "--key", alice, "--to", ivan_pub, "--bootstrap", r1.url,
                 "behind auth"])
    got = lines(s.stdout) if s.returncode == 0 else []
    check("auth: alice's wrap accepted there after the pool's AUTH",
          s.returncode == 0 and got and got[0]["relays"][0]["result"] == "accepted",
          "rc %d: %s %s" % (s.returncode, s.stderr.decode(), s.stdout.decode()))
    ln = Listener(o, tmp, "listen-auth", ["--key", ivan, "--state", os.path.join(tmp, "ivan.db"),
                                          "--relay", a.url])
    arrived = ln.wait_for("out", lambda t: "behind auth" in t)
    ln.wait_for("err", lambda e: "caught up" in e)
    got = ln.messages()
    rc = ln.stop()
    check("auth: ivan's listener authenticates and prints it once",
          arrived and rc == 0 and [m["content"] for m in got] == ["behind auth"],
          "rc %r: %s%s" % (rc, ln.text("out"), ln.text("err")))


def relay_results(line):
    """{url: (result, message)} of one dm send line, and {url: attempts}."""
    return ({r["relay"]: (r["result"], r["message"]) for r in line["relays"]},
            {r["relay"]: r["attempts"] for r in line["relays"]})


def connected(pid, port):
    """Whether process pid holds an established TCP connection to 127.0.0.1:port (Linux:
    its socket inodes in /proc/PID/fd, matched in /proc/net/tcp)."""
    try:
        inodes = set()
        for fd in os.listdir("/proc/%d/fd" % pid):
            link = os.readlink("/proc/%d/fd/%s" % (pid, fd))
            if link.startswith("socket:["):
                inodes.add(link[8:-1])
        with open("/proc/net/tcp") as f:
            rows = [l.split() for l in f.readlines()[1:]]
    except OSError:
        return False
    want = "0100007F:%04X" % port
    return any(r[2] == want and r[3] == "01" and r[9] in inodes for r in rows)


def wait_connected(pid, port, timeout=20):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if connected(pid, port):
            return True
        time.sleep(0.1)
    return False


def scenario_mesh(cli, o, tmp, relays):
    """Five relays at once, as a user of the SDK meets them: R1 nostr-relay (bootstrap, alice's
    inbox), R2 rust-nostr with AUTH required, R3 rust-nostr behind a TLS front, R4 down, R5
    refusing every event. bob's inbox is R1, R2, R5; carol's R2, R3, R4."""
    (alice, alice_pub, _), (bob, bob_pub, _), (carol, carol_pub, _) = (
        cli.key(n) for n in ("mesh-alice", "mesh-bob", "mesh-carol"))
    path = tls_front.make_certs(os.path.join(tmp, "mesh"))
    ca = ["--ca-file", path("ca.pem")]
    started, listeners = [], []
    front = bad = None
    try:
        r1 = Relay("python", o, tmp, free_port())
        r2 = Relay("rust", o, tmp, free_port(), ["--auth"])
        r3 = Relay("rust", o, tmp, free_port())
        for r in (r1, r2, r3):
            started.append(r)
            relays.append(r)
            r.start()
        front = tls_front.TlsFront(r3.port, path("good.pem"), path("good.key"))
        bad = refusing_relay()
        u1, u2, u3, u5 = r1.url, r2.url, front.url, bad.url
        u4 = "ws://127.0.0.1:%d" % free_port()
        sets = [(alice, [u1]), (bob, [u1, u2, u5]), (carol, [u2, u3, u4])]
        rcs = [cli.run(["dm", "inbox", "set", "--key", key, "--relay", ",".join(urls),
                        "--to-relays", u1] + ca) for key, urls in sets]
        check("mesh: alice's, bob's and carol's inbox lists published to R1 (bootstrap)",
              all(s.returncode == 0 for s in rcs), " ".join(s.stderr.decode() for s in rcs))
        bob_db, carol_db = os.path.join(tmp, "mesh-bob.db"), os.path.join(tmp, "mesh-carol.db")
        caught_up = lambda e: "caught up on 3 relays" in e  # noqa: E731
        lb = Listener(o, tmp, "mesh-bob", ["--key", bob, "--state", bob_db, "--bootstrap", u1] +
                      ca)
        listeners.append(lb)
        lc = Listener(o, tmp, "mesh-carol", ["--key", carol, "--state", carol_db, "--bootstrap",
                                             u1] + ca)
        listeners.append(lc)
        up_b, up_c = lb.wait_for("err", caught_up), lc.wait_for("err", caught_up)
        check("mesh: bob's and carol's listeners caught up on their three inbox relays each",
              up_b and up_c and lb.text("out") == "" and lc.text("out") == "",
              lb.text("err") + lc.text("err"))
        s = cli.run(["dm", "send", "--key", alice, "--to", "%s,%s" % (bob_pub, carol_pub),
                     "--bootstrap", u1, "mesh one"] + ca)
        got = lines(s.stdout)
        who = [(m["to"], m["self"], m["outcome"]) for m in got]
        res = [relay_results(m) for m in got]
        check("mesh: message 1: one line per wrap, bob and carol delivered, alice's copy too",
              who == [(bob_pub, False, "delivered"), (carol_pub, False, "delivered"),
                      (alice_pub, True, "delivered")],
              "rc %d: %s %s" % (s.returncode, s.stderr.decode(), s.stdout.decode()))
        check("mesh: bob's wrap accepted by R1 and R2 (AUTH), refused by R5 with its reason, "
              "once", len(res) == 3 and res[0][0] == {
                  u1: ("accepted", ""), u2: ("accepted", ""),
                  u5: ("refused", "blocked: no DMs here")} and res[0][1][u5] == 1 and
              b"blocked: no DMs here" in s.stderr, s.stdout.decode() + s.stderr.decode())
        check("mesh: carol's wrap accepted by R2 (AUTH) and R3 (wss://), failed on R4 (down) "
              "after 3 attempts", len(res) == 3 and
              {u: r[0] for u, r in res[1][0].items()} == {u2: "accepted", u3: "accepted",
                                                          u4: "failed"} and
              res[1][1][u4] == 3, s.stdout.decode() + s.stderr.decode())
        check("mesh: every receiver delivered, some relays refused or failed: exit 0",
              s.returncode == 0, "rc %d: %s" % (s.returncode, s.stderr.decode()))
        gone = r1.kill()
        closed = port_closed(r1.port)
        lost = lb.wait_for("err", lambda e: "%s: connection lost" % u1 in e, 15)
        r1.start()
        back = wait_connected(lb.p.pid, r1.port)
        check("mesh: R1 killed (its port closed, bob's listener lost it), restarted on its port "
              "and data, and bob's listener connected to it again", gone and closed and lost and
              back, lb.text("err"))
        s = cli.run(["dm", "send", "--key", alice, "--to", "%s,%s" % (bob_pub, carol_pub),
                     "--bootstrap", u1, "mesh two"] + ca)
        got = lines(s.stdout)
        check("mesh: message 2 through the restarted R1: bob and carol delivered (exit 0), R1 "
              "accepted bob's wrap", s.returncode == 0 and len(got) == 3 and
              [m["outcome"] for m in got] == ["delivered"] * 3 and
              relay_results(got[0])[0].get(u1) == ("accepted", ""),
              "rc %d: %s %s" % (s.returncode, s.stderr.decode(), s.stdout.decode()))
        both = lambda t: "mesh one" in t and "mesh two" in t  # noqa: E731
        arrived = lb.wait_for("out", both) and lc.wait_for("out", both)
        time.sleep(2.0)  # a copy from the other relays (R1 resubscribed), if printed, comes now
        room = sorted([alice_pub, bob_pub, carol_pub])  # one kind 14 to both: a room of three
        for ln, name, inbox in ((lb, "bob", (u1, u2)), (lc, "carol", (u2, u3))):
            got = ln.messages()
            check("mesh: %s's listener prints message 1 and 2 once each (from alice, the room of "
                  "three, via the inbox relays that accepted them)" % name, arrived and
                  [m["content"] for m in got] == ["mesh one", "mesh two"] and
                  all(m["from"] == alice_pub and sorted(m["room"]) == room and
                      m["relay"] in inbox for m in got),
                  ln.text("out") + ln.text("err"))
        rcs = [ln.stop() for ln in (lb, lc)]
        check("mesh: SIGTERM: both listeners exit 0", rcs == [0, 0],
              "rc %r: %s%s" % (rcs, lb.text("err"), lc.text("err")))
        ln = Listener(o, tmp, "mesh-bob2", ["--key", bob, "--state", bob_db, "--bootstrap", u1] +
                      ca)
        listeners.append(ln)
        up = ln.wait_for("err", caught_up)
        time.sleep(0.5)
        rc = ln.stop()
        check("mesh: bob's listener restarted with the same --state prints nothing again",
              up and rc == 0 and ln.text("out") == "",
              "rc %r: %s%s" % (rc, ln.text("out"), ln.text("err")))
    finally:
        for ln in listeners:
            ln.stop()
        for x in (front, bad):
            if x is not None:
                x.stop()
        for r in started:
            r.stop()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--python-relay", required=True)
    ap.add_argument("--rust-relay")
    ap.add_argument("--backend")
    o = ap.parse_args()
    tools = [(o.python_relay, "nostr-relay")]
    if o.rust_relay is not None:
        tools.append((o.rust_relay, "the rust relay"))
    if not have_tools(tools):
        return 1

    def body(rig):
        cli, tmp, relays = rig.cli, rig.tmp, rig.servers
        for _ in range(2):
            rig.relay("python")
        k = {}
        for name in ("alice", "bob", "carol", "dave", "erin", "frank", "gina", "hank", "ivan"):
            path, pub, _ = cli.key(name)
            k[name] = (path, pub)
        scenario_usage(cli, relays[0], k)
        scenario_inbox(cli, relays[0], relays[1], k)
        text = "hello bob \u263a, over the pool"
        scenario_send(cli, relays[0], relays[1], k, text)
        scenario_listen(cli, o, tmp, relays[0], relays[1], k, text)
        scenario_refused(cli, relays[0], k)
        scenario_tls(cli, o, tmp, relays[0], relays[1], k)
        if o.rust_relay:
            scenario_auth(cli, o, tmp, relays[0], k, relays)
            scenario_mesh(cli, o, tmp, relays)

    return run_scenarios("dm", o, body)


if __name__ == "__main__":
    sys.exit(main())
