#!/usr/bin/env python3
"""End-to-end tests of the softchat messaging commands, for one backend.

    test_cli_msg.py --cli PATH --backend NAME [--vectors DIR] [--wrap "valgrind -q ..."]

nip59 wrap/unwrap, nip17 send/receive and file encrypt/decrypt through the real binary: exit
0 with the exact output, exit 1 (invalid or unauthentic input: one line on stderr, nothing on
stdout, except for nip17 receive) and exit 2 (usage, I/O, environment). Gift wraps with a
broken layer are forged here with the CLI's own primitives (nip44 encrypt, event sign), so
every unwrap check is reached with a wrap that passes every check before it. The NIP-59 and
NIP-17 spec examples and the kind 15 AES-GCM examples are read from --vectors at run time
(default: the repository's vectors/upstream); a file missing from a present folder fails, and
a folder that does not exist (the own-only mode) reports those cases skipped, loudly.

Python standard library only (the driver of test_cli.py is reused). Exit status: 0 when no
case failed, 1 otherwise.
"""

import errno
import hashlib
import json
import os
import pty
import signal
import stat
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_cli import (SEC1, SEC2, SEC3, NSEC_SPEC, HEX, CaseFailure,  # noqa: E402
                      Result, check, expect_error, expect_invalid, expect_ok, expect_usage,
                      run_suite, signed)

MIB = 1024 * 1024
TWO_DAYS = 172800
TOKENS = ("wrap-kind", "wrap-id", "wrap-sig", "wrap-decrypt", "seal-json", "seal-kind",
          "seal-id", "seal-sig", "seal-decrypt", "rumor-json", "rumor-author", "rumor-id",
          "rumor-signed")


def fresh_sec():
    """A random secret key (below the curve order with overwhelming probability)."""
    return os.urandom(32).hex()


def canonical(ev):
    """The NIP-01 serialization: what JSON.stringify writes for the id array."""
    return json.dumps([0, ev["pubkey"], ev["created_at"], ev["kind"], ev["tags"], ev["content"]],
                      separators=(",", ":"), ensure_ascii=False)


def event_id(ev):
    return hashlib.sha256(canonical(ev).encode()).hexdigest()


def compact(obj):
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def one_line_json(r):
    out = r.out.decode()
    check(out.endswith("\n") and out.count("\n") == 1, "not one line: %r" % out[:300])
    return json.loads(out)


def flip_hex(h, i=-1):
    c = h[i]
    return h[:i] + ("0" if c != "0" else "1") + (h[i + 1:] if i != -1 else "")


# ==== building gift wraps with the CLI's primitives ==============================================
def nip44(s, sec, pub, text):
    r = s.run("nip44", "encrypt", "--sec-file", s.key_file(sec), "--pub", pub, stdin=text)
    expect_ok(r)
    return r.out.decode().strip()


def forge(s, rumor, seal_sec, to_pub, seal_kind=13, seal_enc_sec=None, seal_edit=None,
          seal_text=None, wrap_kind=1059, wrap_edit=None):
    """A gift wrap built layer by layer: rumor (a dict, or raw text) sealed by seal_sec (the
    seal content encrypted with seal_enc_sec, default seal_sec), the seal JSON (or seal_text)
    wrapped for to_pub by a fresh key. seal_edit / wrap_edit change a signed layer."""
    rumor_text = rumor if isinstance(rumor, str) else compact(rumor)
    seal = signed(s, {"kind": seal_kind, "tags": [], "created_at": int(time.time()) - 1000,
                      "content": nip44(s, seal_enc_sec or seal_sec, to_pub, rumor_text)},
                  seal_sec)
    if seal_edit is not None:
        seal_edit(seal)
    one_time = fresh_sec()
    wrap = signed(s, {"kind": wrap_kind, "tags": [["p", to_pub]],
                      "created_at": int(time.time()) - 2000,
                      "content": nip44(s, one_time, to_pub,
                                       seal_text if seal_text is not None else compact(seal))},
                  one_time)
    if wrap_edit is not None:
        wrap_edit(wrap)
    return compact(wrap)


def rumor_of(s, sec, kind=14, content="forged", tags=None, created_at=1700000000):
    ev = {"pubkey": s.pub_of(sec), "created_at": created_at, "kind": kind,
          "tags": tags if tags is not None else [["p", s.pub_of(SEC2)]], "content": content}
    ev["id"] = event_id(ev)
    return ev


def forgeries(s, alice, bob, mallory):
    """(token, wrap for bob) for every check, each wrap valid up to that check."""
    bob_pub = s.pub_of(bob)
    good = rumor_of(s, alice)
    out = []

    out.append(("wrap-kind", forge(s, good, alice, bob_pub, wrap_kind=1)))

    def bump_time(w):
        w["created_at"] += 1
    out.append(("wrap-id", forge(s, good, alice, bob_pub, wrap_edit=bump_time)))

    def bad_sig(w):
        w["sig"] = flip_hex(w["sig"], 5)
    out.append(("wrap-sig", forge(s, good, alice, bob_pub, wrap_edit=bad_sig)))
    # p-tagged for bob, encrypted for mallory
    out.append(("wrap-decrypt", forge_for_other(s, good, alice, bob_pub, s.pub_of(mallory))))
    out.append(("seal-json", forge(s, good, alice, bob_pub, seal_text="not an event")))
    out.append(("seal-kind", forge(s, good, alice, bob_pub, seal_kind=14)))

    def seal_changed(seal):
        seal["created_at"] += 1
    out.append(("seal-id", forge(s, good, alice, bob_pub, seal_edit=seal_changed)))

    def seal_bad_sig(seal):
        seal["sig"] = flip_hex(seal["sig"], 7)
    out.append(("seal-sig", forge(s, good, alice, bob_pub, seal_edit=seal_bad_sig)))
    out.append(("seal-decrypt", forge(s, good, alice, bob_pub, seal_enc_sec=mallory)))
    out.append(("rumor-json", forge(s, "not json", alice, bob_pub)))
    signed_rumor = dict(good, sig="00" * 64)
    out.append(("rumor-signed", forge(s, signed_rumor, alice, bob_pub)))
    # mallory seals (and signs) a rumor that claims alice wrote it
    out.append(("rumor-author", forge(s, good, mallory, bob_pub)))
    out.append(("rumor-id", forge(s, dict(good, id=flip_hex(good["id"])), alice, bob_pub)))
    no_id = {k: v for k, v in good.items() if k != "id"}
    out.append(("rumor-id", forge(s, no_id, alice, bob_pub)))
    return out


def forge_for_other(s, rumor, seal_sec, p_pub, real_pub):
    """Encrypted for real_pub, but p-tagged (and signed) for p_pub."""
    seal = signed(s, {"kind": 13, "tags": [], "content": nip44(s, seal_sec, real_pub,
                                                               compact(rumor))}, seal_sec)
    one_time = fresh_sec()
    wrap = signed(s, {"kind": 1059, "tags": [["p", p_pub]],
                      "content": nip44(s, one_time, real_pub, compact(seal))}, one_time)
    return compact(wrap)


