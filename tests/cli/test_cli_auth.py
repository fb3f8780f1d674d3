#!/usr/bin/env python3
"""End-to-end tests of the softchat command-line tool's key protection and HTTP auth: NIP-49
(nip49 encrypt, decrypt, inspect) and NIP-98 (nip98 sign, verify), for one backend.

    test_cli_auth.py --cli PATH --backend NAME [--vectors DIR] [--wrap "valgrind -q ..."]

NIP-49: the NIP's own example (vectors/upstream/nip49.spec-example.json, from --vectors) and the
ncryptsec strings nostr-tools' libraries made (vectors/nostr-tools.nip49.json, always read from
the repository), opened with each password as typed: the CLI normalises it to NFKC as NIP-49
asks, so the cases whose typed form is not NFKC prove the normaliser (a build without one,
SOFTCHAT_CLI_NFKC=OFF, must refuse them, saying so). Then round trips, costs, key security,
wrong passwords and tampered strings (exit 1), usage errors and unreadable password files (exit
2), key files written whole, and a backend without NIP-49's primitives (exit 2, with the
reason; inspect still answers).

NIP-98: headers signed and verified, with and without a body hash (from a file or given);
each failed check exits 1 with its token (nip98-url, nip98-method, nip98-time, nip98-payload,
nip98-scheme, base64, id-mismatch); the NIP's examples (vectors/upstream/nip98.spec-example.json);
usage errors exit 2.

Python standard library only. Exit status: 0 when no case failed, 1 otherwise.
"""

import hashlib
import json
import os
import stat
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_cli import (SEC3, CURVE_N, CaseFailure, check, expect_ok, expect_invalid,  # noqa: E402
                      expect_usage, expect_error, is_hex_line, run_suite)

OWN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "vectors")
NIP49_SPEC = "nip49.spec-example.json"
NIP98_SPEC = "nip98.spec-example.json"


def nip49_supported(s):
    """Whether the backend has scrypt and XChaCha20-Poly1305 (from `softchat backends`)."""
    r = s.run("backends")
    expect_ok(r)
    lines = r.out.decode().splitlines()
    return "  + scrypt" in lines and "  + xchacha20-poly1305" in lines


def normaliser(s):
    r = s.run("--version")
    expect_ok(r)
    out = r.out.decode()
    key = "NIP-49 password normaliser: "
    if key not in out:
        raise CaseFailure("softchat --version does not name the normaliser: " + out)
    return out[out.index(key) + len(key):].strip().rstrip(")")


