#!/usr/bin/env bash
# Builds CSoftchat.xcframework: libsoftchat as one static library per Apple platform slice,
# with its dependencies from source merged in, the public headers and module.modulemap
# (import CSoftchat from Swift). Needs macOS with Xcode (xcodebuild, libtool, lipo) and CMake.
# The Swift package (bindings/swift/Package.swift) uses it as its binary target CSoftchat on
# Apple platforms: `bindings/apple/xcframework.sh bindings/swift` puts it where the package
# looks for it.
# NOT RUN on the project's machines: there is no Xcode or Apple SDK there (docs/platforms.md
# says what is checked instead: the module map and a freestanding arm64-apple-ios compile; the
# same Swift package built and tested on Linux against the same headers).
# Usage: bindings/apple/xcframework.sh OUT_DIR [BACKENDS]   (default backends: mbedtls;psa)
set -euo pipefail
out=${1:?usage: xcframework.sh OUT_DIR [BACKENDS]}
backends=${2:-mbedtls;psa}
src=$(cd "$(dirname "$0")/../.." && pwd)
work="$src/build/apple"
mkdir -p "$work" "$out"
# slice: CMAKE_SYSTEM_NAME, sysroot, architectures, deployment target
slices=(
  "ios-arm64 iOS iphoneos arm64 14.0"
  "ios-sim iOS iphonesimulator arm64;x86_64 14.0"
  "macos Darwin macosx arm64;x86_64 11.0"
)
rm -rf "$work/headers"
mkdir -p "$work/headers/softchat"
cp "$src"/api/softchat/*.h "$work/headers/softchat/"
# Xcode looks for the module map at the root of an XCFramework's headers: the same map, its
# umbrella named from there (#include <softchat/softchat.h> keeps working), without its
# `link "softchat"`: Xcode and SwiftPM link the XCFramework's library themselves, and an
# autolink of -lsoftchat would name a library no search path holds.
sed -e 's|umbrella header "softchat.h"|umbrella header "softchat/softchat.h"|' -e '/^[[:space:]]*link "softchat"/d' \
  "$src/bindings/apple/module.modulemap" >"$work/headers/module.modulemap"
if ! grep -q 'umbrella header "softchat/softchat.h"' "$work/headers/module.modulemap" ||
   grep -q 'link "softchat"' "$work/headers/module.modulemap"; then
  echo "xcframework: bindings/apple/module.modulemap changed shape; update the sed above" >&2
  exit 1
fi
libs=()
for s in "${slices[@]}"; do
  read -r name system sdk archs target <<<"$s"
  tc="$work/$name.toolchain.cmake"
  cat >"$tc" <<TC
set(CMAKE_SYSTEM_NAME $system)
set(CMAKE_OSX_SYSROOT $sdk)
set(CMAKE_OSX_ARCHITECTURES "$archs")
set(CMAKE_OSX_DEPLOYMENT_TARGET $target)
TC
  deps="$work/deps-$name"
  # libsodium's autotools build takes one architecture at a time: build the crypto the
  # library links (mbed TLS, libsecp256k1) with CMake, which handles both at once.
  "$src/scripts/deps.sh" --only secp256k1,mbedtls "$tc" "$deps"
  b="$work/build-$name"
  cmake -S "$src" -B "$b" -G Ninja -DCMAKE_TOOLCHAIN_FILE="$tc" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_PREFIX_PATH="$deps" -DCMAKE_FIND_ROOT_PATH="$deps" -DSOFTCHAT_BACKENDS="$backends" \
    -DSOFTCHAT_SECP256K1=system -DSOFTCHAT_SELF_CONTAINED=ON \
    -DSOFTCHAT_BUILD_TESTS=OFF -DSOFTCHAT_BUILD_CLI=OFF -DSOFTCHAT_BUILD_BENCH=OFF \
    -DSOFTCHAT_BUILD_JNI=OFF -DSOFTCHAT_INSTALL=OFF
  cmake --build "$b" --target softchat_static
  # one archive per slice: libsoftchat.a with libmbedcrypto.a and libsecp256k1.a merged in
  mkdir -p "$b/xcframework"
  libtool -static -o "$b/xcframework/libsoftchat.a" "$b/core/libsoftchat.a" \
    "$deps/lib/libmbedcrypto.a" "$deps/lib/libsecp256k1.a"
  libs+=(-library "$b/xcframework/libsoftchat.a" -headers "$work/headers")
done
rm -rf "$out/CSoftchat.xcframework"
xcodebuild -create-xcframework "${libs[@]}" -output "$out/CSoftchat.xcframework"
echo "xcframework: $out/CSoftchat.xcframework"