# ==== nip59 ===================================================================================
def wrap(s, sec, to, template, *flags):
    if not isinstance(template, (str, bytes)):
        template = json.dumps(template)
    return s.run("nip59", "wrap", "--sec-file", s.key_file(sec), "--to", to, *flags,
                 stdin=template)


def unwrap(s, sec, wrap_json):
    return s.run("nip59", "unwrap", "--sec-file", s.key_file(sec), stdin=wrap_json)


def check_wrap_shape(s, w, to_pub, author_pub, kind=1059):
    now = int(time.time())
    check(list(w) == ["id", "pubkey", "created_at", "kind", "tags", "content", "sig"],
          "wrap field order %r" % list(w))
    check(w["kind"] == kind, "wrap kind %r" % w["kind"])
    check(w["tags"] == [["p", to_pub]], "wrap tags %r" % w["tags"])
    check(w["pubkey"] != author_pub, "the wrap is signed by the author, not a one-time key")
    check(now - TWO_DAYS - 5 <= w["created_at"] <= now + 5,
          "wrap created_at %d not within two days before now" % w["created_at"])
    check(w["id"] == event_id(w), "wrap id is not its NIP-01 id")
    expect_ok(s.run("event", "verify", stdin=compact(w)),
              lambda o: o == ("valid %s\n" % w["id"]).encode())


def test_nip59(s):
    g = "nip59"
    alice, bob = fresh_sec(), fresh_sec()
    alice_pub, bob_pub = s.pub_of(alice), s.pub_of(bob)

    def round_trip():
        content = "h\u00e9llo \U0001F984 \"q\" \\ \n\t\x00\x1f / \u2028 \x7f"
        t = {"kind": 1, "content": content, "created_at": 1234567890,
             "tags": [["e", "x" * 64, "wss://r"], ["t"], ["q", "\u00e9\"\\"]]}
        r = wrap(s, alice, bob_pub, t)
        expect_ok(r)
        w = one_line_json(r)
        check_wrap_shape(s, w, bob_pub, alice_pub)
        u = unwrap(s, bob, r.out)
        expect_ok(u)
        rumor = one_line_json(u)
        check(list(rumor) == ["id", "pubkey", "created_at", "kind", "tags", "content"],
              "rumor field order %r (no sig)" % list(rumor))
        want = {"pubkey": alice_pub, "created_at": 1234567890, "kind": 1, "tags": t["tags"],
                "content": content}
        want["id"] = event_id(want)
        check(rumor == want, "rumor %r, expected %r" % (rumor, want))
        # stdout is the canonical escaping (the same bytes JSON.stringify writes)
        check(u.out.decode().rstrip("\n") == compact({k: want[k] for k in rumor}),
              "rumor JSON not in canonical form: %r" % u.out[:200])
    s.case(g, "wrap -> unwrap round trip: rumor exact, wrap shape, one-time key", round_trip)

    def defaults_and_ephemeral():
        before = int(time.time())
        r = wrap(s, alice, bob_pub, {"kind": 14, "content": "x", "pubkey": alice_pub,
                                     "id": "ab" * 32, "sig": "cd" * 64}, "--ephemeral")
        expect_ok(r)
        w = one_line_json(r)
        check_wrap_shape(s, w, bob_pub, alice_pub, kind=21059)
        rumor = one_line_json(unwrap(s, bob, r.out))
        check(rumor["tags"] == [] and before - 2 <= rumor["created_at"] <= int(time.time()) + 2,
              "defaults: tags %r, created_at %r" % (rumor["tags"], rumor["created_at"]))
        check(rumor["id"] == event_id(rumor) and "sig" not in rumor, "id recomputed, no sig")
        # npub accepted for --to; two wraps of one rumor differ (fresh keys, nonces, times)
        npub = s.run("nip19", "encode", "npub", bob_pub).out.decode().strip()
        a = one_line_json(wrap(s, alice, npub, {"kind": 1, "content": "same", "created_at": 5}))
        b = one_line_json(wrap(s, alice, npub, {"kind": 1, "content": "same", "created_at": 5}))
        check(a["pubkey"] != b["pubkey"] and a["content"] != b["content"],
              "two wraps share a one-time key or ciphertext")
        ra = one_line_json(unwrap(s, bob, compact(a)))
        rb = one_line_json(unwrap(s, bob, compact(b)))
        check(ra == rb, "the same rumor unwraps differently")
    s.case(g, "defaults (tags [], created_at now, id/sig replaced), --ephemeral 21059, npub",
           defaults_and_ephemeral)

    def forged_layers():
        cases = forgeries(s, alice, bob, fresh_sec())
        control = forge(s, rumor_of(s, alice), alice, bob_pub)
        expect_ok(unwrap(s, bob, control))  # the builder itself makes valid wraps
        for token, w in cases:
            r = unwrap(s, bob, w)
            try:
                expect_invalid(r, "cannot unwrap: %s: " % token)
            except CaseFailure as e:
                raise CaseFailure("%s: %s" % (token, e))
        seen = {t for t, _ in cases}
        check(seen == set(TOKENS), "tokens not covered: %r" % (set(TOKENS) - seen))
    s.case(g, "every check: a wrap broken at one layer is exit 1 naming its token",
           forged_layers)

    def invalid_wraps():
        ok = wrap(s, alice, bob_pub, {"kind": 1, "content": "x"}).out
        expect_invalid(unwrap(s, alice, ok), "wrap-decrypt", "SC_ERR_WRAP_DECRYPT")
        expect_invalid(unwrap(s, bob, b""), "json")
        expect_invalid(unwrap(s, bob, b"hello"), "SC_ERR_JSON")
        expect_invalid(unwrap(s, bob, ok + b" {}"), "SC_ERR_JSON")
        ev = signed(s, {"kind": 1, "content": "plain note"}, alice)
        expect_invalid(unwrap(s, bob, compact(ev)), "wrap-kind")
        no_sig = {k: v for k, v in json.loads(ok).items() if k != "sig"}
        expect_invalid(unwrap(s, bob, compact(no_sig)), "event-field")
        expect_invalid(unwrap(s, bob, b" " * (1048576 + 1)), "too-large")
    s.case(g, "unwrap: wrong key, not JSON, not a wrap, incomplete, too large: exit 1",
           invalid_wraps)

    def invalid_templates():
        expect_invalid(wrap(s, alice, bob_pub, {"kind": 1, "content": "x", "pubkey": bob_pub}),
                       "pubkey")
        expect_invalid(wrap(s, alice, bob_pub, {"content": "x"}), "SC_ERR_EVENT_FIELD")
        expect_invalid(wrap(s, alice, bob_pub, b'{"kind":1,"content":"\xff"}'), "SC_ERR_UTF8")
        expect_invalid(wrap(s, alice, bob_pub, "nope"), "SC_ERR_JSON")
        # the rumor JSON limit of u16-only NIP-44 receivers
        expect_ok(wrap(s, alice, bob_pub, {"kind": 1, "content": "a" * 40000, "created_at": 1}))
        expect_invalid(wrap(s, alice, bob_pub, {"kind": 1, "content": "a" * 41000}),
                       "SC_ERR_POLICY", "40960")
        expect_invalid(wrap(s, alice, bob_pub, {"kind": 1, "content": "a" * 1048576}),
                       "SC_ERR_TOO_LARGE")
        # a recipient key with no point on the curve
        expect_invalid(wrap(s, alice, "f" * 64, {"kind": 1, "content": "x"}), "--to",
                       "SC_ERR_INVALID_KEY")
    s.case(g, "wrap: invalid templates, oversized rumors, off-curve recipient: exit 1",
           invalid_templates)

    def usage():
        expect_usage(s.run("nip59"))
        expect_usage(s.run("nip59", "bogus"))
        expect_usage(s.run("nip59", "wrap", "--to", bob_pub), "--sec-file")
        expect_usage(s.run("nip59", "wrap", "--sec-file", s.key_file(alice)), "--to")
        expect_usage(s.run("nip59", "wrap", "--sec-file", s.key_file(alice), "--to", "xyz"),
                     "--to")
        expect_usage(s.run("nip59", "wrap", "--sec-file", s.key_file(alice), "--to",
                           NSEC_SPEC), "secret key")
        expect_usage(s.run("nip59", "wrap", "--sec-file", s.key_file(alice), "--to", bob_pub,
                           "--ephemeral=1"), "takes no value")
        expect_usage(s.run("nip59", "unwrap"), "--sec-file")
        expect_usage(s.run("nip59", "unwrap", "--sec-file", s.key_file(bob), "extra"))
        expect_usage(s.run("nip59", "unwrap", "--sec", bob), "--sec-file")
        expect_error(s.run("nip59", "unwrap", "--sec-file", s.path("missing"), stdin="{}"),
                     "cannot open")
        expect_invalid(s.run("nip59", "unwrap", "--sec-file", s.write("zero", "0" * 64),
                             stdin="{}"))
    s.case(g, "usage errors (exit 2), unreadable and invalid key files", usage)

    ex = s.vector("nip59.spec-example.json")
    if ex is None:
        s.missing_file("nip59.spec-example.json")
        return

    def spec_example():
        k = ex["keys"]
        r = unwrap(s, k["recipient_sec"], compact(ex["wrap"]))
        expect_ok(r)
        check(one_line_json(r) == ex["rumor"], "rumor %r" % r.out)
        # the nsec form of the key file, and the other keys cannot open it
        r = s.run("nip59", "unwrap", "--sec-file", s.write("nsec", k["recipient_nsec"] + "\n"),
                  stdin=json.dumps(ex["wrap"], indent=2))
        expect_ok(r)
        check(one_line_json(r)["id"] == ex["rumor"]["id"], "rumor id via nsec")
        expect_invalid(unwrap(s, k["author_sec"], compact(ex["wrap"])), "wrap-decrypt")
    s.case("nip59.spec-example.json", "the spec's wrap opens for the recipient, to its rumor",
           spec_example)


