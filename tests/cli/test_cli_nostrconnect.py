#!/usr/bin/env python3
"""softchat signer connect: the client's side of the nostrconnect:// pairing (NIP-46), end to
end over nostr-relay (PyPI) on loopback, with two signers: softchat bunker --connect (the
NIP-46 form: a connect response carrying the secret) and rust-nostr's
NostrConnectRemoteSigner::from_uri (tests/nip46/rust-peer, mode nostrconnect: a connect
request carrying the secret). Every process is started in a process group of its own that is
killed whole on success and failure (tests/relay/live/live.py's helpers).

    test_cli_nostrconnect.py --cli PATH --python-relay VENV/bin/nostr-relay --peer PATH
                             [--backend NAME]

Scenarios, each a numbered check; alice's key lives only in the signers:
  bunker   signer connect --json with a new --signer-key file: the file is created, mode
           0600, and the URI on stderr names its key; softchat bunker --connect URI (a bunker
           key apart from alice's) pairs: the printed bunker:// URI names the bunker key and
           the relay and has no secret, the user key is alice's (npub too); event sign
           --signer <that URI> --signer-key FILE signs as alice through the same bunker,
           while a fresh client key (no --signer-key) is refused there
  again    signer connect with the existing file (plain output): the file is read, not
           replaced (same bytes), the URI names the same key, two lines on stdout
  rust     the same pairing with rust-nostr's signer; then event sign --signer-key through it
  wrong    a signer given the URI with another secret: nothing is accepted, the command
           says it skipped the event and that no signer answered, exit 2, nothing on stdout
  usage    --signer-key without --signer; signer connect without --signer-key
Loopback only (127.0.0.1); every wait is bounded."""

import argparse
import json
import os
import re
import select
import stat
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "relay", "live"))
import live  # noqa: E402,F401  (process groups, relays on loopback, checks)
from live import check, have_tools, run_scenarios, GROUPS, kill_group  # noqa: E402

TEMPLATE = b'{"kind":1,"content":"signed through a nostrconnect pairing","tags":[]}'


def said(r):
    return "rc %d stdout %r stderr %r" % (r.returncode, r.stdout, r.stderr)


class Pairing:
    """softchat signer connect running: its stderr read as it comes."""

    def __init__(self, cli, relay, key_file, extra=()):
        self.p = cli.popen(["signer", "connect", "--relay", relay.url, "--signer-key",
                            key_file] + list(extra))
        self.err = b""

    def read_err(self, until, timeout=30):
        end = time.monotonic() + timeout
        while until not in self.err and time.monotonic() < end:
            ready, _, _ = select.select([self.p.stderr], [], [], 0.2)
            if ready:
                chunk = os.read(self.p.stderr.fileno(), 4096)
                if not chunk:
                    break
                self.err += chunk
        return until in self.err

    def uri(self):
        """The nostrconnect:// URI, once the client listens on the relay ("" if not)."""
        if not self.read_err(b"waiting for the signer"):
            return ""
        m = re.search(rb"^(nostrconnect://\S+)$", self.err, re.M)
        return m.group(1).decode() if m else ""

    def finish(self, timeout=90):
        try:
            out, err = self.p.communicate(timeout=timeout)
        finally:
            kill_group(self.p.pid, leader=self.p)
        return subprocess.CompletedProcess([], self.p.returncode, out, self.err + err)


def npub_of(cli, pub):
    return cli.run(["nip19", "encode", "npub", pub]).stdout.decode().strip()


def sign_with(cli, uri, key_file, timeout_s="20"):
    args = ["event", "sign", "--signer", uri, "--timeout", timeout_s]
    if key_file is not None:
        args += ["--signer-key", key_file]
    return cli.run(args, TEMPLATE, timeout=120)


