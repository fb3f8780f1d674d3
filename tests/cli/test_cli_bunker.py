#!/usr/bin/env python3
"""softchat bunker (a NIP-46 remote signer over relays), end to end against nostr-relay (PyPI,
the relay of relay.live.python) on loopback, started here in a process group of its own that
is killed whole on success and failure (tests/relay/live/live.py's helpers), as is the
bunker.

    test_cli_bunker.py --cli PATH --python-relay VENV/bin/nostr-relay --rust-relay PATH
                       --node NODE --modules DIR [--backend NAME]

Scenarios, each a numbered check:
  usage    what bunker refuses before connecting: exit 2 and the reason, nothing on stdout
           (no --relay, no --key, an unknown --allow grant, a URL that is not ws(s)://)
  serve    softchat bunker for alice's key (--allow sign_event:13,nip44_encrypt) prints its
           bunker:// URI first (alice's key as the bunker key, the relay, a secret); a
           BunkerSigner that never connects is refused ("not connected"); nostr-tools'
           BunkerSigner (tests/cli/bunker_client.mjs, DIR: the interop-node.setup fixture's
           folder) connects with it over the relay: connect, ping, get_public_key (alice),
           sign_event kind 13 (verified, alice's), nip44_encrypt (decrypted by the third
           party), sign_event kind 1 refused; the bunker said one line per request on stderr,
           allowed or refused; SIGTERM is exit 0. Again with --bunker-key (carol's): the
           URI names carol's key, get_public_key still answers alice's and she signs
  nostrconnect  the client starts the pairing: nostr-tools' BunkerSigner.fromURI
           (tests/cli/nostrconnect_client.mjs) prints its nostrconnect:// URI and waits;
           softchat bunker --connect URI answers it with the secret; the client then gets
           alice's key and a signed kind 13 without sending connect; the bunker said so on
           stderr; --connect with a bunker:// URI is a usage error
  signer   dm send --signer <the bunker's URI> (alice's key never given to it): alice's
           message to bob is sealed by the bunker (nip44_encrypt and sign_event:13 carried as
           NIP-46 requests over the relay) and delivered: bob fetches it from his inbox relay
           and opens it (nip17 receive): from alice, the text; a bunker without those grants
           makes dm send fail (exit 2, "refused") and nothing is delivered; with the
           bunker gone, dm send times out (--timeout 3: exit 2, said)
  listen   dm listen --signer <a bunker for bob's key>: without the nip44_decrypt grant the
           wrap is skipped with a stderr line saying the signer refused, nothing printed, and
           recorded in --state (a restart with the grant and that DB prints nothing); with
           the grant and a fresh --state alice's message is printed once, the very line dm
           listen --key bob prints (--timeout: exit 2 each time)
  inbox    dm inbox set --signer <a bunker for dave's key>: without sign_event:10050 it fails
           (exit 2, "refused"), nothing on stdout, no list on the relay; with it the relay
           accepts the list (exit 0) and dm inbox get finds the relay as dave's inbox
  auth     erin's inbox is rust-nostr's relay requiring AUTH (--rust-relay, NIP-42 for
           reading and writing). dm send --signer <alice's bunker, with sign_event:22242>: the
           relay refuses the wrap until it knows who sends, the pool reports AUTH_WANTED and
           the AUTH is signed in the bunker (its third sign_event, after the two seals; the
           client says so), then the wrap is accepted there and erin opens it (from alice,
           the text); dm listen --signer <erin's bunker> there prints it once, its AUTH
           signed in her bunker. Without the sign_event:22242 grant: the bunker refuses it, dm send says
           so, erin's wrap ends refused (auth-required:, exit 4) and nothing more is stored
           for erin there
  event    event sign --signer <alice's bunker with sign_event:1>: the line verifies (event
           verify) and has the --sec-file line's fields, id included, the signature aside;
           a bunker without the grant: exit 2, "refused", nothing on stdout; usage errors
  nip98    nip98 sign --signer <a bunker for alice's key, carol's as the bunker key, with
           sign_event:27235> for a POST with a body: the header nip98 verify accepts for the
           same URL, method and body, signed by alice (the user key, not the bunker key), and
           the bunker said it allowed the sign_event; a bunker without that grant: exit 2,
           "refused", nothing on stdout; usage errors (both key options, --ca-file without
           --signer)
Loopback only (127.0.0.1); every wait is bounded."""

