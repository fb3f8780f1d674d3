#!/usr/bin/env python3
"""The low-level commands with --signer: the user's key only in softchat bunker (a NIP-46
remote signer), end to end over nostr-relay (PyPI) on loopback, started here in a process
group of its own that is killed whole on success and failure (tests/relay/live/live.py's
helpers), as is each bunker.

    test_cli_signer.py --cli PATH --python-relay VENV/bin/nostr-relay --rust-relay PATH
                       [--backend NAME]

Scenarios, each a numbered check; alice's key lives in the bunker, bob's and carol's in files:
  nip44   nip44 encrypt --signer --pub bob: bob decrypts it with his file; bob's payload to
          alice decrypts through the bunker to his text; --nonce / --extended / no key /
          both keys are usage errors; a bunker without the grant: exit 2, refused, nothing
          on stdout
  nip59   nip59 wrap --signer --to bob: bob unwraps it (from alice); bob's wrap to alice
          unwraps through the bunker to the line nip59 unwrap --sec-file alice prints; a
          wrap for carol: the bunker cannot decrypt it (signer-refused, exit 2)
  nip17   nip17 send --signer --to bob: two wraps, bob receives alice's text; nip17 receive
          --signer over alice's copy, a wrap for carol and bob's reply: the copy and the reply
          received, carol's skipped as signer-refused (exit 1, the stream goes on)
  auth    rust-nostr's relay requiring AUTH (NIP-42) for reading and writing: relay publish
          --signer (a bunker with sign_event:22242) publishes alice's note, the AUTH signed in
          the bunker (said on stderr); relay fetch --signer reads it back; relay sync
          --signer lists bob's wrap to alice there; without a key the relay's refusal is
          said (exit 1); a bunker without the grant: the AUTH cannot be answered (exit 2)
Loopback only (127.0.0.1); every wait is bounded."""

import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "relay", "live"))
import live  # noqa: E402,F401  (process groups, relays on loopback, checks)
from live import check, have_tools, run_scenarios, kill_group, free_port, Relay  # noqa: E402
from test_cli_bunker import start_bunker  # noqa: E402

NIP44_GRANTS = ["--allow", "nip44_encrypt,nip44_decrypt"]
WRAP_GRANTS = ["--allow", "nip44_encrypt,nip44_decrypt,sign_event:13"]


def said(r):
    return "rc %d stdout %r stderr %r" % (r.returncode, r.stdout, r.stderr)


def with_bunker(cli, key, relay, allow, calls):
    """Runs calls(uri) -> results while a bunker serves key with the grants allow."""
    b, uri = start_bunker(cli, key, relay, allow)
    try:
        return calls(uri)
    finally:
        kill_group(b.pid, leader=b)


def scenario_nip44(cli, relay, alice, alice_pub, bob, bob_pub):
    usage = [
        ("--nonce with --signer", ["encrypt", "--signer", "bunker://x", "--pub", bob_pub,
                                   "--nonce", "00" * 32], b"--nonce"),
        ("--extended with --signer", ["encrypt", "--signer", "bunker://x", "--pub", bob_pub,
                                      "--extended"], b"--extended"),
        ("no key", ["decrypt", "--pub", bob_pub], b"--sec-file FILE or --signer URI"),
        ("both keys", ["decrypt", "--sec-file", alice, "--signer", "bunker://x", "--pub",
                       bob_pub], b"--sec-file FILE or --signer URI"),
    ]
    for name, args, says in usage:
        r = cli.run(["nip44"] + args, b"text", timeout=30)
        check("nip44: usage: %s: exit 2, said, nothing on stdout" % name,
              r.returncode == 2 and says in r.stderr and r.stdout == b"", said(r))
    text = "to bob, encrypted in alice's bunker \u2713".encode()
    theirs = cli.run(["nip44", "encrypt", "--sec-file", bob, "--pub", alice_pub],
                     b"from bob to alice", timeout=30)

    def calls(uri):
        e = cli.run(["nip44", "encrypt", "--signer", uri, "--pub", bob_pub], text, timeout=90)
        d = cli.run(["nip44", "decrypt", "--signer", uri, "--pub", bob_pub], theirs.stdout,
                    timeout=90)
        return e, d
    e, d = with_bunker(cli, alice, relay, NIP44_GRANTS, calls)
    back = cli.run(["nip44", "decrypt", "--sec-file", bob, "--pub", alice_pub], e.stdout,
                   timeout=30)
    check("nip44: encrypt --signer: bob decrypts the payload with his key to the text",
          e.returncode == 0 and back.returncode == 0 and back.stdout == text,
          said(e) + said(back))
    check("nip44: decrypt --signer: bob's payload to alice opens to his text",
          theirs.returncode == 0 and d.returncode == 0 and d.stdout == b"from bob to alice",
          said(d))
    r = with_bunker(cli, alice, relay, ["--allow", "nip44_encrypt"],
                    lambda uri: cli.run(["nip44", "decrypt", "--signer", uri, "--pub", bob_pub],
                                        theirs.stdout, timeout=90))
    check("nip44: a bunker without nip44_decrypt: exit 2, says refused, nothing on stdout",
          r.returncode == 2 and b"refused" in r.stderr and r.stdout == b"", said(r))