# ==== nip17 ===================================================================================
def send(s, sec, to, text, *extra):
    return s.run("nip17", "send", "--sec-file", s.key_file(sec), "--to", to, *extra, stdin=text)


def receive(s, sec, stream):
    return s.run("nip17", "receive", "--sec-file", s.key_file(sec), stdin=stream)


def messages(r):
    return [json.loads(line) for line in r.out.decode().splitlines()]


MSG_KEYS = ["from", "room", "kind", "id", "created_at", "content", "tags"]


def test_nip17(s):
    g = "nip17"
    alice, bob, carol = fresh_sec(), fresh_sec(), fresh_sec()
    ap, bp, cp = s.pub_of(alice), s.pub_of(bob), s.pub_of(carol)

    def group_message():
        text = "hola \U0001F984 \"quoted\" \\ \n\x00 end"
        reply = "ab" * 32
        before = int(time.time())
        r = send(s, alice, bp + "," + cp, text, "--subject", "plans \u00e9", "--reply", reply)
        expect_ok(r)
        lines = r.out.decode().splitlines()
        check(len(lines) == 3, "expected 3 gift wraps (bob, carol, alice), got %d" % len(lines))
        wraps = [json.loads(x) for x in lines]
        for w, to in zip(wraps, (bp, cp, ap)):
            check_wrap_shape(s, w, to, ap)
        check(len({w["pubkey"] for w in wraps}) == 3, "one-time keys reused across wraps")
        got = {}
        for who, sec in (("bob", bob), ("carol", carol), ("alice", alice)):
            rr = receive(s, sec, r.out)
            check(rr.rc == 1 and len(rr.err.splitlines()) == 2,
                  "%s: the two wraps for others are reported, exit 1: %s" % (who, rr.describe()))
            check(all("wrap-decrypt" in line for line in rr.err.splitlines()), rr.err)
            msgs = messages(rr)
            check(len(msgs) == 1, "%s received %d messages" % (who, len(msgs)))
            got[who] = msgs[0]
        m = got["bob"]
        check(list(m) == MSG_KEYS, "key order %r" % list(m))
        check(m["from"] == ap and m["room"] == [ap, bp, cp], "from/room %r %r" % (m["from"],
                                                                                   m["room"]))
        check(m["kind"] == 14 and m["content"] == text, "kind/content %r" % m)
        check(m["tags"] == [["p", bp], ["p", cp], ["e", reply], ["subject", "plans \u00e9"]],
              "tags %r" % m["tags"])
        check(before - 2 <= m["created_at"] <= int(time.time()) + 2, "created_at not now")
        rumor = {"pubkey": ap, "created_at": m["created_at"], "kind": 14, "tags": m["tags"],
                 "content": text}
        check(m["id"] == event_id(rumor), "id is not the rumor's NIP-01 id")
        check(got["carol"] == m and got["alice"] == m, "receivers see different messages")
        # exactly the receiver's wraps, each on its own: exit 0 and an empty stderr
        for w, sec in zip(lines, (bob, carol, alice)):
            expect_ok(receive(s, sec, w), lambda o: json.loads(o) == m)
    s.case(g, "send to 2 receivers: 3 wraps (receivers in order, then the sender); "
              "everyone receives the same message and room", group_message)

    def note_to_self_and_forms():
        r = send(s, alice, ap, "memo")
        expect_ok(r)
        check(len(r.out.splitlines()) == 1, "note to self: one wrap, not two")
        m = messages(receive(s, alice, r.out))[0]
        check(m["room"] == [ap] and m["tags"] == [["p", ap]], "self room %r" % m)
        # npub in the list, empty message, empty subject (clears the title)
        npub = s.run("nip19", "encode", "npub", bp).out.decode().strip()
        r = send(s, alice, npub, "", "--subject", "")
        expect_ok(r)
        m = messages(receive(s, bob, r.out.splitlines()[0]))[0]
        check(m["content"] == "" and m["tags"] == [["p", bp], ["subject", ""]], "%r" % m)
    s.case(g, "note to self (one wrap), npub receivers, empty text and subject",
           note_to_self_and_forms)

    def stream_with_failures():
        a = send(s, alice, bp, "first").out.splitlines()[0]
        b = send(s, carol, bp, "second").out.splitlines()[0]
        c = send(s, alice, bp, "third").out.splitlines()[0]
        bad_sig = json.loads(b)
        bad_sig["sig"] = flip_hex(bad_sig["sig"])
        stream = b"\n".join([a, compact(bad_sig).encode(), b, b"garbage here", c,
                             json.dumps(json.loads(c), indent=2).encode()])
        r = receive(s, bob, stream)
        check(r.rc == 1, "expected exit 1: " + r.describe())
        msgs = messages(r)
        check([m["content"] for m in msgs] == ["first", "second", "third", "third"],
              "received %r" % [m["content"] for m in msgs])
        check(msgs[1]["from"] == cp and msgs[0]["from"] == ap, "senders")
        err = r.err.splitlines()
        check(len(err) == 2, "one stderr line per skipped wrap: %r" % err)
        check(err[0].startswith("softchat: wrap 2: wrap-sig: "), err[0])
        check(err[1].startswith("softchat: wrap 4: json: "), err[1])
        # every wrap broken at one layer, in one stream between good ones
        forged = forgeries(s, alice, bob, fresh_sec())
        stream = b"\n".join([a] + [w.encode() for _, w in forged] + [c])
        r = receive(s, bob, stream)
        check(r.rc == 1 and [m["content"] for m in messages(r)] == ["first", "third"],
              r.describe())
        err = r.err.splitlines()
        check(len(err) == len(forged), "stderr %r" % err)
        for i, ((token, _), line) in enumerate(zip(forged, err)):
            check(line.startswith("softchat: wrap %d: %s: " % (i + 2, token)),
                  "line %r, expected token %s" % (line, token))
        # no wrap at all: nothing received, nothing wrong
        expect_ok(receive(s, bob, b""), lambda o: o == b"")
        expect_ok(receive(s, bob, b" \n\t\n"), lambda o: o == b"")
    s.case(g, "receive: bad wraps among good ones are reported by position and token, the "
              "good ones still printed; exit 1", stream_with_failures)

    def not_messages():
        # a NIP-59 wrap of a kind 1 rumor, and a kind 14 without p tags, are not messages
        w = wrap(s, alice, bp, {"kind": 1, "content": "x"}).out
        r = receive(s, bob, w)
        expect_invalid(r, "wrap 1: message: ", stdout_empty=True)
        w = forge(s, rumor_of(s, alice, tags=[]), alice, bp)
        expect_invalid(receive(s, bob, w), "wrap 1: message: ")
        w = forge(s, rumor_of(s, alice, kind=15, tags=[["p", bp]]), alice, bp)
        m = messages(receive(s, bob, w))  # kind 15 is a message (its tags are not checked)
        check(len(m) == 1 and m[0]["kind"] == 15, "kind 15 %r" % m)
    s.case(g, "receive: non-message rumors are skipped (message), kind 15 is received",
           not_messages)

    def send_limits():
        expect_ok(send(s, alice, bp, "a" * 40000))
        expect_invalid(send(s, alice, bp, "a" * 41000), "SC_ERR_POLICY")
        expect_invalid(send(s, alice, bp, "a" * (1048576 + 1)), "SC_ERR_TOO_LARGE")
        expect_invalid(send(s, alice, bp, b"bad \xff utf-8"), "SC_ERR_UTF8")
        expect_invalid(send(s, alice, bp + "," + "f" * 64, "x"), "receiver 2",
                       "SC_ERR_INVALID_KEY")
        many = ",".join(s.pub_of(fresh_sec()) for _ in range(3))
        r = send(s, alice, many, "to three")
        expect_ok(r)
        check(len(r.out.splitlines()) == 4, "3 receivers + the sender")
    s.case(g, "send: size limits, invalid UTF-8, an off-curve receiver: exit 1", send_limits)

    def usage():
        k = s.key_file(alice)
        expect_usage(s.run("nip17"))
        expect_usage(s.run("nip17", "bogus"))
        expect_usage(s.run("nip17", "send", "--to", bp), "--sec-file")
        expect_usage(s.run("nip17", "send", "--sec-file", k), "--to")
        expect_usage(s.run("nip17", "send", "--sec-file", k, "--to", bp + ",,"), "empty")
        expect_usage(s.run("nip17", "send", "--sec-file", k, "--to", ""), "empty")
        expect_usage(s.run("nip17", "send", "--sec-file", k, "--to", bp + "," + bp), "repeats")
        expect_usage(s.run("nip17", "send", "--sec-file", k, "--to", bp + "," + NSEC_SPEC),
                     "secret key")
        expect_usage(s.run("nip17", "send", "--sec-file", k, "--to", bp, "--reply", "12"),
                     "--reply")
        expect_usage(run_bad_subject(s, k, bp), "--subject")
        too_many = ",".join(["%064x" % (i + 1) for i in range(257)])
        expect_usage(s.run("nip17", "send", "--sec-file", k, "--to", too_many), "256")
        expect_usage(s.run("nip17", "send", "--sec-file", k, "--to", bp, "extra"))
        expect_usage(s.run("nip17", "receive"), "--sec-file")
        expect_usage(s.run("nip17", "receive", "--sec-file", k, "--to", bp), "unknown option")
    s.case(g, "usage errors (exit 2)", usage)

    ex = s.vector("nip17.spec-example.json")
    if ex is None:
        s.missing_file("nip17.spec-example.json")
        return
    f = "nip17.spec-example.json"
    k = ex["keys"]
    for i, w in enumerate(ex["wraps"]):
        sec = k[w["recipient"] + "_sec"]

        def spec_wrap(w=w, sec=sec):
            r = unwrap(s, sec, compact(w["wrap"]))
            expect_ok(r)
            check(one_line_json(r) == w["rumor"], "nip59 unwrap: rumor %r" % r.out)
            r = receive(s, sec, compact(w["wrap"]))
            expect_ok(r)
            m = messages(r)
            want = {"from": k["sender_pub"], "room": [k["sender_pub"], k["receiver_pub"]],
                    "kind": 14, "id": w["rumor"]["id"], "created_at": w["rumor"]["created_at"],
                    "content": w["rumor"]["content"], "tags": w["rumor"]["tags"]}
            check(m == [want], "nip17 receive: %r" % m)
        s.case(f, "wraps[%d] (%s copy): nip59 unwrap and nip17 receive" % (i, w["recipient"]),
               spec_wrap)

    def both_in_one_stream():
        stream = "\n".join(compact(w["wrap"]) for w in ex["wraps"])
        r = receive(s, k["receiver_sec"], stream)
        check(r.rc == 1 and len(messages(r)) == 1 and "wrap 2: wrap-decrypt" in r.err,
              r.describe())
    s.case(f, "both wraps in one stream: the receiver opens its own only", both_in_one_stream)