import argparse
import json
import os
import select
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "relay", "live"))
import live  # noqa: E402,F401  (process groups, relays on loopback, checks)
from live import (check, have_tools, run_scenarios, GROUPS, kill_group, free_port,  # noqa: E402
                  run_group, Relay)


def scenario_usage(cli, relay, alice):
    cases = [
        ("no --relay", ["bunker", "--key", alice], b"--relay"),
        ("no --key", ["bunker", "--relay", relay.url], b"--key"),
        ("unknown grant", ["bunker", "--key", alice, "--relay", relay.url, "--allow",
                           "sign_event:13,nip04_encrypt"], b"unknown grant"),
        ("bad kind", ["bunker", "--key", alice, "--relay", relay.url, "--allow", "sign_event:x"],
         b"unknown grant"),
        ("not a ws URL", ["bunker", "--key", alice, "--relay", "http://127.0.0.1:1"], b"--relay"),
    ]
    for name, args, says in cases:
        r = cli.run(args, timeout=30)
        check("usage: %s: exit 2, said, nothing on stdout" % name,
              r.returncode == 2 and says in r.stderr and r.stdout == b"",
              "rc %d stdout %r stderr %r" % (r.returncode, r.stdout, r.stderr))


def first_line(p, timeout=20):
    """The first stdout line of p, read within timeout seconds (b"" if none)."""
    end, buf = time.monotonic() + timeout, b""
    while b"\n" not in buf and time.monotonic() < end:
        ready, _, _ = select.select([p.stdout], [], [], 0.2)
        if ready:
            chunk = os.read(p.stdout.fileno(), 4096)
            if not chunk:
                break
            buf += chunk
    return buf.split(b"\n", 1)[0]


def scenario_serve(cli, o, relay, alice, alice_pub, bunker_key=None, bunker_pub=None):
    tag = "serve" if bunker_key is None else "serve --bunker-key"
    extra = [] if bunker_key is None else ["--bunker-key", bunker_key]
    b = cli.popen(["bunker", "--key", alice, "--relay", relay.url, "--allow",
                   "sign_event:13,nip44_encrypt"] + extra)
    try:
        uri = first_line(b).decode()
        check("%s: the bunker URI first: the bunker key, the relay, a secret" % tag,
              uri.startswith("bunker://%s?" % (bunker_pub or alice_pub)) and "relay=" in uri and
              "secret=" in uri, uri)
        time.sleep(1)  # its subscription reaches the relay
        r = run_group([o.node, "--experimental-websocket", os.path.join(HERE, "bunker_client.mjs"),
                       "--modules", o.modules, "--uri", uri, "--user", alice_pub,
                       "--granted-kind", "13", "--refused-kind", "1"], b"", 120)
        out = r.stdout.decode()
        check(tag + ": nostr-tools' BunkerSigner: a client that never connected refused; "
              "connect, ping, get_public_key, sign_event:13, nip44_encrypt, sign_event:1 refused",
              r.returncode == 0 and "7 passed" in out, out + r.stderr.decode())
        b.send_signal(signal.SIGTERM)
        rc = b.wait(timeout=20)
        err = b.stderr.read().decode()
        check(tag + ": SIGTERM is exit 0", rc == 0, "rc %r: %s" % (rc, err))
        for line in ("nip46 connect from", "nip46 get_public_key from",
                     "nip46 nip44_encrypt from"):
            check("%s: stderr says '%s ...: allowed'" % (tag, line),
                  any(l.find(line) >= 0 and l.endswith(": allowed") for l in err.splitlines()),
                  err)
        signs = [l for l in err.splitlines() if "nip46 sign_event from" in l]
        check(tag + ": sign_event refused before connect, then one allowed, one refused",
              len(signs) == 3 and signs[0].endswith(": refused: not connected: send connect "
                                                    "with the secret first") and
              signs[1].endswith(": allowed") and ": refused: " in signs[2], err)
    finally:
        kill_group(b.pid, leader=b)


