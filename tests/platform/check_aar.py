#!/usr/bin/env python3
"""ctest platform.aar: the AAR that scripts/aar.sh assembles, checked as Android would use it.

    check_aar.py AAR CHECK_ELF ABI[:NEEDED_REGEX] [ABI...]

- the layout: AndroidManifest.xml, classes.jar, proguard.txt, R.txt, and for each ABI given
  jni/<ABI>/libsoftchat_jni.so, nothing else;
- each library (tests/platform/check_elf.sh): the ELF machine of its ABI, every LOAD segment
  16 KiB aligned, only Java_* and JNI_On* exported, and (with NEEDED_REGEX) no library needed
  beyond the C library (the dependencies are linked in);
- the jar and the libraries agree: every native method of classes.jar has its JNI function
  in every library, and every exported Java_* function has its native method;
- the consumer R8 rules keep every class that declares a native method, by a -keep rule
  whose class pattern covers it.
Reads the class files itself (no javap), so it needs only python3 and readelf.
"""
import os
import re
import struct
import subprocess
import sys
import tempfile
import zipfile

MACHINE = {"arm64-v8a": "AArch64", "armeabi-v7a": "ARM", "x86_64": "Advanced Micro Devices X86-64",
           "x86": "Intel 80386"}
ACC_NATIVE = 0x0100


def native_methods(class_bytes):
    """(class name with dots, [(method, descriptor)]) of the native methods of a class file."""
    b = class_bytes
    if b[:4] != b"\xca\xfe\xba\xbe":
        raise ValueError("not a class file")
    n = struct.unpack(">H", b[8:10])[0]
    pool = [None] * n
    i, k = 10, 1
    while k < n:
        tag = b[i]
        if tag == 1:
            ln = struct.unpack(">H", b[i + 1:i + 3])[0]
            pool[k] = b[i + 3:i + 3 + ln].decode("utf-8", "replace")
            i += 3 + ln
        elif tag in (7, 8, 16, 19, 20):
            pool[k] = ("ref", struct.unpack(">H", b[i + 1:i + 3])[0])
            i += 3
        elif tag == 15:
            i += 4
        elif tag in (3, 4, 9, 10, 11, 12, 17, 18):
            i += 5
        elif tag in (5, 6):
            i += 9
            k += 1
        else:
            raise ValueError("bad constant pool tag %d" % tag)
        k += 1
    this = pool[struct.unpack(">H", b[i + 2:i + 4])[0]]
    cname = pool[this[1]].replace("/", ".")
    i += 6
    n_if = struct.unpack(">H", b[i:i + 2])[0]
    i += 2 + 2 * n_if

    def members(i):
        cnt = struct.unpack(">H", b[i:i + 2])[0]
        i += 2
        out = []
        for _ in range(cnt):
            acc, nm, desc, nattr = struct.unpack(">HHHH", b[i:i + 8])
            i += 8
            for _ in range(nattr):
                ln = struct.unpack(">I", b[i + 2:i + 6])[0]
                i += 6 + ln
            out.append((acc, pool[nm], pool[desc]))
        return i, out

    i, _fields = members(i)
    i, methods = members(i)
    return cname, [(m, d) for acc, m, d in methods if acc & ACC_NATIVE]


def mangle(s):
    out = []
    for ch in s:
        if ch == ".":
            out.append("_")
        elif ch == "_":
            out.append("_1")
        elif ch == ";":
            out.append("_2")
        elif ch == "[":
            out.append("_3")
        elif ch.isalnum() and ord(ch) < 128:
            out.append(ch)
        else:
            out.append("_0%04x" % ord(ch))
    return "".join(out)


def rule_patterns(rules):
    """Class patterns of the -keep rules (as regular expressions over dotted names)."""
    pats = []
    for m in re.finditer(r"^-keep\S*\s+(?:[,\w]+\s+)*?(?:class|interface|enum)\s+([\w.*$]+)",
                         rules, re.M):
        p = m.group(1)
        if p == "*":
            continue  # the generic native-method rule: checked separately below
        rx = re.escape(p).replace(r"\*\*", ".+").replace(r"\*", "[^.]+")
        pats.append(re.compile("^" + rx + "$"))
    return pats


