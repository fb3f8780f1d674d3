"""Lanes: the programs softchat-bench measures beside this build's backends, process by
process (softchat-bench run --lanes FILE): the peers (bench/peers/NAME/run.sh --prepare prints
their lanes) and other builds of this library (their softchat-bench worker)."""
import os
import re
import subprocess

from report import Peer
import records

# The peers the audit sets beside us, in the order the report lists them.
PEERS = ("nostr-tools", "rust-nostr")

# The operations of the comparison: those the peers implement too (a peer answers
# "unsupported" for the rest of them it lacks), and the cache-warm rows.
COMPARED = ("import_identity", "nip44_encrypt", "nip44_decrypt", "nip44_encrypt_held",
            "nip44_decrypt_held", "sign_event", "parse_verify_event", "nip59_rumor",
            "nip17_message", "gift_wrap", "unwrap", "verify_batch", "nip44_encrypt_warm",
            "nip44_decrypt_warm", "nip17_message_warm", "gift_wrap_warm", "unwrap_warm")

# The quick headline's: the shared operations, without the cache-warm rows and verify_batch
# (a thousand verifications a call, the slowest row, and not one nostr-tools has); its lanes
# leave nostr-tools' wasm configuration out (it has 4 of these operations).
QUICK = ("import_identity", "nip44_encrypt", "nip44_decrypt", "nip44_encrypt_held",
         "nip44_decrypt_held", "sign_event", "parse_verify_event", "nip59_rumor",
         "nip17_message", "gift_wrap", "unwrap")
QUICK_LEAVE_OUT = ("nostr-tools-wasm",)
QUICK_PEERS = ("rust-nostr", "nostr-tools")


def _last_line(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = [x.rstrip("\n") for x in f if x.strip()]
    except OSError:
        return "see the log"
    return lines[-1] if lines else "see the log"


def prepare_peer(src, name, out_dir):
    """Installs or builds peer `name` (its run.sh --prepare: its record without results into
    OUT/peers/NAME.meta.json, its output into OUT/peers/NAME.log). Returns (Peer, lanes:
    [(label, argv)]); a peer that cannot be prepared is reported (Peer.ok False), not fatal."""
    meta = os.path.join(out_dir, "peers", f"{name}.meta.json")
    log = os.path.join(out_dir, "peers", f"{name}.log")
    os.makedirs(os.path.dirname(meta), exist_ok=True)
    with open(log, "w") as lf:
        p = subprocess.run([os.path.join(src, "bench/peers", name, "run.sh"), "--prepare", meta],
                           stdout=subprocess.PIPE, stderr=lf, text=True)
    lanes = [parse(line) for line in p.stdout.splitlines() if "\t" in line]
    peer = Peer(name)
    if p.returncode != 0 or not lanes:
        peer.failure = f"could not be installed or run ({_last_line(log)[:400]}; log: {log})"
        return peer, []
    try:
        peer.doc = records.load(meta)
    except (OSError, ValueError) as e:
        peer.failure = f"its description: {e}"
        return peer, []
    peer.doc.pop("results", None)
    peer.ok = True
    return peer, lanes


def parse(line):
    """(label, argv) from a lane line: LABEL TAB COMMAND TAB ARGS..."""
    parts = line.rstrip("\r\n").split("\t")
    return parts[0], parts[1:]


def build_lane(src, build_dir, backend):
    """The lane of another build's softchat-bench, labelled BACKEND@libsecp256k1-VERSION
    with the libsecp256k1 release it links (its --version). Returns (label, argv, version)
    or raises OSError with the reason."""
    exe = os.path.join(src, build_dir, "bench/softchat-bench")
    if not os.access(exe, os.X_OK):
        raise OSError(f"{build_dir}/bench/softchat-bench is not there")
    out = subprocess.run([exe, "--version"], capture_output=True, text=True).stdout
    # "softchat-bench 1.1.0 (libsecp256k1 0.4.1)"
    m = re.search(r"\(libsecp256k1 ([^ )\n]*)", out)
    secp = m.group(1) if m else "unknown"
    return f"{backend}@libsecp256k1-{secp}", [exe, "worker", backend, "op"], secp


def write_file(path, lanes):
    """The lanes file softchat-bench run --lanes reads."""
    with open(path, "w", encoding="utf-8") as f:
        for label, argv in lanes:
            f.write("\t".join([label] + list(argv)) + "\n")


def cache_options(build_dir):
    """How a build's libsecp256k1 was built, from its CMakeCache."""
    keys = ("SECP256K1_ASM", "SECP256K1_ECMULT_WINDOW_SIZE", "SECP256K1_ECMULT_GEN_PREC_BITS",
            "SECP256K1_VALGRIND", "SOFTCHAT_SECP256K1_C_FLAGS")
    out = []
    try:
        with open(os.path.join(build_dir, "CMakeCache.txt"), encoding="utf-8") as f:
            for line in f:
                line = line.rstrip("\n")
                for k in keys:
                    if line.startswith(k + ":") and "=" in line:
                        out.append(f"{k}={line.split('=', 1)[1]}")
    except OSError:
        pass
    return ", ".join(out)