def scenario_nip59(cli, relay, alice, alice_pub, bob, bob_pub, carol_pub):
    tmpl = b'{"kind":1,"content":"a rumor sealed in the bunker","tags":[]}'
    to_alice = cli.run(["nip59", "wrap", "--sec-file", bob, "--to", alice_pub],
                       b'{"kind":1,"content":"from bob","tags":[]}', timeout=30)
    to_carol = cli.run(["nip59", "wrap", "--sec-file", bob, "--to", carol_pub], tmpl, timeout=30)

    def calls(uri):
        w = cli.run(["nip59", "wrap", "--signer", uri, "--to", bob_pub], tmpl, timeout=90)
        u = cli.run(["nip59", "unwrap", "--signer", uri], to_alice.stdout, timeout=90)
        c = cli.run(["nip59", "unwrap", "--signer", uri], to_carol.stdout, timeout=90)
        return w, u, c
    w, u, c = with_bunker(cli, alice, relay, WRAP_GRANTS, calls)
    opened = cli.run(["nip59", "unwrap", "--sec-file", bob], w.stdout, timeout=30)
    rumor = json.loads(opened.stdout) if opened.returncode == 0 else {}
    check("nip59: wrap --signer: bob unwraps it: from alice, the rumor's content",
          w.returncode == 0 and rumor.get("pubkey") == alice_pub and
          rumor.get("content") == "a rumor sealed in the bunker", said(w) + said(opened))
    local = cli.run(["nip59", "unwrap", "--sec-file", alice], to_alice.stdout, timeout=30)
    check("nip59: unwrap --signer: the line unwrap --sec-file alice prints",
          u.returncode == 0 and local.returncode == 0 and u.stdout == local.stdout and
          json.loads(u.stdout)["pubkey"] == bob_pub, said(u) + said(local))
    check("nip59: a wrap for carol: signer-refused, exit 2, nothing on stdout",
          c.returncode == 2 and b"signer-refused" in c.stderr and c.stdout == b"", said(c))


def scenario_nip17(cli, relay, alice, alice_pub, bob, bob_pub, carol_pub):
    text = "a NIP-17 message, sealed in alice's bunker"
    to_carol = cli.run(["nip17", "send", "--sec-file", bob, "--to", carol_pub],
                       b"for carol only", timeout=30)
    reply = cli.run(["nip17", "send", "--sec-file", bob, "--to", alice_pub],
                    b"bob's reply", timeout=30)

    def calls(uri):
        s = cli.run(["nip17", "send", "--signer", uri, "--to", bob_pub], text.encode(),
                    timeout=90)
        wraps = s.stdout.splitlines()
        stream = b"\n".join(wraps[1:] + to_carol.stdout.splitlines()[:1] +
                            reply.stdout.splitlines()[:1]) + b"\n"
        r = cli.run(["nip17", "receive", "--signer", uri], stream, timeout=120)
        return s, r
    s, r = with_bunker(cli, alice, relay, WRAP_GRANTS, calls)
    got = cli.run(["nip17", "receive", "--sec-file", bob], s.stdout, timeout=30)
    msgs = [json.loads(l) for l in got.stdout.decode().splitlines() if l.strip()]
    check("nip17: send --signer: two wraps; bob receives alice's text from the first",
          s.returncode == 0 and len(s.stdout.splitlines()) == 2 and got.returncode == 1 and
          len(msgs) == 1 and msgs[0]["from"] == alice_pub and msgs[0]["content"] == text,
          said(s) + said(got))
    mine = [json.loads(l) for l in r.stdout.decode().splitlines() if l.strip()]
    check("nip17: receive --signer: alice's copy and bob's reply, carol's wrap skipped "
          "(signer-refused, exit 1)",
          r.returncode == 1 and [(m["from"], m["content"]) for m in mine] ==
          [(alice_pub, text), (bob_pub, "bob's reply")] and
          b"wrap 2: signer-refused" in r.stderr, said(r))


