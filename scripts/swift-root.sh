#!/usr/bin/env bash
# Makes and enters the Debian trixie root the Swift package is built and tested in
# (bindings/swift). Debian 12 has no Swift; trixie's swiftlang (6.0.3: swift build, swift
# test, XCTest, Swift Testing, Foundation) needs trixie's C library, so it runs in a root of
# its own made by debootstrap from the Debian archive apt already uses (the first Debian URI in
# /etc/apt/sources.list*, or SOFTCHAT_DEBIAN_MIRROR), Debian packages only.
#
# The root lives in build/swift-root and is reused while its stamp (suite, mirror, package
# list) is unchanged; a changed list makes it anew. It is the minbase variant plus the
# packages below without their recommends.
#
# `run` enters it with chroot in a private mount namespace (unshare), so the mounts it makes
# (/proc, /dev, /sys, and this work tree bound at its own path, so paths match inside and
# out) vanish with the command and never outlive it. The command runs as root with a clean
# environment (PATH, HOME=/root, LANG, and the variables named in SOFTCHAT_ROOT_ENV) in the
# current directory, which must be inside the work tree.
#
# Usage: scripts/swift-root.sh make          make the root, or say it is reused
#        scripts/swift-root.sh run CMD...    make it if needed, then run CMD inside
#        scripts/swift-root.sh path          print the root's path
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
root=${SOFTCHAT_SWIFT_ROOT:-$top/build/swift-root}
suite=trixie
# swiftlang: the toolchain (its Depends bring gcc, binutils, libcurl, libxml2, python3's
# library); libc6-dev: the C library's headers and start files, which the Glibc module and
# the linker need (gcc only recommends it); pkgconf: SwiftPM finds libsoftchat through its
# pkg-config file; libssl-dev: libcrypto for the openssl backend libsoftchat is built with,
# and the libcrypto.pc that softchat.pc requires.
packages=(swiftlang libc6-dev pkgconf libssl-dev)

mirror() {
  if [ -n "${SOFTCHAT_DEBIAN_MIRROR:-}" ]; then
    echo "$SOFTCHAT_DEBIAN_MIRROR"
    return
  fi
  local m
  m=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources \
        2>/dev/null | grep -v '^[[:space:]]*#' |
      grep -oE '(https?)://[^[:space:]]+/debian/?([[:space:]]|$)' | head -1 | tr -d '[:space:]')
  [ -n "$m" ] || { echo "swift-root: no Debian mirror in /etc/apt (set SOFTCHAT_DEBIAN_MIRROR)" >&2; exit 2; }
  echo "${m%/}"
}

stamp_text() {
  printf 'suite %s\nmirror %s\nvariant minbase\npackages %s\n' "$suite" "$(mirror)" "${packages[*]}"
}

# Runs "$@" chrooted into the root ($1), with /proc, /dev, /sys and the work tree mounted in
# a mount namespace of its own.
enter() {
  local r=$1
  shift
  mkdir -p "$r$top"
  unshare --mount --propagation private -- /bin/bash -euc '
    r=$1 top=$2 dir=$3
    shift 3
    mount -t proc proc "$r/proc"
    mount --rbind /dev "$r/dev"
    mount --rbind /sys "$r/sys"
    mount --bind "$top" "$r$top"
    cp -L /etc/resolv.conf "$r/etc/resolv.conf" 2>/dev/null || true
    keep=(PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root
          LANG=C.UTF-8 TERM=dumb DEBIAN_FRONTEND=noninteractive)
    for v in ${SOFTCHAT_ROOT_ENV:-}; do
      [ -n "${!v+x}" ] && keep+=("$v=${!v}")
    done
    exec chroot "$r" /usr/bin/env -i "${keep[@]}" /bin/sh -c "cd \"\$0\" && exec \"\$@\"" "$dir" "$@"
  ' enter "$r" "$top" "$PWD" "$@"
}

make_root() {
  local want
  want=$(stamp_text)
  if [ -f "$root/.softchat-root" ] && [ "$(cat "$root/.softchat-root")" = "$want" ]; then
    echo "swift-root: reusing $root ($(du -sh "$root" 2>/dev/null | cut -f1))"
    return
  fi
  command -v debootstrap >/dev/null || { echo "swift-root: needs debootstrap (scripts/setup.sh --with-tools)" >&2; exit 2; }
  [ "$(id -u)" -eq 0 ] || { echo "swift-root: debootstrap and chroot need root" >&2; exit 2; }
  local t0 new=$root.new
  t0=$(date +%s)
  rm -rf "$new"
  mkdir -p "$(dirname "$root")"
  echo "swift-root: debootstrap --variant=minbase $suite from $(mirror)"
  debootstrap --variant=minbase --keyring=/usr/share/keyrings/debian-archive-keyring.gpg \
    "$suite" "$new" "$(mirror)" >"$root.log" 2>&1 || { tail -30 "$root.log" >&2; exit 1; }
  echo "swift-root: apt-get install --no-install-recommends ${packages[*]}"
  enter "$new" /bin/sh -c 'apt-get update -qq && apt-get install -y -qq --no-install-recommends "$@" && apt-get clean' \
    install "${packages[@]}" >>"$root.log" 2>&1 || { tail -30 "$root.log" >&2; exit 1; }
  rm -rf "$new/var/lib/apt/lists/"*
  echo "$want" >"$new/.softchat-root"
  rm -rf "$root"
  mv "$new" "$root"
  echo "swift-root: made $root in $(($(date +%s) - t0)) s ($(du -sh "$root" | cut -f1)); $(enter "$root" swift --version 2>&1 | head -1)"
}

case ${1:-} in
  make) make_root ;;
  path) echo "$root" ;;
  run)
    shift
    [ $# -gt 0 ] || { echo "usage: swift-root.sh run CMD..." >&2; exit 2; }
    case $PWD/ in "$top"/*) ;; *) echo "swift-root: run from inside $top" >&2; exit 2 ;; esac
    make_root >&2
    enter "$root" "$@"
    ;;
  *) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
esac
