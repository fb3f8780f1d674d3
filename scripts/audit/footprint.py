"""Footprint of each build profile: libsoftchat.so, libsoftchat.a and the softchat CLI, each
unstripped and stripped, each raw and `gzip -n -9` compressed; for a cross build (a mobile
target), its shipped libraries as BUILD/dist holds them (libsoftchat.so, libsoftchat_jni.so:
dependencies linked in, stripped by the target's strip). One row per number:
(PROFILE, ARTIFACT, VARIANT, BYTES), VARIANT one of unstripped, stripped, unstripped.gz,
stripped.gz: the lines of footprint.tsv, which `softchat-bench compare --footprint` gates."""
import glob
import os
import shutil
import subprocess
import sys
import tempfile


def _gz(path):
    """The size of `gzip -n -9` of the file (GNU gzip's own deflate, as the gate's baselines)."""
    with open(path, "rb") as f:
        return len(subprocess.run(["gzip", "-n", "-9", "-c"], stdin=f, capture_output=True,
                                  check=True).stdout)


def _four(profile, artifact, unstripped, stripped):
    return [(profile, artifact, "unstripped", os.path.getsize(unstripped)),
            (profile, artifact, "stripped", os.path.getsize(stripped)),
            (profile, artifact, "unstripped.gz", _gz(unstripped)),
            (profile, artifact, "stripped.gz", _gz(stripped))]


def _measure(profile, artifact, path, mode, tmp):
    if not os.path.isfile(path):
        print(f"footprint: missing {path}", file=sys.stderr)
        return []
    stripped = os.path.join(tmp, "s")
    shutil.copyfile(path, stripped)
    subprocess.run(["strip", mode, stripped], check=True)
    return _four(profile, artifact, path, stripped)


def _cross(build_dir):
    try:
        with open(os.path.join(build_dir, "CMakeCache.txt"), encoding="utf-8") as f:
            cache = f.read()
    except OSError:
        return False
    return ("CMAKE_CROSSCOMPILING:INTERNAL=TRUE" in cache
            or "\nCMAKE_TOOLCHAIN_FILE:" in cache)


def measure(profiles):
    """profiles: [(name, build dir)]. Returns the rows."""
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, d in profiles:
            if _cross(d):  # cmake/SoftchatPlatform.cmake made BUILD/dist: the shipped libraries
                for f in sorted(glob.glob(os.path.join(d, "dist/unstripped/*.so*"))):
                    b = os.path.basename(f)
                    stripped = os.path.join(d, "dist", b)
                    if not os.path.isfile(stripped):
                        print(f"footprint: missing {stripped}", file=sys.stderr)
                        continue
                    rows += _four(name, b.split(".so")[0] + ".so", f, stripped)
                continue
            rows += _measure(name, "libsoftchat.so",
                             os.path.realpath(os.path.join(d, "core/libsoftchat.so")),
                             "--strip-unneeded", tmp)
            rows += _measure(name, "libsoftchat.a", os.path.join(d, "core/libsoftchat.a"),
                             "--strip-debug", tmp)
            rows += _measure(name, "softchat", os.path.join(d, "cli/softchat"),
                             "--strip-unneeded", tmp)
    return rows


def write_tsv(path, rows):
    with open(path, "w", encoding="utf-8") as f:
        for r in rows:
            f.write("\t".join(str(x) for x in r) + "\n")


def read_tsv(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            p = line.rstrip("\n").split("\t")
            if len(p) == 4 and p[3].lstrip("-").isdigit():
                rows.append((p[0], p[1], p[2], int(p[3])))
    return rows
