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

/** What no peer here offers: a NIP-59 rumor and a 64000-byte attachment (the facade only). */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 3, jvmArgsAppend = {"-XX:+UseG1GC", "-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class FacadeBench {
    @Param({"softchat"})
    public String side;

    private Sides.Messaging s;

    @Setup
    public void setup() {
        s = new Sides.Messaging(side);
    }

    @Benchmark
    public Object nip59_rumor() {
        return s.rumor.get();
    }

    @Benchmark
    public Object attachment_encrypt_64000() {
        return s.attachmentEncrypt.get();
    }
}