def main():
    if len(sys.argv) < 4:
        print(__doc__)
        return 2
    aar, check_elf, abis = sys.argv[1], sys.argv[2], sys.argv[3:]
    fails = []
    with zipfile.ZipFile(aar) as z:
        names = sorted(n for n in z.namelist() if not n.endswith("/"))
        want = {"AndroidManifest.xml", "classes.jar", "proguard.txt", "R.txt"}
        want |= {"jni/%s/libsoftchat_jni.so" % a.split(":")[0] for a in abis}
        if set(names) != want:
            fails.append("layout: has %s, expected %s" % (sorted(set(names) - want) or "-",
                                                          sorted(want - set(names)) or "-"))
        else:
            print("ok   layout: " + " ".join(names))
        tmp = tempfile.mkdtemp()
        z.extractall(tmp)
        rules = z.read("proguard.txt").decode() if "proguard.txt" in names else ""
        manifest = z.read("AndroidManifest.xml").decode() if "AndroidManifest.xml" in names else ""
    if 'android:minSdkVersion="24"' not in manifest:
        fails.append("AndroidManifest.xml: no minSdkVersion 24")

    natives = {}
    with zipfile.ZipFile(os.path.join(tmp, "classes.jar")) as jar:
        for n in jar.namelist():
            if n.endswith(".class"):
                cname, ms = native_methods(jar.read(n))
                if ms:
                    natives[cname] = ms
    expected = set()
    for cname, ms in natives.items():
        for m, _ in ms:
            expected.add("Java_" + mangle(cname) + "_" + mangle(m))
    print("ok   classes.jar: %d native methods in %d classes" % (len(expected), len(natives)))
    if not expected:
        fails.append("classes.jar declares no native method")

    pats = rule_patterns(rules)
    generic = re.search(r"-keepclasseswithmembernames[^{]*class \*\s*\{\s*native <methods>;", rules)
    for cname in sorted(natives):
        if not any(p.match(cname) for p in pats):
            fails.append("proguard.txt: no -keep rule covers %s (it has native methods)" % cname)
    if not generic:
        fails.append("proguard.txt: no rule keeping native methods (-keepclasseswithmembernames)")
    if not fails:
        print("ok   proguard.txt keeps the native methods and every class that declares one")

    for a in abis:
        abi, _, needed = a.partition(":")
        so = os.path.join(tmp, "jni", abi, "libsoftchat_jni.so")
        if not os.path.exists(so):
            continue
        cmd = ["sh", check_elf, "--align", "16384", "--exports", "^(Java_|JNI_On)",
               "--machine", MACHINE[abi]]
        if needed:
            cmd += ["--needed", needed]
        r = subprocess.run(cmd + [so], capture_output=True, text=True)
        sys.stdout.write(r.stdout.replace(tmp + "/", ""))
        if r.returncode != 0:
            fails.append("%s: the ELF checks failed" % abi)
        out = subprocess.run(["readelf", "--dyn-syms", "-W", so], capture_output=True,
                             text=True).stdout
        syms = set()
        for line in out.splitlines():
            f = line.split()
            if len(f) >= 8 and f[6] != "UND" and f[7].startswith("Java_"):
                syms.add(f[7].split("@")[0])
        plain = {s.split("__")[0] if "__" in s else s for s in syms}
        missing = sorted(expected - plain)
        extra = sorted(plain - expected)
        if missing:
            fails.append("%s: native methods without a JNI function: %s" % (abi, missing))
        if extra:
            fails.append("%s: JNI functions without a native method: %s" % (abi, extra))
        if not missing and not extra:
            print("ok   %s: the %d JNI functions match classes.jar's native methods" %
                  (abi, len(plain)))
    for f in fails:
        print("FAIL " + f)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
