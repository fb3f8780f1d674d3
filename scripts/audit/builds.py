"""The builds of the audit, one table: each row a CMake build directory under build/, what it
is for, and what it needs. Adding a build is adding a row.

Roles:
  quick      the default configuration without tests: what the quick headline measures
  main       every backend, Release, with the test suites: the self-test, the conformance
             suites, the benchmark of every backend, the JVM section; also a footprint profile
  lane       another build of this library whose default backend is measured beside the main
             build's, process by process, and set beside the peers (label: how the report
             names it)
  footprint  a footprint profile only
"""
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, field

ALL_BACKENDS = "openssl;mbedtls;sodium;sodium+mbedtls"
_LEAN = ["-DSOFTCHAT_BUILD_TESTS=OFF", "-DSOFTCHAT_INSTALL=OFF"]
_ARM64 = "cmake/toolchains/aarch64-linux-gnu.cmake"
_ARM64_DEPS = "build/deps/aarch64-linux-gnu"


@dataclass
class Build:
    name: str  # build/NAME, and the footprint profile's name (see `profile`)
    role: str  # main, lane or footprint
    args: list  # CMake arguments after -DCMAKE_BUILD_TYPE=Release
    what: str  # for the report and the progress lines
    needs: object = None  # (src) -> None, or why it cannot be built here
    prepare: object = None  # (src, log) -> None: before configuring (sources, caches)
    profile: str = ""  # the footprint profile's name ("" : none)
    dir: str = field(default="", init=False)
    why: str = field(default=None, init=False)  # after build_all: why it is not there, or None

    def __post_init__(self):
        self.dir = f"build/{self.name}"


def _needs_cargo(src):
    if shutil.which("cargo") is None:
        return "cargo (rustup) is not available to fetch rust-nostr"
    r = subprocess.run(["cargo", "fetch", "--locked"], capture_output=True,
                       cwd=os.path.join(src, "bench/peers/rust-nostr"))
    return None if r.returncode == 0 else "cargo fetch --locked failed in bench/peers/rust-nostr"


def _needs_arm64(src):
    if shutil.which("aarch64-linux-gnu-gcc") is None:
        return "no aarch64-linux-gnu-gcc (scripts/setup.sh --with-tools)"
    return None


def _prepare_rust_secp(src, log):
    """The libsecp256k1 release rust-nostr bundles, reconstructed from its crate, and the
    options the crate builds it with (build/deps/secp256k1-rust.cmake)."""
    subprocess.run([os.path.join(src, "bench/peers/rust-nostr/secp256k1-tree.sh"),
                    os.path.join(src, "build/deps/secp256k1-rust")], cwd=src, check=True,
                   stdout=log, stderr=log)


_arm64_deps_done = []


def _prepare_arm64(src, log):
    """The dependencies from source for arm64, once."""
    if not _arm64_deps_done:
        subprocess.run([os.path.join(src, "scripts/deps.sh"), "--only", "secp256k1,mbedtls,sodium",
                        _ARM64, _ARM64_DEPS], cwd=src, check=True, stdout=log, stderr=log)
        _arm64_deps_done.append(True)


def _arm64(backends):
    name = "arm64-" + backends.replace(";", "+")
    deps = "$SRC/" + _ARM64_DEPS
    return Build(f"fp-{name}", "footprint",
                 [f"-DCMAKE_TOOLCHAIN_FILE=$SRC/{_ARM64}", f"-DCMAKE_PREFIX_PATH={deps}",
                  f"-DCMAKE_FIND_ROOT_PATH={deps}", "-DSOFTCHAT_SELF_CONTAINED=ON",
                  f"-DSOFTCHAT_BACKENDS={backends}", "-DSOFTCHAT_BUILD_TESTS=OFF",
                  "-DSOFTCHAT_BUILD_CLI=OFF", "-DSOFTCHAT_BUILD_BENCH=OFF",
                  "-DSOFTCHAT_INSTALL=OFF", "-DSOFTCHAT_BUILD_JNI=ON"],
                 f"the mobile artifact for arm64, {backends} (the aarch64-linux-gnu build standing "
                 "in for Android's arm64-v8a; dependencies from source linked in, stripped)",
                 needs=_needs_arm64, prepare=_prepare_arm64, profile=name)


BUILDS = [
    Build("release", "main", [f"-DSOFTCHAT_BACKENDS={ALL_BACKENDS}"],
          "every backend, with the test suites and softchat-bench", profile="all"),
    Build("quick", "quick",
          ["-DSOFTCHAT_BUILD_TESTS=OFF", "-DSOFTCHAT_BUILD_CLI=OFF", "-DSOFTCHAT_INSTALL=OFF",
           "-DSOFTCHAT_BUILD_JNI=OFF"],
          "the default build without tests, CLI or JNI: the library and softchat-bench"),
    Build("secp-rust", "lane",
          ["-C", "$SRC/build/deps/secp256k1-rust.cmake", "-DSOFTCHAT_BACKENDS=openssl",
           "-DSOFTCHAT_SECP256K1_SOURCE_DIR=$SRC/build/deps/secp256k1-rust"] + _LEAN,
          "against the libsecp256k1 release rust-nostr bundles, built with the crate's options "
          "(no assembly, -O3, its ecmult settings): like for like",
          needs=_needs_cargo, prepare=_prepare_rust_secp),
    Build("secp-system", "lane",
          ["-DSOFTCHAT_SECP256K1=system", "-DSOFTCHAT_BACKENDS=openssl"] + _LEAN,
          "against the system libsecp256k1 (Debian's package), as distributions build it"),
] + [
    Build(f"fp-{b}", "footprint",
          [f"-DSOFTCHAT_BACKENDS={b}", "-DSOFTCHAT_BUILD_BENCH=OFF"] + _LEAN,
          f"footprint profile {b}", profile=b) for b in ("openssl", "mbedtls", "sodium")
] + [_arm64(b) for b in ("psa", "mbedtls", "mbedtls;psa", "sodium")]


def build(src, b, log):
    """Configures and builds b (Release, Ninja). Raises CalledProcessError."""
    if b.prepare is not None:
        b.prepare(src, log)
    args = [a.replace("$SRC", src) for a in b.args]
    subprocess.run(["cmake", "-S", src, "-B", os.path.join(src, b.dir), "-G", "Ninja",
                    "-DCMAKE_BUILD_TYPE=Release"] + args, check=True, stdout=log, stderr=log)
    subprocess.run(["cmake", "--build", os.path.join(src, b.dir)], check=True, stdout=log,
                   stderr=log)


def build_all(src, wanted, skip_build, log_path):
    """Builds the rows of `wanted` that can be built here; sets each row's `why` (None, or
    why the build is not there). skip_build: use the directories as they are."""
    with open(log_path, "a") as log:
        for b in wanted:
            why = b.needs(src) if b.needs is not None else None
            if why is None and skip_build:
                ok = os.path.isfile(os.path.join(src, b.dir, "CMakeCache.txt"))
                why = None if ok else f"{b.dir} is not built (--no-build)"
            elif why is None:
                print(f"== build: {b.what} ({b.dir})", file=sys.stderr)
                try:
                    build(src, b, log)
                except subprocess.CalledProcessError as e:
                    why = f"the build failed ({' '.join(e.cmd[:2])} ...; log: {log_path})"
            if why is not None:
                print(f"== {b.dir} skipped: {why}", file=sys.stderr)
            b.why = why
