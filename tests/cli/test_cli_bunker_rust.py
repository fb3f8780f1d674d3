#!/usr/bin/env python3
"""NIP-46 between softchat and rust-nostr's nostr-connect crate (crates.io, 0.44.0), both ways,
over rust-nostr's relay builder (tests/relay/live/rust-relay) on loopback, each process in a
process group of its own killed whole on success and failure (tests/relay/live/live.py's
helpers). The Rust side is tests/nip46/rust-peer (softchat-nip46-peer).

    test_cli_bunker_rust.py --cli PATH --rust-relay PATH --peer PATH [--backend NAME]

Scenarios, each a numbered check:
  signer   nostr-connect's NostrConnectRemoteSigner serves alice's key at carol's key (the
           bunker key differs from the user's) with a secret: its bunker:// URI names carol.
           dm send --signer <URI> (alice's key never given to softchat): the NIP-17 message
           to bob is sealed through the Rust signer (nip44_encrypt and sign_event as NIP-46
           requests over the relay) and delivered; bob fetches it and opens it with his own
           key (nip17 receive): from alice, the text. dm listen --signer <URI> prints bob's
           message to alice (two nip44_decrypt through the Rust signer), the very line
           dm listen --key alice prints. A signer that rejects sign_event ("Rejected", sent
           with "result": null): dm send fails at once (exit 2, "refused", well before its
           --timeout), nothing on stdout
  client   softchat bunker --key alice --bunker-key carol, used by nostr-connect's client
           (NostrConnect with the bunker URI, a fresh client key): connect with the secret
           and get_public_key (alice's, not carol's), sign_event (kind 1 with a tag, verified
           in Rust), nip44_encrypt (opened in Rust) and nip44_decrypt (of a payload made in
           Rust); nip04_encrypt gives an error with the bunker's reason. Against a bunker
           granting only nip44_encrypt: sign_event and nip44_decrypt give errors with the
           bunker's reason ("permission denied"); a URI with another secret: connect fails
           with "invalid secret". The bunker says each request on stderr, allowed or refused
Loopback only (127.0.0.1); every wait is bounded."""

import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "relay", "live"))
sys.path.insert(0, HERE)
import live  # noqa: E402,F401  (process groups, relays on loopback, checks)
from live import check, have_tools, run_scenarios, GROUPS, kill_group, run_group  # noqa: E402
from test_cli_bunker import first_line, listen, start_bunker  # noqa: E402


