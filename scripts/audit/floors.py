"""Floors: what an operation's cryptography alone costs, composed from the floor rows measured
in the same run (docs/benchmarks.md, "Floors"). NIP-44 at L bytes = ECDH + HMAC(32)
[HKDF-Extract] + HMAC(33) + 2 HMAC(65) [HKDF-Expand, 76 bytes] + ChaCha20(P) + HMAC(32 + P)
[the MAC], P = calc_padded_len(L) + 2."""

# The libsecp256k1 floor rows (bench/ops_floor.c measures them once, as "libsecp256k1").
CURVE_ROWS = ("floor_keypair", "floor_sign", "floor_verify", "floor_ecdh")


def _nip44_prims(chacha, mac):
    return [("floor_hmac_sha256", 33, 1), ("floor_hmac_sha256", 65, 2),
            ("floor_chacha20", chacha, 1), ("floor_hmac_sha256", mac, 1)]


def _nip44_full(chacha, mac):
    return [("floor_ecdh", 32, 1), ("floor_hmac_sha256", 32, 1)] + _nip44_prims(chacha, mac)


_CURVE_WRAP = [("floor_keypair", 32, 1), ("floor_ecdh", 32, 2), ("floor_sign", 32, 2)]
_EVENT_VERIFY = [("floor_sha256", 121, 1), ("floor_verify", 32, 1)]

# (operation, bytes or None for any size, curve only, formula, parts: (floor row, bytes, count))
TABLE = [
    ("import_identity", None, False, "keypair", [("floor_keypair", 32, 1)]),
    ("sign_event", None, False, "SHA-256(121 B) + sign",
     [("floor_sha256", 121, 1), ("floor_sign", 32, 1)]),
    ("parse_verify_event", None, False, "SHA-256(121 B) + verify", _EVENT_VERIFY),
    ("verify_batch", None, False, "SHA-256(121 B) + verify, per event", _EVENT_VERIFY),
]
for _op in ("nip44_encrypt", "nip44_decrypt"):
    for _size, _p in ((32, 34), (1024, 1026), (64000, 65538)):
        TABLE.append((_op, _size, False, f"ECDH + 5 HMAC + ChaCha20({_p} B)",
                      _nip44_full(_p, _p + 32)))
for _op in ("nip44_encrypt_held", "nip44_decrypt_held"):
    for _size, _p in ((32, 34), (1024, 1026), (64000, 65538)):
        TABLE.append((_op, _size, False, f"4 HMAC + ChaCha20({_p} B)", _nip44_prims(_p, _p + 32)))
TABLE += [
    ("gift_wrap", None, True, "curve only: keypair + 2 ECDH + 2 sign", _CURVE_WRAP),
    ("nip17_message", None, True, "curve only: keypair + 2 ECDH + 2 sign", _CURVE_WRAP),
    ("unwrap", None, True, "curve only: 2 verify + 2 ECDH",
     [("floor_verify", 32, 2), ("floor_ecdh", 32, 2)]),
]
for _op in ("attachment_encrypt", "attachment_decrypt"):
    for _size, _name in ((64000, "64000 B"), (1048576, "1 MiB")):
        TABLE.append((_op, _size, False, f"AES-256-GCM + 2 SHA-256 ({_name})",
                      [("floor_aes256gcm", _size, 1), ("floor_sha256", _size, 2)]))


def _composition(op, bytes_):
    for c in TABLE:
        if c[0] == op and (c[1] is None or c[1] == bytes_):
            return c
    return None


def _fastest(rows, name, bytes_):
    """The fastest measured median of floor row (name, bytes) across backends, or None."""
    best = [r["median_ns"] for r in rows
            if r["floor"] and not r["failed"] and not r["unsupported"]
            and r["operation"] == name and r["bytes"] == bytes_]
    return min(best) if best else None


def floor_ns(rows, op, bytes_):
    """(ns, curve_only): the sum of the operation's parts at the fastest backend's median;
    ns is None when the operation has no floor or a part was not measured."""
    c = _composition(op, bytes_)
    if c is None:
        return None, False
    total = 0.0
    for name, size, count in c[4]:
        v = _fastest(rows, name, size)
        if v is None:
            return None, False
        total += v * count
    return total, c[2]


def uses_curve(op, bytes_):
    """Whether the operation makes libsecp256k1 calls: True when its composition has a curve
    part or it is not known here (the rumor's id is SHA-256 alone). A build against another
    libsecp256k1 runs the same code for an operation without curve calls, so a difference
    between the two builds there is noise."""
    c = _composition(op, bytes_)
    if c is None:
        return op != "nip59_rumor"
    return any(name in CURVE_ROWS for name, _, _ in c[4])


def formula(op, bytes_):
    c = _composition(op, bytes_)
    return c[3] if c else "-"
