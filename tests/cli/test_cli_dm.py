#!/usr/bin/env python3
"""softchat dm (NIP-17 direct messages over the relay pool), end to end against real relays
on loopback: nostr-relay (PyPI, the relay of relay.live.python) started here, twice (two
relays, so the pool drives several sockets), each in a process group of its own that is
killed whole on success and failure (tests/relay/live/live.py's helpers).

    test_cli_dm.py --cli PATH --python-relay VENV/bin/nostr-relay [--backend NAME]

Scenarios, each a numbered check:
  inbox    alice publishes her inbox list (kind 10050) to R1, bob his (R1 and R2) to R1;
           dm inbox get finds both through R1 as bootstrap (lines and JSON); carol, who has
           none, gets exit 3 and nothing on stdout; an unreachable bootstrap relay is exit 2
Loopback only (127.0.0.1); every wait is bounded."""

import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "relay", "live"))
import live  # noqa: E402  (process groups, relays on loopback, checks)
from live import check, CHECKS, GROUPS, kill_group, free_port, Relay, Cli  # noqa: E402

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
    dead = "ws://127.0.0.1:%d" % free_port()
    g = cli.run(["dm", "inbox", "get", bob_pub, "--bootstrap", dead, "--timeout", "20"])
    check("inbox get: an unreachable bootstrap relay is exit 2",
          g.returncode == 2 and b"no bootstrap relay could be reached" in g.stderr,
          "rc %d: %s" % (g.returncode, g.stderr.decode()))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--python-relay", required=True)
    ap.add_argument("--backend")
    o = ap.parse_args()
    o.rust_relay = None
    if not os.access(o.python_relay, os.X_OK):
        print("FAIL: nostr-relay is not installed (%s): its setup fixture failed" % o.python_relay)
        return 1
    relays = []
    with tempfile.TemporaryDirectory() as tmp:
        cli = Cli(o, tmp)
        try:
            for _ in range(2):
                r = Relay("python", o, tmp, free_port())
                relays.append(r)
                r.start()
            k = {}
            for name in ("alice", "bob", "carol"):
                path, pub, _ = cli.key(name)
                k[name] = (path, pub)
            scenario_inbox(cli, relays[0], relays[1], k)
        except (RuntimeError, AssertionError, subprocess.TimeoutExpired, OSError, ValueError) as e:
            check("dm: scenario could not finish", False, repr(e))
        finally:
            for r in relays:
                r.stop()
            left = [g for g in list(GROUPS) if not kill_group(g)]
            check("dm: no process left behind", not left, "groups %r" % left)
    passed = sum(1 for _, ok in CHECKS if ok)
    failed = len(CHECKS) - passed
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