def scenario_auth(cli, o, tmp, relays, alice, alice_pub, bob):
    a = Relay("rust", o, tmp, free_port(), ["--auth"])
    relays.append(a)
    a.start()
    note = cli.run(["event", "sign", "--sec-file", alice],
                   b'{"kind":1,"content":"published behind AUTH signed in the bunker"}',
                   timeout=30)
    wrap = cli.run(["nip59", "wrap", "--sec-file", bob, "--to", alice_pub],
                   b'{"kind":14,"content":"a wrap to sync"}', timeout=30)
    w = cli.run(["relay", "publish", "--url", a.url, "--sec-file", bob], wrap.stdout, timeout=60)
    check("auth: bob's wrap to alice on the AUTH relay (bob's own AUTH)", w.returncode == 0,
          said(w))
    flt = '{"authors":["%s"],"kinds":[1]}' % alice_pub
    bare = cli.run(["relay", "publish", "--url", a.url], note.stdout, timeout=60)
    check("auth: relay publish without a key: the relay requires AUTH (exit 1, said)",
          bare.returncode == 1 and b"requires AUTH" in bare.stderr, said(bare))

    def calls(uri):
        p = cli.run(["relay", "publish", "--url", a.url, "--signer", uri], note.stdout,
                    timeout=90)
        f = cli.run(["relay", "fetch", "--url", a.url, "--signer", uri, "--filter", flt],
                    timeout=90)
        y = cli.run(["relay", "sync", "--url", a.url, "--signer", uri], timeout=90)
        return p, f, y
    p, f, y = with_bunker(cli, alice, relays[0], ["--allow", "sign_event:22242"], calls)
    line = json.loads(p.stdout) if p.returncode == 0 else {}
    check("auth: relay publish --signer: accepted, the AUTH signed by the signer (said)",
          line.get("accepted") is True and b"AUTH (NIP-42) signed by the signer" in p.stderr,
          said(p))
    check("auth: relay fetch --signer reads alice's note back",
          f.returncode == 0 and f.stdout.splitlines() == note.stdout.splitlines(), said(f))
    check("auth: relay sync --signer lists bob's wrap to alice",
          y.returncode == 0 and y.stdout.splitlines() == wrap.stdout.splitlines(), said(y))
    r = with_bunker(cli, alice, relays[0], ["--allow", "sign_event:1"],
                    lambda uri: cli.run(["relay", "fetch", "--url", a.url, "--signer", uri,
                                         "--filter", flt, "--timeout", "20"], timeout=90))
    check("auth: a bunker without sign_event:22242: the AUTH cannot be answered (exit 2, said)",
          r.returncode == 2 and b"AUTH" in r.stderr and b"refused" in r.stderr and
          r.stdout == b"", said(r))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--python-relay", required=True)
    ap.add_argument("--rust-relay", required=True)
    ap.add_argument("--backend")
    o = ap.parse_args()
    if not have_tools(((o.python_relay, "nostr-relay"), (o.rust_relay, "the rust relay"))):
        return 1

    def body(rig):
        cli = rig.cli
        r = rig.relay("python")
        alice, alice_pub, _ = cli.key("alice")
        bob, bob_pub, _ = cli.key("bob")
        _, carol_pub, _ = cli.key("carol")
        scenario_nip44(cli, r, alice, alice_pub, bob, bob_pub)
        scenario_nip59(cli, r, alice, alice_pub, bob, bob_pub, carol_pub)
        scenario_nip17(cli, r, alice, alice_pub, bob, bob_pub, carol_pub)
        scenario_auth(cli, o, rig.tmp, rig.servers, alice, alice_pub, bob)

    return run_scenarios("signer", o, body)


if __name__ == "__main__":
    sys.exit(main())
