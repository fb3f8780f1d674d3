package org.softchat.jmh;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import javax.management.ObjectName;

/**
 * Objects and bytes allocated per call, exactly, in the JIT's steady state: each operation
 * runs in its own JVM under the Epsilon GC (which never collects, so every object allocated
 * stays in the heap), is warmed up, and the heap's class histogram (all objects, reachable or
 * not) is taken before and after N more calls; the difference, less that of an empty window
 * (the histogram's own objects), divided by N, is the per-call count. Bytes per call are the
 * thread's allocated bytes around the N calls (ThreadMXBean), as JMH's -prof gc reports them
 * under G1; this adds the object count.
 *
 *   java -cp benchmarks.jar org.softchat.jmh.AllocCount OUT.json [--quick]
 */
public final class AllocCount {
    private AllocCount() {}

    record Op(String name, String side, int bytes, Supplier<Supplier<Object>> make) {}

    static List<Op> ops() {
        List<Op> ops = new ArrayList<>();
        for (String side : new String[] {"softchat", "bouncycastle", "rust-nostr"}) {
            for (int n : new int[] {32, 1024, 64000}) {
                ops.add(new Op("nip44_encrypt", side, n, () -> new Sides.Nip44(side, n).encrypt));
                ops.add(new Op("nip44_decrypt", side, n, () -> new Sides.Nip44(side, n).decrypt));
                if (!side.equals("rust-nostr")) { // no held form in its binding
                    ops.add(new Op("nip44_encrypt_held", side, n, () -> new Sides.Nip44(side, n).encryptHeld));
                    ops.add(new Op("nip44_decrypt_held", side, n, () -> new Sides.Nip44(side, n).decryptHeld));
                }
            }
        }
        for (String side : new String[] {"softchat", "bc-acinq", "rust-nostr"}) {
            ops.add(new Op("import_identity", side, 32, () -> new Sides.Events(side).importIdentity));
            ops.add(new Op("sign_event", side, 32, () -> new Sides.Events(side).sign));
            ops.add(new Op("parse_verify_event", side, 374, () -> new Sides.Events(side).parseVerify));
        }
        ops.add(new Op("nip59_rumor", "softchat", 15, () -> new Sides.Messaging("softchat").rumor));
        for (String side : new String[] {"softchat", "rust-nostr"}) {
            ops.add(new Op("nip17_message", side, 15, () -> new Sides.Messaging(side).nip17Message));
            ops.add(new Op("gift_wrap", side, 15, () -> new Sides.Messaging(side).giftWrap));
            ops.add(new Op("unwrap", side, 15, () -> new Sides.Messaging(side).unwrap));
        }
        ops.add(new Op("attachment_encrypt", "softchat", 64000, () -> new Sides.Messaging("softchat").attachmentEncrypt));
        return ops;
    }

    private static long[] histogramTotals() throws Exception {
        Object out = ManagementFactory.getPlatformMBeanServer().invoke(
            new ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
            new Object[] {new String[] {"-all"}}, new String[] {String[].class.getName()});
        for (String line : out.toString().split("\n")) {
            String t = line.trim();
            if (t.startsWith("Total")) {
                String[] f = t.split("\\s+");
                return new long[] {Long.parseLong(f[1]), Long.parseLong(f[2])};
            }
        }
        throw new IllegalStateException("no histogram total");
    }

