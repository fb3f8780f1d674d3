#!/usr/bin/env bash
# Fetches the upstream (.orig) source of a Debian source package and unpacks it.
# Usage: scripts/fetch-debian-source.sh PACKAGE SUITE DESTDIR
#   e.g. scripts/fetch-debian-source.sh mbedtls trixie /tmp/src
# Looks PACKAGE up in SUITE's main/source/Sources.xz, downloads its .orig tarball (the plain
# tarball for a native package), checks the tarball's SHA-256 against the index and unpacks it
# into DESTDIR/PACKAGE-VERSION (upstream version). Prints that directory on stdout.
# Idempotent: the index is re-downloaded only when the mirror's copy is newer, and a tree
# already unpacked from the same tarball (same SHA-256) is reused as is.
# Needs bash, curl, xz, sha256sum, tar. Mirror: $DEBIAN_MIRROR (default deb.debian.org).
set -euo pipefail

if [ $# -ne 3 ]; then
  echo "usage: $0 PACKAGE SUITE DESTDIR" >&2
  exit 2
fi
pkg=$1
suite=$2
dest=$3
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

case "$pkg$suite" in
  */* | *..*) echo "fetch-debian-source: bad package or suite name" >&2; exit 2 ;;
esac
for tool in curl xz sha256sum tar; do
  command -v "$tool" >/dev/null 2>&1 || { echo "fetch-debian-source: needs $tool" >&2; exit 2; }
done

log() { echo "fetch-debian-source: $*" >&2; }

mkdir -p "$dest/.index"
index="$dest/.index/$suite-main-Sources.xz"

# -z: only download when the mirror's index is newer than the cached one.
tmp_index="$index.part"
if [ -f "$index" ]; then
  curl -fsSL --retry 3 -z "$index" -R -o "$tmp_index" "$mirror/dists/$suite/main/source/Sources.xz"
else
  curl -fsSL --retry 3 -R -o "$tmp_index" "$mirror/dists/$suite/main/source/Sources.xz"
fi
if [ -s "$tmp_index" ]; then
  xz -t "$tmp_index"
  mv -f "$tmp_index" "$index"
else
  rm -f "$tmp_index"
fi

# Every stanza of PACKAGE as "version directory sha256 size file" lines, one per tarball.
# Only .orig tarballs (or the tarball of a native package), never debian/ or component parts.
entries=$(xz -dc "$index" | awk -v pkg="$pkg" '
  function flush() {
    if (name == pkg) {
      for (i = 1; i <= n; i++) print ver, dir, files[i]
    }
    name = ""; ver = ""; dir = ""; n = 0; insha = 0
  }
  /^$/ { flush(); next }
  /^Package:/ { name = $2; next }
  /^Version:/ { ver = $2; next }
  /^Directory:/ { dir = $2; next }
  /^Checksums-Sha256:/ { insha = 1; next }
  /^[^ ]/ { insha = 0; next }
  insha && /^ / {
    f = $3
    if (f ~ /\.orig\.tar\.(gz|xz|bz2|lzma)$/ ||
        (f ~ /\.tar\.(gz|xz|bz2|lzma)$/ && f !~ /\.debian\.tar\./ && f !~ /\.orig-/))
      files[++n] = $1 " " $2 " " f
    next
  }
  END { flush() }')

if [ -z "$entries" ]; then
  log "no source package '$pkg' in $suite/main"
  exit 1
fi

# Several versions in one suite are rare; take the highest.
if command -v dpkg >/dev/null 2>&1; then
  best=""
  while read -r v _; do
    if [ -z "$best" ] || dpkg --compare-versions "$v" gt "$best"; then best=$v; fi
  done <<<"$entries"
else
  best=$(cut -d' ' -f1 <<<"$entries" | sort -V | tail -n1)
fi
line=$(awk -v v="$best" '$1 == v' <<<"$entries" | grep '\.orig\.tar\.' | head -n1 || true)
[ -n "$line" ] || line=$(awk -v v="$best" '$1 == v' <<<"$entries" | head -n1)
read -r version dir sha size file <<<"$line"

# Upstream version: drop the epoch and the Debian revision.
upstream=${version#*:}
upstream=${upstream%-*}
tree="$dest/$pkg-$upstream"
stamp="$tree/.debian-source-sha256"

if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$sha" ]; then
  log "$pkg $version already unpacked in $tree"
  echo "$tree"
  exit 0
fi

tarball="$dest/$file"
if ! { [ -f "$tarball" ] && echo "$sha  $tarball" | sha256sum -c --quiet - >/dev/null 2>&1; }; then
  log "downloading $file ($size bytes) from $suite"
  curl -fsSL --retry 3 -o "$tarball.part" "$mirror/$dir/$file"
  if ! echo "$sha  $tarball.part" | sha256sum -c --quiet - >/dev/null 2>&1; then
    rm -f "$tarball.part"
    log "SHA-256 mismatch for $file (index says $sha)"
    exit 1
  fi
  mv -f "$tarball.part" "$tarball"
fi

log "unpacking $file into $tree"
rm -rf "$tree.part"
mkdir -p "$tree.part"
tar -xf "$tarball" -C "$tree.part" --strip-components=1 --no-same-owner
echo "$sha" >"$tree.part/.debian-source-sha256"
rm -rf "$tree"
mv "$tree.part" "$tree"
echo "$tree"