def check_signed(cli, tag, r, alice_pub):
    ev = json.loads(r.stdout) if r.returncode == 0 else {}
    v = cli.run(["event", "verify"], r.stdout) if r.returncode == 0 else None
    check("%s: event sign --signer --signer-key: signed as alice, verifies" % tag,
          ev.get("pubkey") == alice_pub and v is not None and v.returncode == 0 and
          ev.get("content") == "signed through a nostrconnect pairing", said(r))


def check_paired(cli, tag, r, signer_pub, relay, alice_pub, as_json):
    lines = r.stdout.decode().splitlines()
    if as_json:
        got = json.loads(lines[0]) if r.returncode == 0 and len(lines) == 1 else {}
        bunker, npub = got.get("bunker", ""), got.get("npub")
        ok = got.get("remote_signer") == signer_pub and got.get("pubkey") == alice_pub
    else:
        bunker, npub = (lines + ["", ""])[:2]
        ok = r.returncode == 0 and len(lines) == 2
    check("%s: paired (exit 0): bunker://<signer key>?relay=<relay>, no secret; alice's npub"
          % tag, ok and bunker == "bunker://%s?relay=%s" % (signer_pub, relay.url.replace(
              ":", "%3A").replace("/", "%2F")) and npub == npub_of(cli, alice_pub), said(r))
    return bunker


def scenario_bunker(cli, relay, tmp, alice, alice_pub):
    key_file = os.path.join(tmp, "client.key")
    bkey, bkey_pub, _ = cli.key("bunker-key")
    pr = Pairing(cli, relay, key_file, ["--json", "--timeout", "60"])
    b = None
    try:
        uri = pr.uri()
        mode = stat.S_IMODE(os.stat(key_file).st_mode) if os.path.exists(key_file) else None
        client_pub = cli.run(["key", "pub", "--sec-file", key_file]).stdout.decode().strip()
        check("bunker: --signer-key FILE created, mode 0600, said on stderr",
              mode == 0o600 and b"a new client key written" in pr.err, "mode %r" % mode)
        check("bunker: the nostrconnect:// URI names the file's key, the relay, a secret",
              uri.startswith("nostrconnect://%s?relay=" % client_pub) and
              re.search(r"[?&]secret=[0-9a-f]{32}(&|$)", uri) is not None and
              "name=softchat" in uri, "%r %r" % (uri, pr.err))
        b = cli.popen(["bunker", "--key", alice, "--bunker-key", bkey, "--connect", uri,
                       "--allow", "sign_event:1"])
        r = pr.finish()
        got = json.loads(r.stdout) if r.returncode == 0 else {}
        check("bunker: the JSON carries the nostrconnect URI shown on stderr",
              got.get("nostrconnect") == uri, said(r))
        bunker = check_paired(cli, "bunker", r, bkey_pub, relay, alice_pub, True)
        check("bunker: the pairing was the connect response form (said)",
              b"a connect response from" in r.stderr, said(r))
        s = sign_with(cli, bunker, key_file)
        check_signed(cli, "bunker", s, alice_pub)
        f = sign_with(cli, bunker, None, "10")
        check("bunker: a fresh client key (no --signer-key) is refused there (exit 2)",
              f.returncode == 2 and b"refused" in f.stderr and f.stdout == b"", said(f))
    finally:
        kill_group(pr.p.pid, leader=pr.p)
        if b is not None:
            kill_group(b.pid, leader=b)
    return key_file


def scenario_again(cli, relay, key_file, alice, alice_pub):
    with open(key_file, "rb") as f:
        before = f.read()
    client_pub = cli.run(["key", "pub", "--sec-file", key_file]).stdout.decode().strip()
    pr = Pairing(cli, relay, key_file, ["--timeout", "60"])
    b = None
    try:
        uri = pr.uri()
        check("again: an existing --signer-key file is read: the URI names its key",
              uri.startswith("nostrconnect://%s?" % client_pub) and
              b"a new client key written" not in pr.err, "%r %r" % (uri, pr.err))
        b = cli.popen(["bunker", "--key", alice, "--connect", uri])
        r = pr.finish()
        check_paired(cli, "again", r, alice_pub, relay, alice_pub, False)
    finally:
        kill_group(pr.p.pid, leader=pr.p)
        if b is not None:
            kill_group(b.pid, leader=b)
    with open(key_file, "rb") as f:
        after = f.read()
    check("again: the file is not replaced (same bytes, mode 0600)",
          after == before and stat.S_IMODE(os.stat(key_file).st_mode) == 0o600)