# ==== nip49 ===================================================================================
def test_nip49(s):
    g = "nip49"
    has = nip49_supported(s)
    norm = normaliser(s)
    full_nfkc = norm == "libunistring"
    with open(os.path.join(OWN, "nostr-tools.nip49.json"), encoding="utf-8") as f:
        tools = json.load(f)
    spec = s.vector(NIP49_SPEC)

    def pw_file(name, data):
        return s.write("pw-" + name, data)

    def encrypt(sec_hex, pw, *extra):
        return s.run("nip49", "encrypt", "--sec-file", s.key_file(sec_hex), "--password-file",
                     pw_file("enc", pw), *extra)

    def decrypt(text, pw, *extra):
        return s.run("nip49", "decrypt", "--password-file", pw_file("dec", pw), *extra,
                     stdin=text + "\n")

    if not has:
        def refused():
            r = encrypt(SEC3, "pw", "--log-n", "1")
            expect_error(r, "cannot do NIP-49", "scrypt")
            r = decrypt(tools["valid"][0]["ncryptsec"], "nostr")
            expect_error(r, "cannot do NIP-49")
            r = s.run("nip49", "inspect", tools["valid"][0]["ncryptsec"])
            expect_ok(r, lambda o: json.loads(o)["log_n"] == tools["valid"][0]["log_n"])
        s.case(g, "no scrypt in this backend: encrypt and decrypt exit 2 with the reason; "
                  "inspect answers", refused)
        return

    def spec_example():
        c = spec["decrypt"][0]
        for pw in (c["password"], c["password"] + "\n", c["password"] + "\r\n"):
            r = decrypt(c["ncryptsec"], pw)
            expect_ok(r, lambda o: o.decode() == c["sec"] + "\n")
        r = s.run("nip49", "inspect", c["ncryptsec"])
        expect_ok(r, lambda o: json.loads(o) == {"log_n": 16, "scrypt_memory": 67111936,
                                                 "key_security": "insecure"})
        # the NIP's normalisation example: sealed under the password as typed, opened with its
        # NFKC form (and the other way round)
        n = spec["nfkc"][0]
        typed, nfkc = bytes.fromhex(n["input_utf8"]), bytes.fromhex(n["nfkc_utf8"])
        if full_nfkc:
            r = encrypt(SEC3, typed, "--log-n", "3")
            expect_ok(r)
            r2 = decrypt(r.out.decode().strip(), nfkc)
            expect_ok(r2, lambda o: o.decode() == SEC3 + "\n")
        else:
            expect_invalid(encrypt(SEC3, typed, "--log-n", "3"), "normalised", norm)
    if spec is None:
        s.missing_file(NIP49_SPEC)
    else:
        s.case(g, "the NIP's example: decrypts (password file with or without a newline), "
                  "inspects; its normalisation example", spec_example)

    def nostr_tools_valid():
        ran = 0
        for c in tools["valid"]:
            typed = bytes.fromhex(c["password_utf8"])
            if not full_nfkc and typed != typed.decode().encode("ascii", "ignore"):
                expect_invalid(decrypt(c["ncryptsec"], typed), "normalised")
                continue
            r = decrypt(c["ncryptsec"], typed)
            expect_ok(r, lambda o, c=c: o.decode() == c["sec"] + "\n")
            ran += 1
        check(ran >= 12, "too few cases ran: %d" % ran)
    s.case(g, "nostr-tools' ncryptsec strings open with each password as typed (the CLI "
              "normalises)", nostr_tools_valid)

    def nostr_tools_rejects():
        for c in tools["rejects"]:
            pw = bytes.fromhex(c["password_nfkc_utf8"])
            if c["ncryptsec"] == "":
                r = decrypt("", pw)
            else:
                r = decrypt(c["ncryptsec"], pw)
            if c["expect"] == "SC_ERR_AUTH":
                expect_invalid(r, "wrong password", "SC_ERR_AUTH")
            else:
                expect_invalid(r, c["expect"])
    s.case(g, "tampered and malformed strings: exit 1 naming the status", nostr_tools_rejects)

    def round_trip():
        for sec_hex, ks in ((SEC3, "secure"), ("7" * 64, "insecure"), ("1" * 64, None)):
            extra = ["--log-n", "5"] + (["--key-security", ks] if ks else [])
            r = encrypt(sec_hex, "correct horse", *extra)
            expect_ok(r, lambda o: o.startswith(b"ncryptsec1") and len(o) == 163)
            text = r.out.decode().strip()
            r2 = s.run("nip49", "inspect", "-", stdin=text)
            expect_ok(r2, lambda o, ks=ks: json.loads(o) == {
                "log_n": 5, "scrypt_memory": 128 * 8 * (32 + 3), "key_security": ks or "unknown"})
            expect_ok(decrypt(text, "correct horse"), lambda o, h=sec_hex: o.decode() == h + "\n")
            expect_invalid(decrypt(text, "correct horsE"), "wrong password")
            # the same key twice: a fresh salt and nonce each time
            r3 = encrypt(sec_hex, "correct horse", *extra)
            check(r3.out != r.out, "two encryptions gave the same text")
        # the default cost is NIP-49's 16
        r = encrypt(SEC3, "x")
        expect_ok(r)
        r2 = s.run("nip49", "inspect", r.out.decode().strip())
        expect_ok(r2, lambda o: json.loads(o)["log_n"] == 16)
    s.case(g, "encrypt, inspect and decrypt; key security; fresh randomness; default cost 16",
           round_trip)

    def out_file():
        text = encrypt(SEC3, "pw", "--log-n", "2").out.decode().strip()
        dest = s.path("decrypted.key")
        r = decrypt(text, "pw", "--out", dest)
        expect_ok(r, lambda o: o == b"")
        with open(dest) as f:
            check(f.read() == SEC3 + "\n", "the key file holds another key")
        check(stat.S_IMODE(os.stat(dest).st_mode) == 0o600, "the key file is not mode 0600")
        expect_error(decrypt(text, "pw", "--out", dest), "exists")
        r = s.run("key", "pub", "--sec-file", dest)
        expect_ok(r, lambda o: is_hex_line(o))
    s.case(g, "decrypt --out FILE: mode 0600, never replaces a file", out_file)

    def refusals():
        expect_usage(encrypt(SEC3, "pw", "--log-n", "0"), "--log-n")
        expect_usage(encrypt(SEC3, "pw", "--log-n", "23"), "--log-n")
        expect_usage(encrypt(SEC3, "pw", "--log-n", "4x"), "--log-n")
        expect_usage(encrypt(SEC3, "pw", "--key-security", "maybe"), "--key-security")
        expect_usage(s.run("nip49", "encrypt", "--sec-file", s.key_file(SEC3)),
                     "--password-file")
        expect_usage(s.run("nip49", "decrypt", stdin="x"), "--password-file")
        expect_usage(s.run("nip49", "decrypt", "--password", "hunter2", stdin="x"),
                     "passwords are never taken on the command line")
        expect_usage(s.run("nip49"), "subcommand")
        expect_usage(s.run("nip49", "unseal"), "unknown nip49 subcommand")
        expect_invalid(encrypt(SEC3, "", "--log-n", "1"), "the password is empty")
        expect_invalid(encrypt(SEC3, "\n", "--log-n", "1"), "the password is empty")
        expect_invalid(encrypt(SEC3, b"pass\xffword", "--log-n", "1"), "not UTF-8")
        expect_invalid(encrypt(SEC3, "p" * 5000, "--log-n", "1"), "not a password file")
        expect_invalid(encrypt(CURVE_N, "pw", "--log-n", "1"), "invalid secret key")
        r = s.run("nip49", "decrypt", "--password-file", s.path("no-such-file"), stdin="x")
        expect_error(r, "cannot open")
        expect_invalid(decrypt("npub1xyz", "pw"), "SC_ERR_BECH32")
        expect_invalid(s.run("nip49", "inspect", "not-an-ncryptsec"), "SC_ERR_BECH32")
    s.case(g, "usage errors exit 2; bad passwords, keys and strings exit 1", refusals)


