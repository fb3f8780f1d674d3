#!/usr/bin/env python3
"""ctest platform.aar: the AAR that scripts/aar.sh assembles, checked as Android would use it.

    check_aar.py AAR CHECK_ELF ABI[:NEEDED_REGEX] [ABI...]

- the layout: AndroidManifest.xml (minSdk 24), classes.jar, proguard.txt, R.txt, and for each
  ABI given jni/<ABI>/libsoftchat_jni.so, nothing else;
- each library (tests/platform/check_elf.sh): the ELF machine of its ABI, every LOAD segment
  16 KiB aligned, only JNI_OnLoad and JNI_OnUnload exported (the natives are registered by
  JNI_OnLoad, never found by name), and (with NEEDED_REGEX) no library needed beyond the C
  library (the dependencies are linked in);
- the jar and the libraries agree: JNI_OnLoad registers by name and descriptor, so every
  native method of classes.jar has both strings in every library, every method descriptor
  the library holds belongs to a method of classes.jar, and every class the library looks
  up (org/softchat/...) is in classes.jar;
- proguard.txt is the jar's own META-INF/proguard/softchat.pro, and its -keep rules keep
  every class the library looks up and the native methods of every class that has some;
- classes.jar carries none of the desktop libraries of the facade's jar (org/softchat/native/):
  an app loads jni/<ABI>/ from its APK.
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


def class_methods(class_bytes):
    """(class name with dots, [(access flags, method, descriptor)]) of a class file."""
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
    return cname, methods


def rules_keeping(rules):
    """[(class pattern as a regular expression over dotted names, rule body)] of -keep rules."""
    out = []
    for m in re.finditer(r"^-keep\S*\s+(?:[,\w]+\s+)*?(?:class|interface|enum)\s+([\w.*$]+)"
                         r"\s*(\{[^}]*\})?", rules, re.M):
        rx = re.escape(m.group(1)).replace(r"\*\*", ".+").replace(r"\*", "[^.]+")
        out.append((re.compile("^" + rx + "$"), m.group(2) or ""))
    return out


def cstrings(data, rx):
    """The NUL-terminated strings of a file matching rx (bytes), decoded."""
    return {m.group(1).decode() for m in re.finditer(rb"(?<![\x21-\x7e])(" + rx + rb")\x00", data)}


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

    natives = {}      # class -> [(method, descriptor)]
    classes = set()   # every class of the jar, slashed (as FindClass names them)
    descriptors = set()
    with zipfile.ZipFile(os.path.join(tmp, "classes.jar")) as jar:
        jar_rules = None
        for n in jar.namelist():
            if n.startswith("org/softchat/native/") and not n.endswith("/"):
                fails.append("classes.jar carries a desktop library: " + n)
            if n == "META-INF/proguard/softchat.pro":
                jar_rules = jar.read(n).decode()
            if n.endswith(".class"):
                cname, ms = class_methods(jar.read(n))
                classes.add(cname.replace(".", "/"))
                descriptors |= {d for _, _, d in ms}
                nat = [(m, d) for acc, m, d in ms if acc & ACC_NATIVE]
                if nat:
                    natives[cname] = nat
    count = sum(len(v) for v in natives.values())
    print("ok   classes.jar: %d classes, %d native methods in %s" %
          (len(classes), count, ", ".join(sorted(natives)) or "none"))
    if not count:
        fails.append("classes.jar declares no native method")
    if jar_rules is None:
        fails.append("classes.jar has no META-INF/proguard/softchat.pro")
    elif jar_rules != rules:
        fails.append("proguard.txt differs from the jar's META-INF/proguard/softchat.pro")

    keeps = rules_keeping(rules)
    rule_fails = []
    for cname in sorted(natives):
        if not any(p.match(cname) and "native <methods>" in body for p, body in keeps):
            rule_fails.append("proguard.txt: no -keep rule keeps the native methods of %s" % cname)

    looked_up = set()
    for a in abis:
        abi, _, needed = a.partition(":")
        so = os.path.join(tmp, "jni", abi, "libsoftchat_jni.so")
        if not os.path.exists(so):
            continue
        cmd = ["sh", check_elf, "--align", "16384", "--exports", "^JNI_On(Load|Unload)$",
               "--machine", MACHINE[abi]]
        if needed:
            cmd += ["--needed", needed]
        r = subprocess.run(cmd + [so], capture_output=True, text=True)
        sys.stdout.write(r.stdout.replace(tmp + "/", ""))
        if r.returncode != 0:
            fails.append("%s: the ELF checks failed" % abi)
        with open(so, "rb") as f:
            data = f.read()
        missing = sorted("%s.%s%s" % (c, m, d) for c, ms in natives.items() for m, d in ms
                         if (m.encode() + b"\0") not in data or (d.encode() + b"\0") not in data)
        if missing:
            fails.append("%s: native methods the library does not register: %s" % (abi, missing))
        held = cstrings(data, rb"\([\w/$;\[]*\)[\w/$;\[]+")
        stale = sorted(held - descriptors)
        if stale:
            fails.append("%s: method descriptors no method of classes.jar has: %s" % (abi, stale))
        refs = cstrings(data, rb"org/softchat/[\w/$]+")
        looked_up |= refs
        unknown = sorted(refs - classes)
        if unknown:
            fails.append("%s: classes looked up that classes.jar lacks: %s" % (abi, unknown))
        if not missing and not stale and not unknown:
            print("ok   %s: registers all %d native methods; its %d descriptors and %d classes "
                  "(%s) are classes.jar's" % (abi, count, len(held), len(refs), ", ".join(sorted(refs))))
    for c in sorted(looked_up):
        dotted = c.replace("/", ".")
        if not any(p.match(dotted) for p, _ in keeps):
            rule_fails.append("proguard.txt: no -keep rule keeps %s (native code looks it up)" % dotted)
    if not rule_fails:
        print("ok   proguard.txt keeps every native method and every class the library looks up")
    fails += rule_fails
    for f in fails:
        print("FAIL " + f)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
