package org.softchat.jmh;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * NIP-44 v2 encrypt and decrypt with a held conversation key, at 32, 1024 and 64000 bytes,
 * for the sides that offer one (rust-nostr's binding takes keys only: Nip44Bench), with the
 * same keys and payload. The results are consumed by JMH (returned values go to its
 * Blackhole).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 3, jvmArgsAppend = {"-XX:+UseG1GC", "-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class Nip44HeldBench {
    @Param({"softchat", "bouncycastle"})
    public String side;

    @Param({"32", "1024", "64000"})
    public int bytes;

    private Sides.Nip44 s;

    @Setup
    public void setup() {
        s = new Sides.Nip44(side, bytes);
    }

    @Benchmark
    public Object nip44_encrypt_held() {
        return s.encryptHeld.get();
    }

    @Benchmark
    public Object nip44_decrypt_held() {
        return s.decryptHeld.get();
    }
}