def scenario_rust(cli, o, relay, tmp, alice, alice_pub):
    key_file = os.path.join(tmp, "client-rust.key")
    skey, skey_pub, _ = cli.key("rust-signer-key")
    pr = Pairing(cli, relay, key_file, ["--json", "--timeout", "60", "--perms", "sign_event:1"])
    peer = None
    try:
        uri = pr.uri()
        check("rust: the URI carries perms", "perms=sign_event%3A1" in uri, uri)
        peer = subprocess.Popen([o.peer, "nostrconnect", "--uri", uri, "--user-key", alice,
                                 "--signer-key", skey], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, start_new_session=True)
        GROUPS.add(peer.pid)
        r = pr.finish()
        bunker = check_paired(cli, "rust", r, skey_pub, relay, alice_pub, True)
        check("rust: the pairing was rust-nostr's connect request form (said)",
              b"a connect request from" in r.stderr, said(r))
        s = sign_with(cli, bunker, key_file)
        check_signed(cli, "rust", s, alice_pub)
    finally:
        kill_group(pr.p.pid, leader=pr.p)
        if peer is not None:
            kill_group(peer.pid, leader=peer)


def scenario_wrong(cli, relay, tmp, alice):
    key_file = os.path.join(tmp, "client-wrong.key")
    pr = Pairing(cli, relay, key_file, ["--timeout", "8"])
    b = None
    try:
        uri = pr.uri()
        wrong = re.sub(r"secret=[0-9a-f]{32}", "secret=" + "0" * 32, uri)
        check("wrong: a URI with another secret", wrong != uri and "secret=" in wrong, uri)
        b = cli.popen(["bunker", "--key", alice, "--connect", wrong])
        r = pr.finish()
        check("wrong: not accepted: skipped (said), no signer within 8 s, exit 2, no stdout",
              r.returncode == 2 and r.stdout == b"" and b"skipped: not the secret" in r.stderr
              and b"no signer answered with the secret within 8 s" in r.stderr, said(r))
    finally:
        kill_group(pr.p.pid, leader=pr.p)
        if b is not None:
            kill_group(b.pid, leader=b)


def scenario_usage(cli, alice):
    r = cli.run(["event", "sign", "--sec-file", alice, "--signer-key", alice], TEMPLATE)
    check("usage: --signer-key without --signer: exit 2, said",
          r.returncode == 2 and b"--signer-key goes with --signer" in r.stderr, said(r))
    r = cli.run(["signer", "connect", "--relay", "ws://127.0.0.1:1"])
    check("usage: signer connect without --signer-key: exit 2, said",
          r.returncode == 2 and b"--signer-key FILE" in r.stderr, said(r))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--python-relay", required=True)
    ap.add_argument("--peer", required=True)
    ap.add_argument("--backend")
    o = ap.parse_args()
    if not have_tools(((o.python_relay, "nostr-relay"), (o.peer, "the nip46 peer"))):
        return 1

    def body(rig):
        cli, tmp = rig.cli, rig.tmp
        r = rig.relay("python")
        alice, alice_pub, _ = cli.key("alice")
        scenario_usage(cli, alice)
        key_file = scenario_bunker(cli, r, tmp, alice, alice_pub)
        scenario_again(cli, r, key_file, alice, alice_pub)
        scenario_rust(cli, o, r, tmp, alice, alice_pub)
        scenario_wrong(cli, r, tmp, alice)

    return run_scenarios("nostrconnect", o, body)


if __name__ == "__main__":
    sys.exit(main())