    /** Child mode: one operation; prints "objects bytes". */
    private static void child(String name, String side, int bytes, int warm, int n) throws Exception {
        Supplier<Object> op = null;
        for (Op o : ops()) {
            if (o.name.equals(name) && o.side.equals(side) && o.bytes == bytes) {
                op = o.make.get();
            }
        }
        if (op == null) {
            throw new IllegalArgumentException(name);
        }
        Object sinkHole = null;
        // warm up for `warm` calls or 3 s, whichever ends first (at least 100 calls), and time
        // the calls so the counted window lasts about a second (n at most, 50 at least)
        long t0 = System.nanoTime(), deadline = t0 + 3_000_000_000L;
        int done = 0;
        while (done < warm && (done < 100 || System.nanoTime() < deadline)) {
            sinkHole = op.get();
            done++;
        }
        double perCall = (System.nanoTime() - t0) / (double) done;
        n = (int) Math.max(50, Math.min(n, 1e9 / perCall));
        long[] e0 = histogramTotals();
        long[] e1 = histogramTotals(); // the histogram's own cost
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long[] a = histogramTotals();
        long ta = mx.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < n; i++) {
            sinkHole = op.get();
        }
        long tb = mx.getCurrentThreadAllocatedBytes();
        long[] b = histogramTotals();
        double objects = ((b[0] - a[0]) - (e1[0] - e0[0])) / (double) n;
        double bytesPer = (tb - ta) / (double) n; // this thread's allocations, exact
        if (System.getProperty("alloccount.debug") != null) {
            System.out.printf("empty %d %d, window %d %d%n", e1[0] - e0[0], e1[1] - e0[1], b[0] - a[0], b[1] - a[1]);
        }
        System.out.printf("%.2f %.1f %d %s%n", objects, bytesPer, n, sinkHole != null ? "ok" : "null");
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 6 && args[0].equals("--child")) {
            child(args[1], args[2], Integer.parseInt(args[3]), Integer.parseInt(args[4]), Integer.parseInt(args[5]));
            return;
        }
        if (args.length < 1) {
            System.err.println("usage: AllocCount OUT.json [--quick]");
            System.exit(2);
        }
        boolean quick = args.length > 1 && args[1].equals("--quick");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String cp = System.getProperty("java.class.path");
        Map<String, String> rows = new LinkedHashMap<>();
        for (Op o : ops()) {
            if (quick && (!o.name.startsWith("nip44") || o.bytes != 1024)) { // the smoke: NIP-44 at 1024 B
                continue;
            }
            boolean heavy = o.bytes == 64000 || o.name.startsWith("nip17") || o.name.startsWith("gift") || o.name.equals("unwrap");
            int warm = quick ? 2000 : heavy ? 6000 : 20000;
            int n = quick ? 500 : heavy ? 1000 : 5000;
            List<String> cmd = new ArrayList<>(List.of(java, "-XX:+UnlockExperimentalVMOptions", "-XX:+UseEpsilonGC",
                "-Xms64m", "-Xmx6g"));
            for (String p : new String[] {"softchat.jni.path", "softchat.vectors.dir"}) {
                if (System.getProperty(p) != null) {
                    cmd.add("-D" + p + "=" + System.getProperty(p));
                }
            }
            cmd.addAll(List.of("-cp", cp, AllocCount.class.getName(), "--child", o.name, o.side, Integer.toString(o.bytes),
                Integer.toString(warm), Integer.toString(n)));
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            int rc = p.waitFor();
            String last = out.isEmpty() ? "" : out.substring(out.lastIndexOf('\n') + 1);
            String[] f = last.split(" ");
            String key = String.format("{\"operation\":\"%s\",\"side\":\"%s\",\"bytes\":%d", o.name, o.side, o.bytes);
            if (rc == 0 && f.length == 4) {
                rows.put(key, String.format("%s,\"objects\":%s,\"bytes_allocated\":%s,\"calls\":%s}", key, f[0], f[1], f[2]));
                System.err.printf("  %-20s %-13s %6d B: %s objects, %s bytes per call%n", o.name, o.side, o.bytes, f[0], f[1]);
            } else {
                rows.put(key, key + ",\"failed\":true}");
                System.err.printf("  %-20s %-13s %6d B: failed (%s)%n", o.name, o.side, o.bytes, last);
            }
        }
        String json = "{\"schema\":\"softchat-jvm-alloc/1\",\"method\":\"Epsilon GC, class histogram -all before and after N calls after warm-up, less an empty window (objects); thread allocated bytes (bytes)\",\"rows\":[\n"
            + String.join(",\n", rows.values()) + "\n]}\n";
        Files.writeString(Path.of(args[0]), json);
    }
}