# ==== nip98 ===================================================================================
URL = "https://media.example/api/v1/upload?name=a%20b&size=3"
T0 = 1700000000


def test_nip98(s):
    g = "nip98"
    body = s.write("body.json", '{"name":"a b","size":3}')
    with open(body, "rb") as f:
        body_hash = hashlib.sha256(f.read()).hexdigest()
    pub3 = s.pub_of(SEC3)

    def sign(*extra, sec=SEC3):
        return s.run("nip98", "sign", "--sec-file", s.key_file(sec), *extra)

    def verify(header, *extra):
        return s.run("nip98", "verify", *extra, stdin=header)

    def round_trip():
        for payload in ([], ["--payload-file", body], ["--payload-sha256", body_hash]):
            r = sign("--url", URL, "--method", "PUT", "--created-at", str(T0), *payload)
            expect_ok(r, lambda o: o.startswith(b"Nostr ") and o.endswith(b"\n"))
            h = r.out.decode()
            check(len(h.strip()[6:]) % 4 == 0, "the base64 is padded")
            for method in ("PUT", "put"):
                v = verify(h, "--url", URL, "--method", method, "--now", str(T0 + 60), *payload)
                expect_ok(v)
                ev = json.loads(v.out)
                check(ev["pubkey"] == pub3 and ev["kind"] == 27235 and ev["content"] == ""
                      and ev["created_at"] == T0, "the event printed: %r" % ev)
                tags = [t[:2] for t in ev["tags"]]
                check(tags[:2] == [["u", URL], ["method", "PUT"]], "tags %r" % tags)
                check((["payload", body_hash] in tags) == bool(payload), "payload tag %r" % tags)
            # the value as given to a server, with its header name, and as an operand
            expect_ok(verify("Authorization: " + h, "--url", URL, "--method", "PUT", "--now",
                             str(T0), *payload))
            expect_ok(s.run("nip98", "verify", "--url", URL, "--method", "PUT", "--now", str(T0),
                            *payload, h.strip()))
        # created_at is now by default, and the default window accepts it
        r = sign("--url", URL, "--method", "GET")
        expect_ok(verify(r.out.decode(), "--url", URL, "--method", "GET"))
    s.case(g, "sign and verify: u, method, payload from a file or given; the signer", round_trip)

    def each_check():
        h = sign("--url", URL, "--method", "POST", "--created-at", str(T0), "--payload-file",
                 body).out.decode()
        base = ["--now", str(T0)]
        expect_invalid(verify(h, "--url", URL + "&x", "--method", "POST", *base), "nip98-url",
                       "SC_ERR_NIP98_URL")
        expect_invalid(verify(h, "--url", URL, "--method", "GET", *base), "nip98-method")
        expect_invalid(verify(h, "--url", URL, "--method", "POST", "--now", str(T0 + 61)),
                       "nip98-time")
        expect_invalid(verify(h, "--url", URL, "--method", "POST", "--now", str(T0 + 100),
                              "--window", "99"), "nip98-time")
        expect_ok(verify(h, "--url", URL, "--method", "POST", "--now", str(T0 + 100),
                         "--window", "100"))
        expect_invalid(verify(h, "--url", URL, "--method", "POST", "--payload-sha256", "0" * 64,
                              *base), "nip98-payload")
        h2 = sign("--url", URL, "--method", "POST", "--created-at", str(T0)).out.decode()
        expect_invalid(verify(h2, "--url", URL, "--method", "POST", "--payload-file", body,
                              *base), "nip98-payload")
        expect_invalid(verify("Bearer abc", "--url", URL, "--method", "POST", *base),
                       "nip98-scheme")
        expect_invalid(verify("Nostr !!!!", "--url", URL, "--method", "POST", *base), "base64")
        expect_invalid(verify("Nostr " + h.strip()[6:-4] + "AAAA", "--url", URL, "--method",
                              "POST", *base))
    s.case(g, "each failed check: exit 1 with its token", each_check)

    def spec_examples():
        c = s.vector(NIP98_SPEC)
        if c is None:
            s.missing_file(NIP98_SPEC)
            return
        args = ["--url", c["url"], "--method", c["method"], "--now", str(c["now"])]
        expect_invalid(verify(c["header"], *args), "id-mismatch", "SC_ERR_ID_MISMATCH")
        expect_invalid(verify(c["header_original"], *args), "nip98-url")
    s.case(g, "the NIP's example header (stale id) and the original one (no u tag)",
           spec_examples)

    def usage_errors():
        expect_usage(sign("--method", "GET"), "--url")
        expect_usage(s.run("nip98", "sign", "--url", URL, "--method", "GET"), "--sec-file")
        expect_usage(sign("--url", URL, "--method", "GET", "--payload-file", body,
                          "--payload-sha256", body_hash), "exclude")
        expect_usage(sign("--url", URL, "--method", "GET", "--payload-sha256", "xyz"),
                     "--payload-sha256")
        expect_usage(sign("--url", URL, "--method", "GET", "--created-at", "soon"),
                     "--created-at")
        expect_usage(sign("--url", "", "--method", "GET"), "must not be empty")
        expect_usage(s.run("nip98", "verify", "--url", URL, stdin="x"), "--method")
        expect_usage(s.run("nip98", "notarise"), "unknown nip98 subcommand")
        expect_error(sign("--url", URL, "--method", "GET", "--payload-file",
                          s.path("no-such-body")), "cannot open")
    s.case(g, "usage errors: exit 2", usage_errors)


def main():
    return run_suite(__doc__, (test_nip49, test_nip98), "the NIP-49 and NIP-98 examples")


if __name__ == "__main__":
    sys.exit(main())
