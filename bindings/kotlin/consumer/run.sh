#!/usr/bin/env bash
# The consumer test: the facade as a user of a Maven or Gradle build gets it.
#   bindings/kotlin/consumer/run.sh [--prefetch]
# 1. the jar Maven built (bindings/kotlin/softchat/target/softchat-kotlin-VERSION.jar) is
#    installed into an empty local repository with `install:install-file` and nothing but the
#    jar (the POM inside it is read): it must name no parent;
# 2. a separate project (consumer/maven, copied out of the tree) is built against that
#    repository and its test runs the example with no softchat.jni.path: the jar must load
#    the native library it carries (checked against its SHA-256);
# 3. scripts/aar.sh assembles the AAR and its POM (org.softchat:softchat-android, with the
#    jar's linux-x86_64 library standing in for Android's x86_64), which are installed the
#    same way and resolved by type aar with their dependencies (consumer/android), as
#    Gradle's Android plugin resolves them; tests/platform/check_aar.py checks the result.
# Third-party artifacts (Kotlin, JUnit, Maven's plugins) come from SOFTCHAT_M2 (default
# build/m2), used as the remote repository: nothing is downloaded, and nothing of this
# project is found there. --prefetch first resolves the plugins the steps call into
# SOFTCHAT_M2 from Maven Central (bindings/kotlin/mvn.sh passes it on its online run).
# Gradle is not run: no Gradle that runs on JDK 17 installs here (Debian 12 has 4.4.1; Gradle's
# distributions are not on Maven Central); docs/bindings.md shows the Gradle lines.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
kotlin=$(cd "$here/.." && pwd)
root=$(cd "$kotlin/../.." && pwd)
m2=${SOFTCHAT_M2:-$root/build/m2}
version=$(sed -n 's/^project(softchat VERSION \([0-9.]*\).*/\1/p' "$root/CMakeLists.txt")
jar=$kotlin/softchat/target/softchat-kotlin-$version.jar
install_plugin=org.apache.maven.plugins:maven-install-plugin:3.1.3
dependency_plugin=org.apache.maven.plugins:maven-dependency-plugin:3.8.1
[ -f "$jar" ] || { echo "consumer: no $jar (bindings/kotlin/mvn.sh package builds it)" >&2; exit 2; }

if [ "${1:-}" = --prefetch ]; then
  mvn -B -ntp -q -Dmaven.repo.local="$m2" -f "$here/maven/pom.xml" "$install_plugin:help" "$dependency_plugin:help" >/dev/null
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
repo=$work/repo
mkdir -p "$repo"
cat >"$work/settings.xml" <<XML
<settings><mirrors><mirror><id>third-party</id><mirrorOf>*</mirrorOf>
<url>file://$m2</url></mirror></mirrors></settings>
XML
mvnc() { mvn -B -ntp -s "$work/settings.xml" -Dmaven.repo.local="$repo" "$@"; }
fail() { echo "consumer: FAIL $*" >&2; exit 1; }

echo "consumer: 1. install-file $jar into an empty repository"
# (into files first: grep -q ending a pipe early would fail unzip under pipefail)
unzip -p "$jar" "META-INF/maven/org.softchat/softchat-kotlin/pom.xml" >"$work/pom.xml"
unzip -l "$jar" >"$work/entries"
! grep -q '<parent>' "$work/pom.xml" || fail "the jar's POM names a parent"
grep -q 'org/softchat/native/linux-x86_64/libsoftchat_jni.so.sha256' "$work/entries" ||
  fail "the jar carries no linux-x86_64 library with its digest"
(cd "$work" && mvnc -q "$install_plugin:install-file" -Dfile="$jar")
ls "$repo/org/softchat/softchat-kotlin/$version/softchat-kotlin-$version.pom" >/dev/null
[ "$(ls "$repo/org/softchat")" = softchat-kotlin ] || fail "more than the facade was installed"

echo "consumer: 2. a separate project built against it (mvn verify; the example runs in its test)"
cp -r "$here/maven" "$work/app"
mvnc -f "$work/app/pom.xml" verify >"$work/app.log" 2>&1 || {
  tail -40 "$work/app.log" >&2; fail "the consumer project did not build"; }
grep -E 'Tests run:' "$work/app.log" | tail -1
[ -f "$work/app/target/softchat-consumer-1.jar" ] || fail "the consumer project produced no jar"

echo "consumer: 3. the AAR and its POM, installed and resolved by type aar"
unzip -p "$jar" org/softchat/native/linux-x86_64/libsoftchat_jni.so >"$work/libsoftchat_jni.so"
"$root/scripts/aar.sh" --jar "$jar" --out "$work/softchat-android-$version.aar" \
  --pom "$work/softchat-android-$version.pom" "x86_64=$work/libsoftchat_jni.so"
(cd "$work" && mvnc -q "$install_plugin:install-file" -Dfile="$work/softchat-android-$version.aar" \
  -DpomFile="$work/softchat-android-$version.pom")
cp -r "$here/android" "$work/android"
mvnc -q -f "$work/android/pom.xml" "$dependency_plugin:copy-dependencies" -DoutputDirectory="$work/deps"
ls "$work/deps/softchat-android-$version.aar" "$work/deps"/kotlin-stdlib-*.jar >/dev/null ||
  fail "the AAR or its dependencies did not resolve"
python3 "$root/tests/platform/check_aar.py" "$work/deps/softchat-android-$version.aar" \
  "$root/tests/platform/check_elf.sh" x86_64
echo "consumer: passed (Maven: jar, POM, native library, AAR; Gradle: not run, see the header)"