def start_signer(o, relay, user_key, signer_key, extra):
    """The Rust remote signer (key files): its process and the URI of its "ready" line ("" if
    none)."""
    p = subprocess.Popen([o.peer, "signer", "--relay", relay.url, "--user-key", user_key,
                          "--signer-key", signer_key] + extra,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    GROUPS.add(p.pid)
    line = first_line(p, timeout=60).decode()
    return p, line[len("ready "):] if line.startswith("ready ") else ""


def stop(p):
    """Kills p's group: its stderr (for the details of a failing check)."""
    kill_group(p.pid, leader=p)
    try:
        return p.stderr.read().decode(errors="replace")
    except (OSError, ValueError):
        return ""


def scenario_signer(o, cli, tmp, relay, keys):
    (alice, alice_pub, _), (bob, bob_pub, _), (carol, carol_pub, _) = keys
    for who in (bob, alice):
        s = cli.run(["dm", "inbox", "set", "--key", who, "--relay", relay.url], timeout=60)
        check("signer: an inbox list on the relay", s.returncode == 0, s.stderr.decode())
    text = "hello bob, sealed by nostr-connect's signer \u2713"
    p, uri = start_signer(o, relay, alice, carol, ["--secret", "rust-s3cret"])
    try:
        check("signer: the Rust signer is ready; its URI names the signer key (carol), "
              "the relay and the secret",
              uri.startswith("bunker://%s?" % carol_pub) and "relay=" in uri and
              "secret=rust-s3cret" in uri, uri)
        s = cli.run(["dm", "send", "--signer", uri, "--to", bob_pub, "--bootstrap", relay.url,
                     "--timeout", "20", text], timeout=120)
        out = s.stdout.decode()
        check("signer: dm send --signer delivers (exit 0, bob's wrap delivered)",
              s.returncode == 0 and '"outcome":"delivered"' in (out.splitlines() or [""])[0],
              "rc %d: %s %s" % (s.returncode, s.stderr.decode(), out))
        s = cli.run(["dm", "send", "--key", bob, "--to", alice_pub, "--bootstrap", relay.url,
                     "hello alice, opened by your Rust signer"], timeout=120)
        check("signer: bob's message to alice sent", s.returncode == 0, s.stderr.decode())
        rc, lines, err = listen(cli, ["--signer", uri], os.path.join(tmp, "alice-signer.db"),
                                relay)
    finally:
        err_signer = stop(p)
    flt = '{"kinds":[1059],"#p":["%s"]}' % bob_pub
    f = cli.run(["relay", "fetch", "--url", relay.url, "--sec-file", bob, "--filter", flt],
                timeout=60)
    rcv = cli.run(["nip17", "receive", "--sec-file", bob], f.stdout, timeout=60)
    got = [json.loads(l) for l in rcv.stdout.decode().splitlines() if l.strip()]
    check("signer: bob opens it with his key: from alice, the text",
          rcv.returncode == 0 and any(m["content"] == text and m["from"] == alice_pub
                                      for m in got),
          f.stderr.decode() + rcv.stderr.decode() + rcv.stdout.decode())
    msgs = [json.loads(l) for l in lines]
    check("signer: dm listen --signer prints bob's message to alice (exit 2 at --timeout)",
          rc == 2 and any(m["from"] == bob_pub and
                          m["content"] == "hello alice, opened by your Rust signer"
                          for m in msgs),
          "rc %d: %s %r %s" % (rc, err, lines, err_signer))
    rc, key_lines, err = listen(cli, ["--key", alice], os.path.join(tmp, "alice-key.db"), relay)
    check("signer: the very lines dm listen --key alice prints",
          rc == 2 and sorted(key_lines) == sorted(lines) and len(lines) >= 1,
          "rc %d: %s %r %r" % (rc, err, key_lines, lines))
    p, uri = start_signer(o, relay, alice, carol, ["--reject", "sign_event"])
    try:
        t0 = time.monotonic()
        s = cli.run(["dm", "send", "--signer", uri, "--to", bob_pub, "--bootstrap", relay.url,
                     "--timeout", "30", "not to be sent"], timeout=120)
        took = time.monotonic() - t0
        check("signer: a Rust signer rejecting sign_event: dm send fails at once (exit 2, "
              "\"refused: Rejected\", well before --timeout), nothing on stdout",
              s.returncode == 2 and b"refused sign_event: Rejected" in s.stderr and
              s.stdout == b"" and took < 20,
              "rc %d in %.1f s: %s %s" % (s.returncode, took, s.stderr.decode(), s.stdout))
    finally:
        stop(p)


def rust_client(o, uri, user_pub, calls):
    """The Rust client's run: its exit status and its JSON lines by call."""
    argv = [o.peer, "client", "--uri", uri, "--user", user_pub, "--timeout", "15"]
    for c in calls:
        argv += ["--call", c]
    r = run_group(argv, b"", 180)
    got = {}
    for line in r.stdout.decode().splitlines():
        try:
            m = json.loads(line)
            got[m["call"]] = m
        except (ValueError, KeyError):
            pass
    return r.returncode, got, r.stdout.decode() + r.stderr.decode()


def ok(got, call):
    return got.get(call, {}).get("ok") is True


def refused(got, call, reason):
    m = got.get(call, {})
    return m.get("ok") is False and reason in m.get("error", "")


def scenario_client(o, cli, relay, keys):
    (alice, alice_pub, _), _, (carol, carol_pub, _) = keys
    b, uri = start_bunker(cli, alice, relay, ["--bunker-key", carol, "--allow",
                                              "sign_event:1,nip44_encrypt,nip44_decrypt"])
    try:
        check("client: softchat bunker's URI names carol's key",
              uri.startswith("bunker://%s?" % carol_pub), uri)
        rc, got, out = rust_client(o, uri, alice_pub, ["sign_event", "nip44", "nip04"])
        check("client: nostr-connect connects with the secret; get_public_key is alice's "
              "(not the bunker key)",
              rc == 0 and ok(got, "connect+get_public_key") and
              got["connect+get_public_key"].get("result") == alice_pub, out)
        check("client: sign_event: kind 1, alice's, verified in Rust",
              ok(got, "sign_event") and got["sign_event"]["event"]["pubkey"] == alice_pub, out)
        check("client: nip44_encrypt opened in Rust, nip44_decrypt of Rust's payload",
              ok(got, "nip44"), out)
        check("client: nip04_encrypt is an error with the bunker's reason",
              refused(got, "nip04", "nip04 is not supported"), out)
    finally:
        kill_group(b.pid, leader=b)
    err = b.stderr.read().decode()
    for line in ("nip46 connect from", "nip46 get_public_key from", "nip46 sign_event from",
                 "nip46 nip44_encrypt from", "nip46 nip44_decrypt from"):
        check("client: the bunker says '%s ...: allowed'" % line,
              any(l.find(line) >= 0 and l.endswith(": allowed") for l in err.splitlines()), err)
    check("client: the bunker says nip04_encrypt refused",
          any("nip46 nip04_encrypt from" in l and ": refused: " in l for l in err.splitlines()),
          err)
    b, uri = start_bunker(cli, alice, relay, ["--bunker-key", carol, "--allow", "nip44_encrypt"])
    try:
        rc, got, out = rust_client(o, uri, alice_pub, ["sign_event", "nip44_decrypt"])
        check("client: without the grants, sign_event and nip44_decrypt are errors with the "
              "bunker's reason",
              rc == 0 and refused(got, "sign_event", "permission denied") and
              refused(got, "nip44_decrypt", "permission denied"), out)
        bad = uri.split("&secret=")[0] + "&secret=not-the-secret"
        rc, got, out = rust_client(o, bad, alice_pub, [])
        check("client: another secret: connect fails with the bunker's reason (exit 1)",
              rc == 1 and refused(got, "connect+get_public_key", "invalid secret"), out)
    finally:
        kill_group(b.pid, leader=b)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--rust-relay", required=True)
    ap.add_argument("--peer", required=True)
    ap.add_argument("--backend")
    o = ap.parse_args()
    if not have_tools(((o.rust_relay, "the Rust relay (relay.live.setup.rust)"),
                       (o.peer, "softchat-nip46-peer (cli.bunker.rust.setup)"))):
        return 1

    def body(rig):
        r = rig.relay("rust")
        keys = [rig.cli.key(n) for n in ("alice", "bob", "carol")]
        scenario_signer(o, rig.cli, rig.tmp, r, keys)
        scenario_client(o, rig.cli, r, keys)

    return run_scenarios("bunker.rust", o, body)


if __name__ == "__main__":
    sys.exit(main())
