#!/usr/bin/env python3
"""Generates vectors/primitives.json: the project's own known-answer cases for SHA-256,
HMAC-SHA256, HKDF-SHA256, ChaCha20 and AES-256-GCM.

Every value comes from pycryptodome, an implementation independent of the library's backends
(OpenSSL, mbed TLS, libsodium). Inputs come from a fixed seed, so running this again produces
the same file byte for byte.

    python3 -m venv /tmp/vgen && /tmp/vgen/bin/pip install pycryptodome
    /tmp/vgen/bin/python vectors/gen/primitives.py > vectors/primitives.json
"""
import json
import random
import sys

import Crypto
from Crypto.Cipher import AES, ChaCha20
from Crypto.Hash import HMAC, SHA256
from Crypto.Protocol.KDF import HKDF

SEED = 0x50F7C4A7  # fixed: the file must regenerate identically

rng = random.Random(SEED)


def rand(n):
    return rng.randbytes(n)


def hx(b):
    return b.hex()


def sha256_cases():
    # every length 0..130 (block boundaries 55/56/63/64/119/120/127/128), then a few KiB
    lengths = list(range(0, 131)) + [1000, 2049, 4096, 6143]
    out = []
    for n in lengths:
        msg = rand(n)
        out.append({"msg": hx(msg), "digest": SHA256.new(msg).hexdigest()})
    return out


def hmac_cases():
    out = []
    for klen in (0, 1, 32, 64, 65, 200):
        for mlen in (0, 1, 55, 64, 65, 150):
            key, msg = rand(klen), rand(mlen)
            mac = HMAC.new(key, msg, digestmod=SHA256).hexdigest()
            out.append({"key": hx(key), "msg": hx(msg), "mac": mac})
    return out


def hkdf_cases():
    out = []
    shapes = [  # (salt, ikm, info, L)
        (0, 22, 0, 42), (13, 22, 10, 42), (32, 32, 0, 32), (64, 1, 33, 1),
        (80, 80, 80, 82), (1, 0, 1, 31), (65, 100, 200, 33), (32, 32, 32, 64),
        (16, 16, 16, 255), (0, 0, 0, 100), (32, 32, 7, 8160),
    ]
    for slen, ilen, nlen, length in shapes:
        salt, ikm, info = rand(slen), rand(ilen), rand(nlen)
        # RFC 5869: an empty salt is HashLen zero bytes
        prk = HMAC.new(salt if salt else b"\x00" * 32, ikm, digestmod=SHA256).digest()
        okm = HKDF(ikm, length, salt if salt else b"\x00" * 32, SHA256, 1, context=info)
        out.append({"salt": hx(salt), "ikm": hx(ikm), "info": hx(info), "length": length,
                    "prk": hx(prk), "okm": hx(okm)})
    return out


def chacha20_cases():
    # One keystream per (key, nonce, counter); the tests check every prefix length 0..len.
    out = []
    for counter, length in ((0, 300), (1, 300), (7, 200), (0xFFFFFFFE, 128), (0xFFFFFFFF, 64)):
        key, nonce = rand(32), rand(12)
        c = ChaCha20.new(key=key, nonce=nonce)
        c.seek(64 * counter)
        ks = c.encrypt(b"\x00" * length)
        out.append({"key": hx(key), "nonce": hx(nonce), "counter": counter, "keystream": hx(ks)})
    return out


def aes256gcm_cases():
    out = []
    aad_lengths = (0, 1, 13, 16, 17, 40)
    msg_lengths = (0, 1, 15, 16, 17, 31, 33, 64, 100, 257)
    for iv_len in (12, 16):
        for i, mlen in enumerate(msg_lengths):
            for alen in (aad_lengths if i % 3 == 0 else aad_lengths[i % 2::2]):
                key, iv, aad, msg = rand(32), rand(iv_len), rand(alen), rand(mlen)
                c = AES.new(key, AES.MODE_GCM, nonce=iv, mac_len=16)
                c.update(aad)
                ct, tag = c.encrypt_and_digest(msg)
                out.append({"key": hx(key), "iv": hx(iv), "aad": hx(aad), "msg": hx(msg),
                            "ct": hx(ct), "tag": hx(tag)})
    return out


def main():
    doc = {
        "description": "The project's own known-answer vectors for the crypto primitives, run "
                       "on every backend whether or not the upstream vectors folder is present. "
                       "Hex strings. chacha20: `keystream` starts at block `counter`; every "
                       "prefix length 0..len(keystream) is a case (zeros give the keystream, any "
                       "input m gives m XOR keystream). hkdf_sha256: an empty salt means 32 zero "
                       "bytes.",
        "generator": "vectors/gen/primitives.py with pycryptodome %s, seed 0x%08X"
                     % (Crypto.__version__.split(".")[0] + ".x", SEED),
        "sha256": sha256_cases(),
        "hmac_sha256": hmac_cases(),
        "hkdf_sha256": hkdf_cases(),
        "chacha20": chacha20_cases(),
        "aes256gcm": aes256gcm_cases(),
    }
    json.dump(doc, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
