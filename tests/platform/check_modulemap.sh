#!/bin/sh
# ctest platform.modulemap and platform.ios-headers: the installed header layout (the public
# headers and bindings/apple/module.modulemap in include/softchat/), checked by clang as an
# Apple toolchain would read it:
#   check_modulemap.sh CLANG SOURCE_DIR WORK_DIR [--ios]
#   - every public header compiles alone (C99, -Wall -Wextra -Werror -pedantic);
#   - the module CSoftchat builds from the map with -fmodules and
#     -fmodules-local-submodule-visibility (a header that is not self-contained fails) and
#     -Werror=incomplete-umbrella (a header the umbrella leaves out fails);
#   - a C file importing it (#pragma clang module import), a plain #include that clang turns
#     into a module import (-Rmodule-import), and Objective-C's @import;
#   --ios: the headers and the module compiled freestanding for arm64-apple-ios14.0 into a
#     Mach-O object (no iOS SDK here: only <stddef.h> and <stdint.h>, which are clang's own).
# Linux's C library is not modular, so this checks our headers, not their fit with Apple's SDK.
set -eu
clang=$1
src=$2
work=$3
ios=${4:-}
rm -rf "$work"
mkdir -p "$work/include/softchat" "$work/mc"
cp "$src"/api/softchat/*.h "$work/include/softchat/"
cp "$src/bindings/apple/module.modulemap" "$work/include/softchat/"
inc="$work/include"
strict="-fmodules -fmodules-cache-path=$work/mc -Xclang -fmodules-local-submodule-visibility -Werror=incomplete-umbrella -Werror"

if [ "$ios" = "--ios" ]; then
  t="--target=arm64-apple-ios14.0 -ffreestanding"
  printf '#include <softchat/softchat.h>\nint f(void);\nint f(void) { return (int)sizeof(sc_ctx) + SC_VERSION_MAJOR; }\n' >"$work/use_ios.c"
  # shellcheck disable=SC2086
  "$clang" $t -std=c99 -Wall -Wextra -Werror -I"$inc" -c "$work/use_ios.c" -o "$work/use_ios.o"
  # shellcheck disable=SC2086
  "$clang" $t $strict -I"$inc" -c "$work/use_ios.c" -o "$work/use_ios_mod.o"
  for o in use_ios.o use_ios_mod.o; do
    magic=$(od -An -tx1 -N4 "$work/$o" | tr -d ' \n')
    [ "$magic" = "cffaedfe" ] || { echo "FAIL $o is not a 64-bit Mach-O object (magic $magic)"; exit 1; }
  done
  echo "ok   public headers and the module compile for arm64-apple-ios14.0 (Mach-O arm64 objects)"
  exit 0
fi

n=0
for h in "$inc"/softchat/*.h; do
  b=$(basename "$h")
  printf '#include <softchat/%s>\n' "$b" | "$clang" -x c -std=c99 -Wall -Wextra -Werror -pedantic \
    -fsyntax-only -I"$inc" - || { echo "FAIL softchat/$b does not compile alone"; exit 1; }
  n=$((n + 1))
done
echo "ok   each of the $n public headers compiles alone"

# shellcheck disable=SC2086
"$clang" -x c $strict -Xclang -emit-module -fmodule-name=CSoftchat -c \
  "$inc/softchat/module.modulemap" -I"$inc" -o "$work/CSoftchat.pcm"
echo "ok   module CSoftchat builds (local submodule visibility, complete umbrella)"

printf '#pragma clang module import CSoftchat\nint f(void);\nint f(void) { sc_ctx c; (void)c; return SC_OK; }\n' >"$work/use.c"
# shellcheck disable=SC2086
"$clang" $strict -fsyntax-only -fmodule-map-file="$inc/softchat/module.modulemap" -I"$inc" "$work/use.c"
printf '#include <softchat/softchat.h>\nint f(void);\nint f(void) { return SC_OK; }\n' >"$work/use_inc.c"
# shellcheck disable=SC2086
"$clang" $strict -fsyntax-only -I"$inc" -Rmodule-import "$work/use_inc.c" 2>"$work/remarks.txt"
grep -q "importing module 'CSoftchat'" "$work/remarks.txt" ||
  { cat "$work/remarks.txt"; echo "FAIL #include <softchat/softchat.h> did not become a module import"; exit 1; }
printf '@import CSoftchat;\nint f(void);\nint f(void) { return SC_OK; }\n' >"$work/use.m"
# shellcheck disable=SC2086
"$clang" $strict -fsyntax-only -I"$inc" "$work/use.m"
echo "ok   imported from C (#pragma clang module import, #include) and Objective-C (@import)"

# The check catches what it must: a header outside the umbrella, a header that is not
# self-contained.
mkdir -p "$work/bad/softchat"
cp "$inc"/softchat/* "$work/bad/softchat/"
printf '#ifndef X_H\n#define X_H\nint sc_extra(void);\n#endif\n' >"$work/bad/softchat/extra.h"
# shellcheck disable=SC2086
if "$clang" -x c $strict -Xclang -emit-module -fmodule-name=CSoftchat -c \
     "$work/bad/softchat/module.modulemap" -I"$work/bad" -o "$work/bad.pcm" 2>/dev/null; then
  echo "FAIL a header left out of the umbrella was not caught"; exit 1
fi
rm "$work/bad/softchat/extra.h"
sed -i 's/#include <stdint.h>//' "$work/bad/softchat/"*.h
# shellcheck disable=SC2086
if "$clang" -x c $strict -Xclang -emit-module -fmodule-name=CSoftchat -c \
     "$work/bad/softchat/module.modulemap" -I"$work/bad" -o "$work/bad.pcm" 2>/dev/null; then
  echo "FAIL a header that is not self-contained was not caught"; exit 1
fi
echo "ok   self-check: an incomplete umbrella and a header missing <stdint.h> both fail"
