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

/** Identity import, event signing (32 bytes of content) and parse+verify (374-byte events by
 *  16 authors in turn) for the facade, the baseline and rust-nostr's binding. */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 3, jvmArgsAppend = {"-XX:+UseG1GC", "-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class EventBench {
    @Param({"softchat", "bc-acinq", "rust-nostr"})
    public String side;

    private Sides.Events s;

    @Setup
    public void setup() {
        s = new Sides.Events(side);
    }

    @Benchmark
    public Object import_identity() {
        return s.importIdentity.get();
    }

    @Benchmark
    public Object sign_event() {
        return s.sign.get();
    }

    @Benchmark
    public Object parse_verify_event() {
        return s.parseVerify.get();
    }
}
