#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets from the test vectors.

Usage: seeds.py --out DIR [--vectors vectors/upstream] [--own vectors]

Each target gets DIR/<target>/, one file per seed, in the input layout its source file
(tests/<area>/fuzz_<target>.c; tests/fuzz/suite.cmake names the area) describes: a mode byte
chosen to reach the case the vector exercises, then the vector's bytes. The corpora are generated, never committed; a fuzzing run
adds what it finds to its own copy (scripts/fuzz.sh). Only the standard library is used.
A vector file that is missing is skipped with a note (own-only checkouts); a folder with no
seeds at all is an error.
"""
import argparse
import csv
import hashlib
import json
import os
import shutil
import sys

MAX_SEED = 64 * 1024  # larger inputs slow the replays and the first fuzzing rounds down
PER_TARGET = 400


def padded_len(n):
    if n <= 32:
        return 32
    nxt = 1
    while nxt < n:
        nxt <<= 1
    chunk = 32 if nxt <= 256 else nxt // 8
    return chunk * ((n - 1) // chunk + 1)


def nip44_padded(pt):
    n = len(pt)
    pre = n.to_bytes(2, "big") if n < 65536 else b"\0\0" + n.to_bytes(4, "big")
    return pre + pt + b"\0" * (padded_len(n) - n)


class Corpus:
    def __init__(self, out):
        self.out = out
        self.seen = {}

    def add(self, target, data):
        if isinstance(data, str):
            data = data.encode("utf-8", "surrogatepass")
        if len(data) > MAX_SEED:
            return
        names = self.seen.setdefault(target, set())
        if len(names) >= PER_TARGET:
            return
        name = hashlib.sha1(data).hexdigest()
        if name in names:
            return
        names.add(name)
        d = os.path.join(self.out, target)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)


def load(folder, rel, notes):
    path = os.path.join(folder, rel)
    if not os.path.exists(path):
        notes.append("skipped (absent): " + path)
        return None
    if rel.endswith(".json"):
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    with open(path, encoding="utf-8") as f:
        return list(csv.DictReader(f))


def h(s):
    return bytes.fromhex(s)


def event_text(ev):
    return json.dumps(ev, separators=(",", ":"), ensure_ascii=False)


def seeds_events(c, up, own, notes, texts):
    d = load(up, "nip01.events.json", notes)
    if d:
        for e in d["events"]:
            texts.append(event_text(e["event"]) if "event" in e else e.get("serialized", ""))
    d = load(own, "nostr-tools.events.json", notes)
    if d:
        for e in d["events"]:
            texts.append(e["json"])
        for a in d["alternate_encodings"]:
            for enc in a["encodings"]:
                texts.append(enc["json"] if isinstance(enc, dict) else enc)
        for r in d["rejects"]:
            texts.append(r["json"])
    for i, t in enumerate(texts):
        c.add("event", b"\x00" + t.encode("utf-8", "surrogatepass"))
        if i % 4 == 0:  # the differential target has many other calls to seed
            c.add("diff", bytes([11]) + t.encode("utf-8", "surrogatepass"))
    rumors = []
    for rel in ("nip59.spec-example.json", "nip17.spec-example.json"):
        d = load(up, rel, notes)
        if not d:
            continue
        if "rumor_plaintext" in d:
            rumors.append(d["rumor_plaintext"])
            c.add("event", b"\x00" + d["seal_plaintext"].encode())
        for w in d.get("wraps", []):
            rumors.append(w["rumor_plaintext"])
            c.add("event", b"\x00" + event_text(w["wrap"]).encode())
    for r in rumors:
        c.add("event", b"\x84" + r.encode())  # bit 7: optional mask 0x04 (no sig)
    return rumors


def seeds_nip44(c, up, own, notes):
    d = load(up, "nip44.vectors.json", notes)
    cases = []
    if d:
        v2 = d["v2"]
        for e in v2["valid"]["encrypt_decrypt"]:
            cases.append((e["conversation_key"], e["nonce"], e["plaintext"], e["payload"]))
        for e in v2["invalid"]["decrypt"]:
            c.add("nip44", b"\x00" + e["payload"].encode())
            c.add("diff", bytes([8]) + h(e["conversation_key"]) + e["payload"].encode())
            c.add("base64", e["payload"].encode())
        for e in v2["valid"]["get_conversation_key"]:
            c.add("nip44", b"\x03" + h(e["sec1"]) + h(e["pub2"]))
            c.add("diff", bytes([7]) + h(e["sec1"]) + h(e["pub2"]))
        for e in v2["invalid"]["get_conversation_key"]:
            c.add("nip44", b"\x03" + h(e["sec1"]) + h(e["pub2"]))
            c.add("diff", bytes([7]) + h(e["sec1"]) + h(e["pub2"]))
    d = load(own, "nostr-tools.nip44.json", notes)
    if d:
        for e in d["encrypt"][:60]:
            cases.append((e["conversation_key"], e["nonce"], None, e["payload"]))
        for e in d["rejects"]:
            c.add("nip44", b"\x00" + e["payload"].encode())
            c.add("nip44", b"\x80" + e["payload"].encode())
    for ck, nonce, pt, payload in cases:
        c.add("nip44", b"\x00" + payload.encode())
        c.add("nip44", b"\x40" + payload.encode())  # bit 6: the extra checks
        c.add("base64", payload.encode())
        c.add("diff", bytes([8]) + h(ck) + payload.encode())
        if pt is not None:
            p = pt.encode("utf-8")
            c.add("nip44", b"\x01\x00" + h(nonce) + nip44_padded(p))
            c.add("nip44", b"\x02" + h(nonce) + b"\x00" + p)
            c.add("nip44", b"\x46" + h(nonce) + b"\x00" + p)
            c.add("nip44", b"\x82" + h(nonce) + b"\x00" + p)
            c.add("diff", bytes([9]) + h(nonce) + nip44_padded(p))
            c.add("diff", bytes([10]) + h(ck) + h(nonce) + p)
    # the extended prefix (mode 2, plaintext starting ff ff ff fe: the input repeated past
    # 65535 bytes)
    c.add("nip44", b"\x02" + b"\x01" * 32 + b"\x00" + b"\xff\xff\xff\xfe\x07extended")
    c.add("nip44", b"\x01\x00" + b"\x02" * 32 + b"\x00\x00\x00\x01\x00\x00" + b"x" * 40)


def seeds_gift_wraps(c, up, rumors, notes):
    for rel in ("nip59.spec-example.json", "nip17.spec-example.json"):
        d = load(up, rel, notes)
        if not d:
            continue
        layers = []
        if "wrap" in d:
            layers.append((d["wrap"], d["seal"], d["seal_plaintext"], d["rumor_plaintext"]))
        for w in d.get("wraps", []):
            layers.append((w["wrap"], w["seal"], w["seal_plaintext"], w["rumor_plaintext"]))
        for wrap, seal, seal_pt, rumor_pt in layers:
            for receive in (0, 8):
                c.add("nip59", bytes([0 | receive]) + seal_pt.encode())
                c.add("nip59", bytes([1 | receive]) + rumor_pt.encode())
                c.add("nip59", bytes([2 | receive]) + rumor_pt.encode())
                c.add("nip59", bytes([2 | receive | 0x80]) + rumor_pt.encode())
                c.add("nip59", bytes([3 | receive]) + rumor_pt.encode())
                c.add("nip59", bytes([4 | receive]) + seal["content"].encode())
                c.add("nip59", bytes([5 | receive]) + event_text(wrap).encode())
            c.add("diff", bytes([12]) + rumor_pt.encode())
    for r in rumors:
        c.add("nip59", b"\x02" + r.encode())


def seeds_nip19(c, up, notes):
    d = load(up, "nip19.vectors.json", notes)
    if d:
        for e in d["cases"]:
            c.add("nip19", e["bech32"])
            c.add("nip19", e["bech32"].upper())
    # entities to encode (first byte < 0x20): type, key, has_author, author, has_kind, kind,
    # identifier length and bytes, relay count, relays
    for t in range(1, 7):
        body = bytes([t]) + bytes(range(32)) + b"\x01" + bytes(range(32, 64)) + b"\x01"
        body += (30023).to_bytes(4, "big") + (5).to_bytes(2, "big") + b"hello" + b"\x02"
        body += (17).to_bytes(2, "big") + b"wss://relay.one/x" + (3).to_bytes(2, "big") + b"a.b"
        c.add("nip19", b"\x01" + body)


def seeds_file(c, up, notes):
    d = load(up, "nip17.kind15-aesgcm.json", notes)
    pts = [b"", b"x", bytes(range(256)) * 20]
    if d:
        for e in d["cases"]:
            pts.append(h(e["plaintext"]))
            blob = h(e["encrypted_blob"])
            c.add("file", b"\x81\x00\x10\x20\x30\x40\x00" + blob)  # raw: the blob itself
    for i, p in enumerate(pts):
        iv_kind = i % 3
        c.add("file", bytes([iv_kind, 0, 1, 2, 3, 4, 0]) + p)
        c.add("file", bytes([iv_kind | 0x04, 0, 9, 9, 9, 9, 0]) + p)  # a flipped bit
        c.add("file", bytes([iv_kind | 0x08, 0x02, 0, 0, 0, 5, 1]) + p)  # cut short
        c.add("file", bytes([iv_kind | 0x10, 0x12, 40, 0, 7, 1, 2]) + p)  # commit fails
        c.add("file", bytes([iv_kind | 0x20, 0x61, 255, 255, 0, 0, 4]) + p)  # abort, reenter
        c.add("diff", bytes([13, 0]) + p)
        c.add("diff", bytes([13, 3]) + p)


def seeds_primitives(c, up, own, notes):
    d = load(own, "primitives.json", notes)
    if d:
        for e in d["sha256"][:80]:
            c.add("diff", bytes([0, len(h(e["msg"])) // 2 % 256]) + h(e["msg"]))
            c.add("base64", h(e["msg"]))
        for e in d["hmac_sha256"]:
            k = h(e["key"])[:255]
            c.add("diff", bytes([1, 3, len(k)]) + k + h(e["msg"]))
        for e in d["hkdf_sha256"]:
            s, i = h(e["salt"])[:255], h(e["ikm"])[:255]
            c.add("diff", bytes([2, len(s)]) + s + bytes([len(i)]) + i +
                  e["length"].to_bytes(2, "big") + h(e["info"]))
        for e in d["chacha20"]:
            c.add("diff", bytes([3]) + h(e["key"]) + h(e["nonce"]) +
                  e["counter"].to_bytes(4, "big") + b"\0" * (len(e["keystream"]) // 2))
        for e in d["aes256gcm"][:60]:
            iv, aad = h(e["iv"]), h(e["aad"])[:255]
            c.add("diff", bytes([4, len(iv)]) + h(e["key"]) + iv + b"\x00" + bytes([len(aad)]) +
                  aad + h(e["msg"]))
    rows = load(up, "bip340.test-vectors.csv", notes)
    if rows:
        for r in rows:
            msg = h(r["message"]) if len(r["message"]) == 64 else b"\0" * 32
            if r["secret key"]:
                c.add("diff", bytes([5]) + h(r["secret key"]) + msg + h(r["aux_rand"]))
            c.add("diff", bytes([6]) + h(r["signature"]) + msg + h(r["public key"]))


RELAY_MESSAGES = [
    '["EOSE","sub"]',
    '["CLOSED","sub","auth-required: sign in"]',
    '["CLOSED","sub",""]',
    '["OK","' + "ab" * 32 + '",false,"duplicate: already have it"]',
    '["OK","' + "ab" * 32 + '",true,""]',
    '["NOTICE","hi\\n"]',
    '["AUTH","challenge-1"]',
    '["AUTH","\\u0000\\u00e9\\ud83d\\ude00"]',
    '["COUNT","sub",{"approximate":false,"count":42}]',
    '["NEG-MSG","sub","6100ff"]',
    '["NEG-ERR","sub","closed: too slow"]',
    '["EVENT","sub",{}]',
    '["HELLO",1]',
]

RELAY_FILTERS = [
    '{}',
    '{"kinds":[1059,14],"#p":["' + "cd" * 32 + '"],"since":1700000000,"limit":10}',
    '{"ids":["' + "ab" * 32 + '"],"authors":["' + "cd" * 32 + '"],"until":5}',
    '{"#t":["a","b\\u00e9"],"#T":["x"],"kinds":[0,65535]}',
]


def seeds_relay(c, event_texts):
    """relay: mode 0 a relay message, 1 an event to sign (twist, sel, kind filter, kind,
    created_at, tag, content), 2 a filter, 3 a script (op, arg[, message op, arg])."""
    for t in RELAY_MESSAGES:
        c.add("relay", b"\x00" + t.encode())
    for t in event_texts[:40]:
        c.add("relay", b"\x00" + ('["EVENT","sub",' + t + ']').encode("utf-8", "surrogatepass"))
    for twist in range(3):
        for sel in (0, 1, 3, 5, 13):
            body = bytes([twist, sel]) + (1).to_bytes(2, "big") + (1).to_bytes(2, "big")
            body += (1700000000).to_bytes(4, "big") + b"\x05hello" + "hi \u00e9".encode()
            c.add("relay", b"\x01" + body)
    for t in RELAY_FILTERS:
        c.add("relay", b"\x02" + t.encode())
    # connect, subscribe, publish, drain, then relay messages of each kind, drop, reconnect
    script = bytes([0, 0, 2, 0, 2, 5, 4, 1, 5, 0])
    for op in range(6):
        script += bytes([6, 0, op, 0x10 * op + 1])
    script += bytes([1, 0, 0, 0, 5, 0x83, 5, 0])
    c.add("relay", b"\x03" + script)
    c.add("relay", b"\x03" + bytes([0, 0, 6, 0, 3, 7, 5, 0, 6, 0, 2, 0x21, 6, 0, 1, 0x08]))


def seeds_negentropy(c):
    """negentropy: mode byte (mode % 3, frame limit (mode >> 4) % 3), the universe (shape,
    seed, count: one byte, or two when shape bit 7 is set), then a message from the peer
    (modes 0, 1) or where each record lives (mode 2: 2 bits each)."""
    idl = bytes(range(32))
    messages = [
        b"\x61",                                   # no ranges
        b"\x61\x00\x00\x00",                       # skip to infinity
        b"\x61\x00\x00\x02\x00",                   # an empty id list
        b"\x61\x00\x00\x02\x01" + idl,              # one id
        b"\x61\x00\x00\x01" + bytes(16),            # a fingerprint
        b"\x61\x85\xa3\xb2\x87\x06\x01\x42\x01" + bytes(16) + b"\x00\x00\x02\x00",
        b"\x62",                                   # another version
        b"\x60\x00",
    ]
    universes = [b"\x00\x07\x00", b"\x09\x01\x05", b"\x3a\x02\x28", b"\x80\x03\x01\x2c",
                 b"\xf9\x04\x02\x58"]
    for limited in (0, 1):
        for u in universes:
            for mode in (0, 1):
                for m in messages:
                    c.add("negentropy", bytes([mode | limited << 4]) + u + m)
            for place in (b"", b"\x00" * 8, b"\x55" * 64, b"\xaa" * 64, b"\x1b" * 400):
                c.add("negentropy", bytes([2 | limited << 4]) + u + bytes([limited]) + place)


def seeds_nip17(c, up, notes):
    """nip17: a mode byte (low 2 bits: the kind as parsed, 15 or 10050), then an event's JSON
    (kind, tags and content required)."""
    key, x = "ab" * 32, "cd" * 32
    file_tags = [["p", "ef" * 32], ["file-type", "image/jpeg"],
                 ["encryption-algorithm", "aes-gcm"], ["decryption-key", key],
                 ["decryption-nonce", "0f" * 16], ["x", x], ["ox", "12" * 32],
                 ["size", "12345"], ["dim", "640x480"], ["blurhash", "LEHV6nWB2yk8"],
                 ["thumb", "https://t.example/a"], ["fallback", "https://b.example/1"],
                 ["fallback", "https://c.example/2"]]
    rumors = [
        {"kind": 15, "tags": file_tags, "content": "https://files.example/blob"},
        {"kind": 15, "tags": file_tags[:6] + [["decryption-nonce", "AB" * 12]],
         "content": "https://files.example/blob"},
        {"kind": 15, "tags": [t for t in file_tags if t[0] not in ("ox", "fallback")],
         "content": "u"},
        {"kind": 10050, "tags": [["relay", "wss://inbox.example"], ["relay", ""],
                                 ["relay", "wss://b.example", "x"]], "content": ""},
        {"kind": 1, "tags": [["expiration", "1700000000"]], "content": ""},
        {"kind": 1, "tags": [["expiration", "9223372036854775807"], ["t", "x"]], "content": ""},
        {"kind": 1, "tags": [["expiration", "01"]], "content": ""},
        {"kind": 1, "tags": [["expiration"]], "content": ""},
    ]
    d = load(up, "nip17.spec-example.json", notes)
    if d and "wraps" in d:
        for w in d["wraps"]:
            rumors.append(json.loads(w["rumor_plaintext"]))
    for r in rumors:
        for mode in (0, 1, 2):
            c.add("nip17", bytes([mode]) + event_text(r).encode())


def seeds_nip49(c, up, own, notes):
    """nip49: mode 0 (selector, ncryptsec, newline, password) for the NIP's example and the
    strings of vectors/nostr-tools.nip49.json; mode 1 (selector, key, password length and
    bytes, salt, nonce, cost, security, where to change a character)."""
    spec = load(up, "nip49.spec-example.json", notes)
    texts = []
    if spec is not None:
        texts += [(d["ncryptsec"], d["password"].encode()) for d in spec["decrypt"]]
    tools = load(own, "nostr-tools.nip49.json", notes)
    if tools is not None:
        texts += [(v["ncryptsec"], bytes.fromhex(v["password_nfkc_utf8"])) for v in tools["valid"]]
        texts += [(r["ncryptsec"], bytes.fromhex(r["password_nfkc_utf8"])) for r in tools["rejects"]]
    for text, pw in texts:
        c.add("nip49", b"\x00\x00" + text.encode() + b"\n" + pw)
    for i in range(8):
        key = hashlib.sha256(b"nip49 seed %d" % i).digest()
        pw = ("pw%d \u00e9" % i).encode()
        c.add("nip49", b"\x01" + bytes([i]) + key + bytes([len(pw)]) + pw + bytes(range(40)) +
              bytes([i, i, 17 * i]))


def seeds_nip98(c, up, notes):
    """nip98: mode 0 (selector, header) for the NIP's example headers; mode 1 (selector, kind
    selector, created_at offset, tags); mode 2 (selector, URL, newline, method)."""
    spec = load(up, "nip98.spec-example.json", notes)
    if spec is not None:
        for k in ("header", "header_original"):
            c.add("nip98", b"\x00\x00" + spec[k].encode())
            c.add("nip98", b"\x04\x01" + spec[k].encode())
    c.add("nip98", b"\x00\x01Bearer abc")
    c.add("nip98", b"\x00\x00Nostr e30")
    url = b"https://a.example/up?x=1"
    for mode in (1, 5, 9, 13):
        for kind_sel, off in ((0, 0), (2, 0), (0, 61), (0, 0xC3)):
            tags = b"u=" + url + b"\nmethod=POST"
            if mode & 4:
                tags += b"\npayload=" + hashlib.sha256(b"{}").hexdigest().encode()
            c.add("nip98", bytes([mode, 0, kind_sel, off]) + tags)
    c.add("nip98", bytes([1, 1, 0, 0]) + b"u=" + url + b"\nu=" + url + b"\nmethod=POST")
    for body in (url + b"\nPOST", url + b"\nget", b"\nPOST", url + b"\n", b"x\xff\nPUT"):
        c.add("nip98", b"\x02\x00" + body)


def seeds_nip46(c):
    """nip46: mode 0 (selector, URI); mode 1 (selector, JSON-RPC text sealed both ways);
    mode 2 (selector, event JSON)."""
    key = b"79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798"
    for uri in (b"bunker://" + key + b"?relay=wss%3A%2F%2FR.example%3A443%2F&secret=a+b%2B",
                b"nostrconnect://" + key + b"?relay=wss://r.example&secret=s&perms=sign_event%3A14"
                b"&name=My%20App&url=https%3A%2F%2Fa.example&image=x",
                b"bunker://" + key + b"?relay=wss://a.example&relay=wss://a.example",
                b"bunker://" + key, b"bunker://" + key + b"?relay=%zz"):
        c.add("nip46", b"\x00\x00" + uri)
    for rpc in (b'{"id":"i1","method":"ping","params":[]}',
                b'{"id":"i1","method":"connect","params":["x","s"]}',
                b'{"id":"i1","method":"get_public_key","params":[]}',
                b'{"id":"i1","method":"sign_event","params":["{\\"kind\\":1,\\"content\\":'
                b'\\"x\\",\\"tags\\":[],\\"created_at\\":1}"]}',
                b'{"id":"i1","method":"nip44_encrypt","params":["' + key + b'","hi"]}',
                b'{"id":"i1","method":"nip04_decrypt","params":["' + key + b'","hi"]}',
                b'{"id":"i1","result":"pong"}', b'{"id":"i1","result":"auth_url","error":"u"}',
                b'{"id":"i1","result":"","error":"no"}', b'{"id":"i1","result":"x","error":null}',
                b'{"id":1}', b'[]'):
        c.add("nip46", b"\x01\x00" + rpc)
    c.add("nip46", b"\x02\x00{}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--vectors", default=None, help="the upstream vectors (vectors/upstream)")
    ap.add_argument("--own", default=None, help="the project's own vectors (vectors)")
    a = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    up = a.vectors or os.path.join(root, "vectors", "upstream")
    own = a.own or os.path.join(root, "vectors")
    if os.path.isdir(a.out):
        shutil.rmtree(a.out)
    os.makedirs(a.out)
    c = Corpus(a.out)
    notes = []
    event_texts = []
    rumors = seeds_events(c, up, own, notes, event_texts)
    seeds_nip44(c, up, own, notes)
    seeds_gift_wraps(c, up, rumors, notes)
    seeds_nip19(c, up, notes)
    seeds_file(c, up, notes)
    seeds_primitives(c, up, own, notes)
    seeds_relay(c, event_texts)
    seeds_negentropy(c)
    seeds_nip17(c, up, notes)
    seeds_nip49(c, up, own, notes)
    seeds_nip98(c, up, notes)
    seeds_nip46(c)
    # inputs every target should survive
    for t in ("event", "nip44", "nip59", "nip19", "file", "base64", "diff", "relay", "negentropy", "nip17",
              "nip49", "nip98"):
        c.add(t, b"")
        c.add(t, b"\x00")
        c.add(t, b"\xff" * 64)
    for n in notes:
        print("seeds: " + n)
    total = 0
    for t in sorted(c.seen):
        print("seeds: %-7s %4d files" % (t, len(c.seen[t])))
        total += len(c.seen[t])
    print("seeds: %d files in %s" % (total, a.out))
    return 0 if total else 1


if __name__ == "__main__":
    sys.exit(main())