def run_bad_subject(s, key, to):
    """--subject with bytes that are not UTF-8 (argv carries bytes, not text)."""
    args = [os.fsencode(a) for a in s.argv(["nip17", "send", "--sec-file", key, "--to", to,
                                            "--subject"])] + [b"bad \xff"]
    p = subprocess.run(args, input=b"x", stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return Result(p.returncode, p.stdout, p.stderr.decode(errors="replace"))


# ==== AES-256-GCM under any IV, for legacy-IV blobs (the CLI makes 16-byte IVs only) ====
SEAL_BACKENDS = ("openssl", "mbedtls", "sodium+mbedtls", "psa", "sodium")


def seal(s, key_hex, iv_text, plaintext):
    """ciphertext || tag of plaintext under key_hex and the IV iv_text (its ASCII bytes, any
    length; "hex:" then hex digits for raw bytes), made by seal_blob with the library's one-shot AES-256-GCM: this suite's backend
    first, then the first other compiled one that takes the IV's length."""
    check(s.seal_path is not None, "this case needs --seal (the seal_blob helper)")
    order = [s.backend] + [b for b in SEAL_BACKENDS if b != s.backend]
    p = subprocess.run(s.wrap + [s.seal_path, key_hex, iv_text] + order, input=plaintext,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
    check(p.returncode == 0, "seal_blob failed: %r" % p.stderr)
    check(len(p.stdout) == len(plaintext) + 16, "seal_blob: %d bytes" % len(p.stdout))
    return p.stdout


# ==== file ====================================================================================
class Dir:
    """A fresh directory for one file case; listing() is what it holds."""
    count = 0

    def __init__(self, s):
        Dir.count += 1
        self.path = s.path("files-%d" % Dir.count)
        os.mkdir(self.path)

    def __call__(self, name):
        return os.path.join(self.path, name)

    def listing(self):
        return sorted(os.listdir(self.path))

    def write(self, name, data):
        with open(self(name), "wb") as f:
            f.write(data)
        return self(name)

    def read(self, name):
        with open(self(name), "rb") as f:
            return f.read()


def encrypt(s, d, data, *extra, name="plain.bin"):
    """Encrypts data from d/name into d/blob.bin; returns (tags dict, blob bytes)."""
    d.write(name, data)
    r = s.run("file", "encrypt", d(name), d("blob.bin"), *extra)
    expect_ok(r)
    tags = one_line_json(r)
    return tags, d.read("blob.bin")


def blob_pair(s, d, size):
    """size random bytes encrypted by the CLI (d/plain.bin into d/blob.bin, a 16-byte IV) and
    sealed again under the legacy IV of the same nonce: (key, nonce, data, blob, legacy)."""
    data = os.urandom(size)
    tags, blob = encrypt(s, d, data)
    key, nonce = tags["decryption-key"], tags["decryption-nonce"]
    check(seal(s, key, "hex:" + nonce, data) == blob,
          "test setup: seal_blob's blob differs from the CLI's")
    return key, nonce, data, blob, seal(s, key, nonce, data)


def decrypt(s, key, nonce, src, dst, *extra, stdin=b""):
    return s.run("file", "decrypt", "--key", key, "--nonce", nonce, src, dst, *extra,
                 stdin=stdin)


def run_from_fifo(s, args, fifo, data):
    """Runs the CLI while this process writes data into the FIFO it reads; returns a Result."""
    p = subprocess.Popen(s.argv(args), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    w = None
    try:
        while w is None and p.poll() is None:
            try:
                w = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)  # once the CLI opened it
            except OSError as e:
                if e.errno != errno.ENXIO:
                    raise
                time.sleep(0.01)
        if w is not None:
            os.set_blocking(w, True)
            view = memoryview(data)
            try:
                while view:
                    view = view[os.write(w, view):]
            except BrokenPipeError:
                pass
            os.close(w)
            w = None
        out, err = p.communicate(timeout=600)
    finally:
        if w is not None:
            os.close(w)
        if p.poll() is None:
            p.kill()
            p.wait()
    return Result(p.returncode, out, err.decode(errors="replace"))


def check_tags(tags, data, blob, mime="application/octet-stream"):
    check(list(tags) == ["file-type", "encryption-algorithm", "decryption-key",
                         "decryption-nonce", "x", "ox", "size"], "tag order %r" % list(tags))
    check(tags["file-type"] == mime and tags["encryption-algorithm"] == "aes-gcm",
          "type/algorithm %r" % tags)
    check(len(tags["decryption-key"]) == 64 and set(tags["decryption-key"]) <= HEX, "key")
    check(len(tags["decryption-nonce"]) == 32 and set(tags["decryption-nonce"]) <= HEX, "nonce")
    check(len(blob) == len(data) + 16, "blob is %d bytes for %d" % (len(blob), len(data)))
    check(tags["x"] == hashlib.sha256(blob).hexdigest(), "x is not sha256(blob)")
    check(tags["ox"] == hashlib.sha256(data).hexdigest(), "ox is not sha256(plaintext)")
    check(tags["size"] == str(len(blob)), "size %r" % tags["size"])


def expect_refused(s, r, d, before, *needles):
    """Exit 1 (invalid) and the directory exactly as it was: no OUT, no temporary file."""
    expect_invalid(r, *needles)
    check(d.listing() == before, "left behind: %r (was %r)" % (d.listing(), before))


def test_file(s):
    g = "file"
    if s.backend == "sodium":
        def unsupported():
            d = Dir(s)
            d.write("p", b"data")
            for args in (["file", "encrypt", d("p"), d("o")],
                         ["file", "decrypt", "--key", "00" * 32, "--nonce", "00" * 16, d("p"),
                          d("o")]):
                r = s.run(*args)
                expect_error(r, "backend 'sodium'", "streaming AES-256-GCM",
                             "SC_ERR_UNSUPPORTED")
                check(len(r.err.splitlines()) == 1, "one line: %r" % r.err)
            check(d.listing() == ["p"], "files created: %r" % d.listing())
        s.case(g, "plain sodium: file commands exit 2 naming the missing capability",
               unsupported)
        s.skip(g, "round trips, options, tampering, pipes, I/O, usage, progress, signals, "
               "memory", "the plain sodium backend has no streaming AES-256-GCM (checked above)",
               10)
        data = s.vector("nip17.kind15-aesgcm.json")
        if data is None:
            s.missing_file("nip17.kind15-aesgcm.json")
        else:
            s.skip("nip17.kind15-aesgcm.json", "every case",
                   "the plain sodium backend has no streaming AES-256-GCM", len(data["cases"]))
        return

    def round_trips():
        for size in (0, 1, 15, 16, 17, 4096, 65535, 65536, 65537, MIB + 5, 5 * MIB):
            d = Dir(s)
            data = os.urandom(size)
            tags, blob = encrypt(s, d, data)
            check_tags(tags, data, blob)
            check(d.listing() == ["blob.bin", "plain.bin"], "listing %r" % d.listing())
            r = decrypt(s, tags["decryption-key"], tags["decryption-nonce"], d("blob.bin"),
                        d("out.bin"))
            expect_ok(r, lambda o: o == b"")
            check(d.read("out.bin") == data, "%d bytes: the decryption differs" % size)
            check(stat.S_IMODE(os.stat(d("out.bin")).st_mode) == 0o600, "OUT mode")
            check(d.listing() == ["blob.bin", "out.bin", "plain.bin"], "%r" % d.listing())
    s.case(g, "encrypt -> decrypt round trips, 0 B to 5 MiB: tags exact, OUT mode 0600",
           round_trips)

    def options_and_keys():
        d = Dir(s)
        data = b"\x89PNG fake image"
        tags, blob = encrypt(s, d, data, "--mime", "image/png; q=\"x\"")
        check_tags(tags, data, blob, mime="image/png; q=\"x\"")
        a, _ = encrypt(s, Dir(s), data)
        check(a["decryption-key"] != tags["decryption-key"] and
              a["decryption-nonce"] != tags["decryption-nonce"], "key or IV reused")
        # --key-file (whitespace around, uppercase), and the OUT a relative name
        kf = d.write("key.txt", ("\n  " + tags["decryption-key"].upper() + "\t\n").encode())
        r = s.run("file", "decrypt", "--key-file", kf, "--nonce",
                  tags["decryption-nonce"].upper(), "blob.bin", "rel.out", cwd=d.path)
        expect_ok(r)
        check(d.read("rel.out") == data, "relative OUT")
        for body in ("", "zz" * 32, tags["decryption-key"][:-1], tags["decryption-key"] * 2):
            before = d.listing()
            r = s.run("file", "decrypt", "--key-file", d.write("bad.key", body.encode()),
                      "--nonce", tags["decryption-nonce"], d("blob.bin"), d("o2"))
            expect_invalid(r, "not a file key")
            if len(body) >= 16:
                check(body[:16] not in r.err, "the key file is echoed")
            check(not os.path.exists(d("o2")), "OUT created")
            del before
    s.case(g, "--mime, fresh key and IV per file, --key-file, uppercase hex, relative paths",
           options_and_keys)

    def tampering():
        d = Dir(s)
        data = os.urandom(MIB + 5)
        tags, blob = encrypt(s, d, data)
        key, nonce = tags["decryption-key"], tags["decryption-nonce"]
        variants = {
            "flipped ciphertext byte": blob[:1000] + bytes([blob[1000] ^ 1]) + blob[1001:],
            "flipped last ciphertext byte": blob[:-17] + bytes([blob[-17] ^ 0x80]) + blob[-16:],
            "flipped tag byte": blob[:-1] + bytes([blob[-1] ^ 1]),
            "truncated by one byte": blob[:-1],
            "truncated to the tag": blob[-16:],
            "shorter than a tag": blob[:15],
            "empty": b"",
            "one byte appended": blob + b"\x00",
        }
        for name, bad in variants.items():
            d.write("bad.bin", bad)
            before = d.listing()
            r = decrypt(s, key, nonce, d("bad.bin"), d("out.bin"))
            try:
                expect_refused(s, r, d, before, "auth", "SC_ERR_AUTH", "legacy")
            except CaseFailure as e:
                raise CaseFailure("%s: %s" % (name, e))
        # another key, another IV, a 12-byte IV that is not the one used
        before = d.listing()
        expect_refused(s, decrypt(s, "00" * 32, nonce, d("blob.bin"), d("o")), d, before, "auth")
        expect_refused(s, decrypt(s, key, flip_hex(nonce), d("blob.bin"), d("o")), d, before,
                       "auth")
        r = decrypt(s, key, nonce[:24], d("blob.bin"), d("o"))
        expect_refused(s, r, d, before, "auth")
        check("legacy" not in r.err, "a 12-byte IV has no legacy candidate: %r" % r.err)
    s.case(g, "a flipped ciphertext or tag byte, a truncated or extended blob, a wrong key or "
              "IV: exit 1, no OUT and no temporary file", tampering)

    def pipes():
        # IN read once (a pipe, a FIFO): both IVs of a 32-digit nonce run in one pass, and the
        # result is that of a regular file. 3 chunks and a part: the IVs' plaintexts differ
        # from the first block on, across chunk boundaries.
        d = Dir(s)
        key, nonce, data, blob, legacy = blob_pair(s, d, 3 * 65536 + 1000)
        d.write("legacy.bin", legacy)
        for name, b in (("blob.bin", blob), ("legacy.bin", legacy)):
            expect_ok(decrypt(s, key, nonce, d(name), d(name + ".file")), lambda o: o == b"")
            r = decrypt(s, key, nonce, "/dev/stdin", d(name + ".pipe"), stdin=b)
            expect_ok(r, lambda o: o == b"")
            check(r.err == "", "%s: stderr %r" % (name, r.err))
            check(d.read(name + ".pipe") == d.read(name + ".file") == data,
                  "%s: the plaintext through a pipe differs" % name)
            check(stat.S_IMODE(os.stat(d(name + ".pipe")).st_mode) == 0o600, "OUT mode")
        os.mkfifo(d("fifo"))
        r = run_from_fifo(s, ["file", "decrypt", "--key", key, "--nonce", nonce, d("fifo"),
                              d("legacy.fifo")], d("fifo"), legacy)
        expect_ok(r, lambda o: o == b"")
        check(d.read("legacy.fifo") == data, "legacy blob from a FIFO: the plaintext differs")
        check(d.listing() == ["blob.bin", "blob.bin.file", "blob.bin.pipe", "fifo",
                              "legacy.bin", "legacy.bin.file", "legacy.bin.pipe", "legacy.fifo",
                              "plain.bin"], "left behind: %r" % d.listing())
        # an existing OUT is kept (exit 2), as for a regular IN
        r = decrypt(s, key, nonce, "/dev/stdin", d("blob.bin.file"), stdin=blob)
        expect_error(r, "already exists")
        check(d.read("blob.bin.file") == data, "OUT touched")
    s.case(g, "a pipe or FIFO as IN: the 16-byte and the legacy IV decrypt in one pass, "
              "the same bytes as from a file", pipes)

    def pipes_tampered():
        d = Dir(s)
        key, nonce, _, blob, legacy = blob_pair(s, d, 2 * 65536 + 7)
        before = d.listing()
        for label, good in (("16-byte IV", blob), ("legacy IV", legacy)):
            variants = {
                "flipped ciphertext byte in the second chunk":
                    good[:70000] + bytes([good[70000] ^ 1]) + good[70001:],
                "flipped tag byte": good[:-1] + bytes([good[-1] ^ 1]),
                "truncated by one byte": good[:-1],
                "one byte appended": good + b"\x00",
                "shorter than a tag": good[:15],
                "empty": b"",
            }
            for name, bad in variants.items():
                r = decrypt(s, key, nonce, "/dev/stdin", d("out.bin"), stdin=bad)
                try:
                    expect_refused(s, r, d, before, "auth", "SC_ERR_AUTH", "legacy")
                    check(len(r.err.splitlines()) == 1, "one line: %r" % r.err)
                except CaseFailure as e:
                    raise CaseFailure("%s, %s: %s" % (label, name, e))
        # the right blob under another key: neither IV verifies
        r = decrypt(s, "00" * 32, nonce, "/dev/stdin", d("out.bin"), stdin=legacy)
        expect_refused(s, r, d, before, "auth")
    s.case(g, "a tampered blob through a pipe, either IV: exit 1, one line, no OUT and no "
              "temporary file", pipes_tampered)

    def io_errors():
        d = Dir(s)
        tags, _ = encrypt(s, d, b"content")
        key, nonce = tags["decryption-key"], tags["decryption-nonce"]
        d.write("exists", b"keep me")
        before = d.listing()
        expect_error(decrypt(s, key, nonce, d("blob.bin"), d("exists")), "already exists")
        expect_error(s.run("file", "encrypt", d("plain.bin"), d("exists")), "already exists")
        check(d.read("exists") == b"keep me" and d.listing() == before, "OUT touched")
        os.symlink(d("nowhere"), d("dangling"))
        before = d.listing()
        expect_error(decrypt(s, key, nonce, d("blob.bin"), d("dangling")), "already exists")
        expect_error(s.run("file", "encrypt", d("missing"), d("o")), "cannot open")
        expect_error(s.run("file", "encrypt", d.path, d("o")), "cannot read")
        expect_error(decrypt(s, key, nonce, d("missing"), d("o")), "cannot open")
        expect_error(s.run("file", "encrypt", d("plain.bin"), d("no-dir/o")), "cannot create")
        expect_error(s.run("file", "encrypt", d("plain.bin"), d.path + "/"))
        check(d.listing() == before, "left behind: %r" % d.listing())
        if os.path.exists("/dev/full"):
            # the key cannot be printed: the blob is of no use and is removed
            with open("/dev/full", "wb") as full:
                p = subprocess.run(s.argv(["file", "encrypt", d("plain.bin"), d("lost.bin")]),
                                   stdout=full, stderr=subprocess.PIPE)
            check(p.returncode == 2 and b"cannot write" in p.stderr, "rc=%d %r"
                  % (p.returncode, p.stderr))
            check(d.listing() == before, "left behind: %r" % d.listing())
    s.case(g, "an existing OUT is never replaced; missing IN, directories, /dev/full: exit 2",
           io_errors)

    def usage():
        d = Dir(s)
        k, n = "00" * 32, "00" * 16
        expect_usage(s.run("file"))
        expect_usage(s.run("file", "bogus"))
        expect_usage(s.run("file", "encrypt", d("a")), "IN and OUT")
        expect_usage(s.run("file", "encrypt", d("a"), d("b"), d("c")), "unexpected argument")
        expect_usage(s.run("file", "encrypt", d("a"), d("b"), "--mime", ""), "--mime")
        expect_usage(s.run("file", "decrypt", "--nonce", n, d("a"), d("b")), "--key-file")
        expect_usage(s.run("file", "decrypt", "--key", k, d("a"), d("b")), "--nonce")
        expect_usage(s.run("file", "decrypt", "--key", k, "--key-file", d("k"), "--nonce", n,
                           d("a"), d("b")), "one of them")
        r = s.run("file", "decrypt", "--key", "12" * 31 + "zz", "--nonce", n, d("a"), d("b"))
        expect_usage(r, "--key")
        check("12121212" not in r.err, "the key is echoed")
        for bad in ("00" * 8, "00" * 15, "00" * 17, "00" * 32, "zz" * 16, ""):
            expect_usage(s.run("file", "decrypt", "--key", k, "--nonce", bad, d("a"), d("b")),
                         "--nonce")
        expect_usage(s.run("file", "decrypt", "--key", k, "--nonce", n, d("a")), "IN and OUT")
        expect_usage(s.run("file", "decrypt", "--sec", k, "--nonce", n, d("a"), d("b")),
                     "--sec-file")
        check(d.listing() == [], "files created: %r" % d.listing())
    s.case(g, "usage errors (exit 2)", usage)

    if s.wrap:
        s.skip(g, "progress, signals, memory", "CLI runs are wrapped (--wrap)", 3)
    else:
        s.case(g, "a progress line on a terminal for files over 8 MiB, cleared at the end",
               lambda: progress(s))
        s.case(g, "SIGTERM mid-stream removes the temporary files (encrypt and decrypt)",
               lambda: signals(s))
        s.case(g, "memory does not grow with the file (1 MiB vs 48 MiB)", lambda: memory(s))

    data = s.vector("nip17.kind15-aesgcm.json")
    if data is None:
        s.missing_file("nip17.kind15-aesgcm.json")
        return
    f = "nip17.kind15-aesgcm.json"
    for i, c in enumerate(data["cases"]):
        def vector(c=c):
            d = Dir(s)
            blob = bytes.fromhex(c["encrypted_blob"])
            tags = dict((t[0], t[1]) for t in c["tags"])
            nonce = c.get("nonce", c.get("nonce_tag_value"))
            check(tags["decryption-nonce"] == nonce, "test setup")
            d.write("blob", blob)
            r = decrypt(s, tags["decryption-key"], nonce, d("blob"), d("out"))
            expect_ok(r)
            check(d.read("out") == bytes.fromhex(c["plaintext"]), "plaintext differs")
            # the legacy case fails with the hex IV first: that attempt leaves nothing either
            check(d.listing() == ["blob", "out"], "left behind: %r" % d.listing())
            check(hashlib.sha256(blob).hexdigest() == tags["x"] and
                  hashlib.sha256(d.read("out")).hexdigest() == tags["ox"] and
                  str(len(blob)) == tags["size"], "x/ox/size of the vector")
            # through a pipe (IN read once): the same bytes
            r = decrypt(s, tags["decryption-key"], nonce, "/dev/stdin", d("piped"), stdin=blob)
            expect_ok(r)
            check(d.read("piped") == d.read("out"), "through a pipe: the plaintext differs")
            check(d.listing() == ["blob", "out", "piped"], "left behind: %r" % d.listing())
            # the same blob with its tag flipped is refused, leaving nothing
            d.write("bad", blob[:-1] + bytes([blob[-1] ^ 1]))
            before = d.listing()
            expect_refused(s, decrypt(s, tags["decryption-key"], nonce, d("bad"), d("o2")), d,
                           before, "auth")
        s.case(f, "case %d: %s" % (i, c["note"][:60]), vector)


def progress(s):
    d = Dir(s)
    data = os.urandom(9 * MIB)
    d.write("big", data)
    for args in (["file", "encrypt", d("big"), d("blob")], None):
        if args is None:
            tags = json.loads(out)
            args = ["file", "decrypt", "--key", tags["decryption-key"], "--nonce",
                    tags["decryption-nonce"], d("blob"), d("plain")]
        master, slave = pty.openpty()
        p = subprocess.Popen(s.argv(args), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=slave)
        os.close(slave)
        err = b""
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            err += chunk
        out = p.stdout.read().decode()
        p.wait()
        os.close(master)
        check(p.returncode == 0, "%s: rc=%d %r" % (args[1], p.returncode, err))
        text = err.decode()
        check("\rsoftchat: %sing" % args[1] in text and "100% (9.0 of 9.0 MiB)" in text,
              "%s: no progress line: %r" % (args[1], text[-300:]))
        check(text.endswith("\r") and text.rstrip("\r").split("\r")[-1].strip() == "",
              "%s: the line is not cleared at the end: %r" % (args[1], text[-120:]))
        check("\n" not in text, "progress is one line: %r" % text[-200:])
    check(d.read("plain") == data, "round trip through the terminal runs")
    # the same commands with stderr not a terminal: silent
    r = s.run("file", "encrypt", d("big"), d("blob2"))
    expect_ok(r)


def wait_for_temp(d, proc, count=1, timeout=20):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if sum(".softchat-" in n for n in d.listing()) >= count:
            return
        if proc.poll() is not None:
            raise CaseFailure("the CLI exited early: rc=%d" % proc.returncode)
        time.sleep(0.01)
    raise CaseFailure("no temporary file appeared: %r" % d.listing())


def signals(s):
    d = Dir(s)
    tags, blob = encrypt(s, d, os.urandom(300000))
    # a FIFO is read once: with a 32-digit nonce, decrypt holds a temporary file per IV
    for args, temps in ((["file", "encrypt", d("fifo"), d("out")], 1),
                        (["file", "decrypt", "--key", tags["decryption-key"], "--nonce",
                          tags["decryption-nonce"][:24], d("fifo"), d("out")], 1),
                        (["file", "decrypt", "--key", tags["decryption-key"], "--nonce",
                          tags["decryption-nonce"], d("fifo"), d("out")], 2)):
        os.mkfifo(d("fifo"))
        before = d.listing()
        p = subprocess.Popen(s.argv(args), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
        w = os.open(d("fifo"), os.O_WRONLY)  # waits for the CLI to open it
        try:
            os.write(w, blob[:200000])
            wait_for_temp(d, p, temps)
            p.send_signal(signal.SIGTERM)
            p.wait(timeout=20)
        finally:
            os.close(w)
            if p.poll() is None:
                p.kill()
                p.wait()
        check(p.returncode == -signal.SIGTERM, "%s: rc=%r, expected death by SIGTERM %r"
              % (args[1], p.returncode, p.stderr.read()))
        check(d.listing() == before, "%s: left behind %r" % (args[1], d.listing()))
        os.unlink(d("fifo"))


def memory(s):
    d = Dir(s)
    with open(d("small"), "wb") as f:
        f.write(os.urandom(MIB))
    with open(d("large"), "wb") as f:
        chunk = os.urandom(MIB)
        for _ in range(48):
            f.write(chunk)
    rss = {}
    for name in ("small", "large"):
        rc, rss[name] = s.run_measured(["file", "encrypt", d(name), d(name + ".blob")],
                                       os.devnull)
        check(rc == 0, "encrypt %s: rc=%d" % (name, rc))
    check(rss["large"] - rss["small"] < 4096,
          "max RSS %d KiB for 48 MiB vs %d KiB for 1 MiB" % (rss["large"], rss["small"]))


# ==== every command ===========================================================================
def test_general(s):
    g = "general"

    def helps():
        for args in (["nip59", "--help"], ["nip59", "wrap", "--help"], ["nip59", "unwrap", "-h"],
                     ["nip17", "--help"], ["nip17", "send", "--help"],
                     ["nip17", "receive", "--help"], ["file", "--help"],
                     ["file", "encrypt", "--help"], ["file", "decrypt", "--help"],
                     ["file", "decrypt", "--key", "x", "--help"]):
            expect_ok(s.run(*args), lambda o: o.startswith(b"usage: softchat"))
        top = s.run("--help").out.decode()
        for line in ("softchat nip59 wrap", "softchat nip59 unwrap", "softchat nip17 send",
                     "softchat nip17 receive", "softchat file encrypt", "softchat file decrypt"):
            check(line in top, "%r missing from softchat --help" % line)
        text = s.run("file", "--help").out.decode()
        check("--key HEX" in text and "ps" in text and "--key-file" in text,
              "file decrypt --help must name the --key exposure and --key-file")
    s.case(g, "--help on every new command: usage on stdout, exit 0", helps)

    def write_errors():
        alice = fresh_sec()
        w = send(s, alice, s.pub_of(SEC1), "x").out.splitlines()[0]
        with open("/dev/full", "wb") as full:
            for args, stdin in ((["nip59", "wrap", "--sec-file", s.key_file(alice), "--to",
                                  s.pub_of(SEC1)], b'{"kind":1,"content":"x"}'),
                                (["nip59", "unwrap", "--sec-file", s.key_file(SEC1)], w),
                                (["nip17", "send", "--sec-file", s.key_file(alice), "--to",
                                  s.pub_of(SEC1)], b"hi"),
                                (["nip17", "receive", "--sec-file", s.key_file(SEC1)], w)):
                p = subprocess.run(s.argv(args), input=stdin, stdout=full,
                                   stderr=subprocess.PIPE)
                check(p.returncode == 2 and b"cannot write" in p.stderr,
                      "%s: rc=%d %r" % (args[:2], p.returncode, p.stderr))
    if os.path.exists("/dev/full"):
        s.case(g, "a failed write to stdout is exit 2", write_errors)
    else:
        s.skip(g, "write errors", "no /dev/full on this system")

    def unknown_backend():
        r = subprocess.run(s.wrap + [s.cli_path, "--backend", "nope", "nip17", "receive",
                                     "--sec-file", s.key_file(SEC3)],
                           input=b"", stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        check(r.returncode == 2 and b"no backend" in r.stderr, "rc=%d" % r.returncode)
    s.case(g, "an unknown backend is exit 2", unknown_backend)


def main():
    return run_suite(__doc__, (test_general, test_nip59, test_nip17, test_file),
                     "the NIP-59, NIP-17 and kind 15")


if __name__ == "__main__":
    sys.exit(main())