def scenario_nostrconnect(cli, o, relay, alice, alice_pub):
    """The client starts the pairing: nostr-tools' BunkerSigner.fromURI waits on the relay for
    the answer to its nostrconnect:// URI, which softchat bunker --connect sends."""
    n = subprocess.Popen([o.node, "--experimental-websocket",
                          os.path.join(HERE, "nostrconnect_client.mjs"), "--modules", o.modules,
                          "--relay", relay.url, "--user", alice_pub, "--granted-kind", "13"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    GROUPS.add(n.pid)
    b = None
    try:
        uri = first_line(n).decode()
        check("nostrconnect: nostr-tools made a nostrconnect:// URI with a secret",
              uri.startswith("nostrconnect://") and "secret=" in uri, uri)
        time.sleep(1)  # its subscription reaches the relay
        b = cli.popen(["bunker", "--key", alice, "--connect", uri, "--allow", "sign_event:13"])
        out, err = n.communicate(timeout=60)
        out = out.decode()
        check("nostrconnect: paired with softchat bunker --connect; get_public_key (alice) and "
              "sign_event:13 (verified) with no connect request",
              n.returncode == 0 and "3 passed" in out, out + err.decode())
        b.send_signal(signal.SIGTERM)
        rc = b.wait(timeout=20)
        berr = b.stderr.read().decode()
        check("nostrconnect: the bunker said it sent the connect response, then served "
              "get_public_key and sign_event",
              rc == 0 and "connect response sent" in berr and
              any("nip46 sign_event from" in l and l.endswith(": allowed")
                  for l in berr.splitlines()), "rc %r: %s" % (rc, berr))
        # a URI of the other kind is refused before anything starts
        r = cli.run(["bunker", "--key", alice, "--connect", "bunker://" + alice_pub +
                     "?relay=" + relay.url], timeout=30)
        check("nostrconnect: --connect with a bunker:// URI: exit 2, said, nothing on stdout",
              r.returncode == 2 and b"nostrconnect" in r.stderr and r.stdout == b"",
              r.stderr.decode())
    finally:
        kill_group(n.pid, leader=n)
        if b is not None:
            kill_group(b.pid, leader=b)


def start_bunker(cli, key, relay, allow):
    b = cli.popen(["bunker", "--key", key, "--relay", relay.url] + allow)
    uri = first_line(b).decode()
    time.sleep(1)  # its subscription reaches the relay
    return b, uri


def scenario_signer(cli, relay, alice, alice_pub, bob, bob_pub):
    s = cli.run(["dm", "inbox", "set", "--key", bob, "--relay", relay.url], timeout=60)
    check("signer: bob's inbox list on the relay", s.returncode == 0, s.stderr.decode())
    text = "hello bob, sealed by alice's bunker"
    b, uri = start_bunker(cli, alice, relay, ["--allow", "sign_event:13,nip44_encrypt"])
    try:
        s = cli.run(["dm", "send", "--signer", uri, "--to", bob_pub, "--bootstrap", relay.url,
                     "--timeout", "20", text], timeout=120)
        out = s.stdout.decode()
        check("signer: dm send --signer delivers (exit 0, bob's wrap delivered)",
              s.returncode == 0 and '"outcome":"delivered"' in out.splitlines()[0],
              "rc %d: %s %s" % (s.returncode, s.stderr.decode(), out))
    finally:
        kill_group(b.pid, leader=b)
    flt = '{"kinds":[1059],"#p":["%s"]}' % bob_pub
    f = cli.run(["relay", "fetch", "--url", relay.url, "--sec-file", bob, "--filter", flt],
                timeout=60)
    rcv = cli.run(["nip17", "receive", "--sec-file", bob], f.stdout, timeout=60)
    got = [json.loads(l) for l in rcv.stdout.decode().splitlines() if l.strip()]
    check("signer: bob opens it: from alice, the text",
          rcv.returncode == 0 and any(m["content"] == text and m["from"] == alice_pub
                                      for m in got),
          f.stderr.decode() + rcv.stderr.decode() + rcv.stdout.decode())
    b, uri = start_bunker(cli, alice, relay, [])
    try:
        s = cli.run(["dm", "send", "--signer", uri, "--to", bob_pub, "--bootstrap", relay.url,
                     "--timeout", "20", "not to be sent"], timeout=120)
        check("signer: a bunker without the grants: dm send fails, says refused, sends nothing",
              s.returncode == 2 and b"refused" in s.stderr and s.stdout == b"",
              "rc %d: %s %s" % (s.returncode, s.stderr.decode(), s.stdout.decode()))
    finally:
        kill_group(b.pid, leader=b)
    s = cli.run(["dm", "send", "--signer", uri, "--to", bob_pub, "--bootstrap", relay.url,
                 "--timeout", "3", "nobody answers"], timeout=60)
    check("signer: a bunker that is gone: dm send times out (exit 2, said), sends nothing",
          s.returncode == 2 and b"no answer from the bunker" in s.stderr and s.stdout == b"",
          "rc %d: %s %s" % (s.returncode, s.stderr.decode(), s.stdout.decode()))


def listen(cli, who, db, relay):
    """dm listen for 8 seconds (--timeout: exit 2): its stdout lines and stderr."""
    s = cli.run(["dm", "listen"] + who + ["--state", db, "--relay", relay.url, "--timeout", "8"],
                timeout=90)
    return s.returncode, s.stdout.decode().splitlines(), s.stderr.decode()


def scenario_listen(cli, tmp, relay, alice_pub, bob, bob_pub):
    db = os.path.join(tmp, "bob-signer.db")
    b, uri = start_bunker(cli, bob, relay, [])
    try:
        rc, lines, err = listen(cli, ["--signer", uri], db, relay)
        check("listen: a bunker without nip44_decrypt: the wrap skipped, said refused, nothing "
              "printed, no crash (exit 2 at --timeout)",
              rc == 2 and lines == [] and "skipped: the signer refused" in err,
              "rc %d: %s %r" % (rc, err, lines))
    finally:
        kill_group(b.pid, leader=b)
    b, uri = start_bunker(cli, bob, relay, ["--allow", "nip44_decrypt"])
    try:
        rc, lines, err = listen(cli, ["--signer", uri], db, relay)
        check("listen: the refused wrap was recorded: the same --state prints nothing again",
              rc == 2 and lines == [], "rc %d: %s %r" % (rc, err, lines))
        rc, lines, err = listen(cli, ["--signer", uri], os.path.join(tmp, "bob-signer2.db"),
                                relay)
    finally:
        kill_group(b.pid, leader=b)
    got = [json.loads(l) for l in lines]
    check("listen: dm listen --signer (granted, a fresh --state) prints alice's message once",
          rc == 2 and len(got) == 1 and got[0]["from"] == alice_pub and
          got[0]["content"] == "hello bob, sealed by alice's bunker",
          "rc %d: %s %r" % (rc, err, lines))
    rc, key_lines, err = listen(cli, ["--key", bob], os.path.join(tmp, "bob-key.db"), relay)
    check("listen: the very line dm listen --key bob prints", rc == 2 and key_lines == lines,
          "rc %d: %s %r %r" % (rc, err, key_lines, lines))


def scenario_inbox(cli, relay, dave, dave_pub):
    b, uri = start_bunker(cli, dave, relay, [])
    try:
        s = cli.run(["dm", "inbox", "set", "--signer", uri, "--relay", relay.url, "--timeout",
                     "20"], timeout=90)
        check("inbox: a bunker without sign_event:10050: dm inbox set fails, says refused, "
              "nothing on stdout", s.returncode == 2 and b"refused" in s.stderr and
              s.stdout == b"", "rc %d: %s %s" % (s.returncode, s.stderr.decode(), s.stdout))
    finally:
        kill_group(b.pid, leader=b)
    g = cli.run(["dm", "inbox", "get", dave_pub, "--bootstrap", relay.url], timeout=60)
    check("inbox: no list for dave on the relay (exit 3)", g.returncode == 3,
          "rc %d: %s %s" % (g.returncode, g.stderr.decode(), g.stdout))
    b, uri = start_bunker(cli, dave, relay, ["--allow", "sign_event:10050"])
    try:
        s = cli.run(["dm", "inbox", "set", "--signer", uri, "--relay", relay.url, "--timeout",
                     "20"], timeout=90)
    finally:
        kill_group(b.pid, leader=b)
    lines = [json.loads(l) for l in s.stdout.decode().splitlines()]
    check("inbox: dm inbox set --signer: the relay accepts the list (exit 0)",
          s.returncode == 0 and len(lines) == 1 and lines[0]["result"] == "accepted",
          "rc %d: %s %r" % (s.returncode, s.stderr.decode(), lines))
    g = cli.run(["dm", "inbox", "get", dave_pub, "--bootstrap", relay.url], timeout=60)
    check("inbox: dm inbox get finds the relay as dave's inbox",
          g.returncode == 0 and g.stdout.decode().split() == [relay.url],
          "rc %d: %s %s" % (g.returncode, g.stderr.decode(), g.stdout))


def fetch_erin(cli, relay, erin, erin_pub):
    """The messages in erin's wraps on relay (its AUTH answered as erin), and the wrap count."""
    flt = '{"kinds":[1059],"#p":["%s"]}' % erin_pub
    f = cli.run(["relay", "fetch", "--url", relay.url, "--sec-file", erin, "--filter", flt],
                timeout=60)
    rcv = cli.run(["nip17", "receive", "--sec-file", erin], f.stdout, timeout=60)
    got = [json.loads(l) for l in rcv.stdout.decode().splitlines() if l.strip()]
    wraps = [l for l in f.stdout.decode().splitlines() if l.strip()]
    return got, len(wraps), f.stderr.decode() + rcv.stderr.decode()


def scenario_auth(cli, o, tmp, relay, relays, alice, alice_pub):
    erin, erin_pub, _ = cli.key("erin")
    a = Relay("rust", o, tmp, free_port(), ["--auth"])
    relays.append(a)
    a.start()
    s = cli.run(["dm", "inbox", "set", "--key", erin, "--relay", a.url, "--to-relays",
                 relay.url], timeout=60)
    check("auth: erin's inbox is a relay that requires AUTH", s.returncode == 0,
          s.stderr.decode())
    text = "behind auth, the AUTH signed in alice's bunker"
    b, uri = start_bunker(cli, alice, relay,
                          ["--allow", "sign_event:13,nip44_encrypt,sign_event:22242"])
    try:
        s = cli.run(["dm", "send", "--signer", uri, "--to", erin_pub, "--bootstrap", relay.url,
                     "--timeout", "30", text], timeout=120)
    finally:
        kill_group(b.pid, leader=b)
    bunker_err = b.stderr.read().decode()
    out, err = s.stdout.decode(), s.stderr.decode()
    line = json.loads(out.splitlines()[0]) if out.strip() else {}
    check("auth: dm send --signer: erin's wrap accepted by the AUTH relay (exit 0)",
          s.returncode == 0 and line.get("outcome") == "delivered" and
          [(r["relay"], r["result"]) for r in line["relays"]] == [(a.url, "accepted")],
          "rc %d: %s %s" % (s.returncode, err, out))
    check("auth: the AUTH was signed by the signer (said on stderr)",
          "%s: AUTH (NIP-42) signed by the signer" % a.url in err, err)
    signs = [l for l in bunker_err.splitlines() if "nip46 sign_event from" in l]
    check("auth: the bunker signed three events: the two seals and the AUTH",
          len(signs) == 3 and all(l.endswith(": allowed") for l in signs), bunker_err)
    got, n, why = fetch_erin(cli, a, erin, erin_pub)
    check("auth: erin fetches it from her inbox and opens it: from alice, the text",
          n == 1 and [(m["from"], m["content"]) for m in got] == [(alice_pub, text)],
          "%d wraps: %s %r" % (n, why, got))
    b, uri = start_bunker(cli, erin, relay, ["--allow", "nip44_decrypt,sign_event:22242"])
    try:
        rc, lines, err = listen(cli, ["--signer", uri], os.path.join(tmp, "erin.db"), a)
    finally:
        kill_group(b.pid, leader=b)
    got = [json.loads(l) for l in lines]
    check("auth: dm listen --signer on the AUTH relay: the AUTH signed in erin's bunker, the "
          "message printed once",
          rc == 2 and [(m["from"], m["content"]) for m in got] == [(alice_pub, text)] and
          "%s: AUTH (NIP-42) signed by the signer" % a.url in err,
          "rc %d: %s %r" % (rc, err, lines))

    b, uri = start_bunker(cli, alice, relay, ["--allow", "sign_event:13,nip44_encrypt"])
    try:
        s = cli.run(["dm", "send", "--signer", uri, "--to", erin_pub, "--bootstrap", relay.url,
                     "--timeout", "30", "never stored"], timeout=120)
    finally:
        kill_group(b.pid, leader=b)
    bunker_err = b.stderr.read().decode()
    out, err = s.stdout.decode(), s.stderr.decode()
    line = json.loads(out.splitlines()[0]) if out.strip() else {}
    rel = line.get("relays") or [{}]
    check("auth: without sign_event:22242 the bunker refuses the AUTH, dm send says so",
          "the bunker refused sign_event" in err and "did not sign it" in err and
          any(l.find("nip46 sign_event from") >= 0 and ": refused: " in l
              for l in bunker_err.splitlines()), err + bunker_err)
    check("auth: ... and erin's wrap ends refused there (auth-required:, exit 4)",
          s.returncode == 4 and line.get("outcome") == "failed" and
          rel[0].get("result") == "refused" and
          rel[0].get("message", "").startswith("auth-required:"),
          "rc %d: %s %s" % (s.returncode, err, out))
    got, n, why = fetch_erin(cli, a, erin, erin_pub)
    check("auth: ... and nothing more is stored for erin there",
          n == 1 and [m["content"] for m in got] == [text], "%d wraps: %s %r" % (n, why, got))


def scenario_event(cli, relay, alice, alice_pub):
    tmpl = b'{"kind":1,"content":"signed in the bunker","created_at":1700000000,' \
           b'"tags":[["t","softchat"]]}'
    cases = [
        ("--sec-file and --signer", ["--sec-file", alice, "--signer", "bunker://x"],
         b"--signer"),
        ("--timeout without --signer", ["--sec-file", alice, "--timeout", "5"], b"--timeout"),
        ("a bad --timeout", ["--signer", "bunker://x", "--timeout", "0"], b"--timeout"),
        ("not a bunker URI", ["--signer", "nostrconnect://x"], b"bunker://"),
    ]
    for name, args, says in cases:
        r = cli.run(["event", "sign"] + args, tmpl, timeout=30)
        check("event: usage: %s: exit 2, said, nothing on stdout" % name,
              r.returncode == 2 and says in r.stderr and r.stdout == b"",
              "rc %d stdout %r stderr %r" % (r.returncode, r.stdout, r.stderr))
    b, uri = start_bunker(cli, alice, relay, ["--allow", "sign_event:1"])
    try:
        s = cli.run(["event", "sign", "--signer", uri, "--timeout", "30"], tmpl, timeout=90)
    finally:
        kill_group(b.pid, leader=b)
    k = cli.run(["event", "sign", "--sec-file", alice], tmpl, timeout=30)
    v = cli.run(["event", "verify"], s.stdout, timeout=30)
    ok = s.returncode == 0 and k.returncode == 0 and len(s.stdout.splitlines()) == 1
    ev = json.loads(s.stdout) if ok else {}
    ref = json.loads(k.stdout) if ok else {}
    check("event: event sign --signer: one line, event verify says valid",
          ok and v.returncode == 0 and v.stdout.decode().split() == ["valid", ev["id"]],
          "rc %d/%d: %s %s %s" % (s.returncode, v.returncode, s.stderr.decode(), s.stdout,
                                  v.stdout))
    check("event: the --sec-file line's fields (alice's pubkey, the id), the signature aside",
          ok and ev["pubkey"] == alice_pub and ev["sig"] != "" and
          {f: ev[f] for f in ev if f != "sig"} == {f: ref[f] for f in ref if f != "sig"},
          "%r %r" % (ev, ref))
    b, uri = start_bunker(cli, alice, relay, ["--allow", "sign_event:13"])
    try:
        s = cli.run(["event", "sign", "--signer", uri, "--timeout", "30"], tmpl, timeout=90)
    finally:
        kill_group(b.pid, leader=b)
    check("event: a bunker without sign_event:1: exit 2, says refused, nothing on stdout",
          s.returncode == 2 and b"refused" in s.stderr and s.stdout == b"",
          "rc %d: %s %s" % (s.returncode, s.stderr.decode(), s.stdout))


def scenario_nip98(cli, tmp, relay, alice, alice_pub, carol, carol_pub):
    url, body = "https://media.example/upload?x=1", os.path.join(tmp, "nip98-body")
    with open(body, "wb") as f:
        f.write(b'{"file":"cat.png"}')
    req = ["--url", url, "--method", "POST", "--payload-file", body]
    cases = [
        ("--sec-file and --signer", ["--sec-file", alice, "--signer", "bunker://x"],
         b"--signer"),
        ("--ca-file without --signer", ["--sec-file", alice, "--ca-file", body], b"--ca-file"),
        ("neither", [], b"--sec-file FILE or --signer URI"),
    ]
    for name, args, says in cases:
        r = cli.run(["nip98", "sign"] + args + req, timeout=30)
        check("nip98: usage: %s: exit 2, said, nothing on stdout" % name,
              r.returncode == 2 and says in r.stderr and r.stdout == b"",
              "rc %d stdout %r stderr %r" % (r.returncode, r.stdout, r.stderr))
    b, uri = start_bunker(cli, alice, relay,
                          ["--allow", "sign_event:27235", "--bunker-key", carol])
    try:
        s = cli.run(["nip98", "sign", "--signer", uri, "--timeout", "30"] + req, timeout=90)
    finally:
        kill_group(b.pid, leader=b)
    bunker_err = b.stderr.read().decode()
    header = s.stdout.decode().strip()
    check("nip98: nip98 sign --signer: exit 0, one line, a Nostr header (bunker key carol's)",
          s.returncode == 0 and len(s.stdout.splitlines()) == 1 and
          header.startswith("Nostr ") and uri.startswith("bunker://" + carol_pub),
          "rc %d: %s %r" % (s.returncode, s.stderr.decode(), s.stdout))
    v = cli.run(["nip98", "verify"] + req + [header], timeout=30)
    ev = json.loads(v.stdout) if v.returncode == 0 else {}
    check("nip98: nip98 verify accepts it for the same URL, method and body; the signer is "
          "alice (the user key, not the bunker key)",
          v.returncode == 0 and ev.get("kind") == 27235 and ev.get("pubkey") == alice_pub,
          "rc %d: %s %r" % (v.returncode, v.stderr.decode(), v.stdout))
    v = cli.run(["nip98", "verify", "--url", url, "--method", "GET", "--payload-file", body,
                 header], timeout=30)
    check("nip98: ... and refuses it for another method (exit 1, nip98-method)",
          v.returncode == 1 and b"nip98-method" in v.stderr, v.stderr.decode())
    check("nip98: the bunker allowed one sign_event",
          [l.endswith(": allowed") for l in bunker_err.splitlines()
           if "nip46 sign_event from" in l] == [True], bunker_err)
    b, uri = start_bunker(cli, alice, relay, ["--allow", "sign_event:1"])
    try:
        s = cli.run(["nip98", "sign", "--signer", uri, "--timeout", "30"] + req, timeout=90)
    finally:
        kill_group(b.pid, leader=b)
    check("nip98: a bunker without sign_event:27235: exit 2, says refused, nothing on stdout",
          s.returncode == 2 and b"the bunker refused sign_event" in s.stderr and
          s.stdout == b"", "rc %d: %s %s" % (s.returncode, s.stderr.decode(), s.stdout))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--python-relay", required=True)
    ap.add_argument("--rust-relay", required=True)
    ap.add_argument("--node", required=True)
    ap.add_argument("--modules", required=True)
    ap.add_argument("--backend")
    o = ap.parse_args()
    if not have_tools(((o.python_relay, "nostr-relay"), (o.rust_relay, "the rust relay"))):
        return 1
    if not os.path.isdir(os.path.join(o.modules, "node_modules", "nostr-tools")):
        print("FAIL: nostr-tools is not installed in %s: interop-node.setup failed" % o.modules)
        return 1

    def body(rig):
        cli, tmp = rig.cli, rig.tmp
        r = rig.relay("python")
        alice, alice_pub, _ = cli.key("alice")
        scenario_usage(cli, r, alice)
        scenario_serve(cli, o, r, alice, alice_pub)
        carol, carol_pub, _ = cli.key("carol")
        scenario_serve(cli, o, r, alice, alice_pub, carol, carol_pub)
        scenario_nostrconnect(cli, o, r, alice, alice_pub)
        bob, bob_pub, _ = cli.key("bob")
        scenario_signer(cli, r, alice, alice_pub, bob, bob_pub)
        scenario_listen(cli, tmp, r, alice_pub, bob, bob_pub)
        dave, dave_pub, _ = cli.key("dave")
        scenario_inbox(cli, r, dave, dave_pub)
        scenario_auth(cli, o, tmp, r, rig.servers, alice, alice_pub)
        scenario_event(cli, r, alice, alice_pub)
        scenario_nip98(cli, tmp, r, alice, alice_pub, carol, carol_pub)

    return run_scenarios("bunker", o, body)


if __name__ == "__main__":
    sys.exit(main())
