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

/** NIP-17 message (the receiver's wrap and the sender's copy), gift wrap and unwrap (16 wraps
 *  with fresh one-time keys in turn) for the facade and rust-nostr's binding. */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 3, jvmArgsAppend = {"-XX:+UseG1GC", "-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class MessagingBench {
    @Param({"softchat", "rust-nostr"})
    public String side;

    private Sides.Messaging s;

    @Setup
    public void setup() {
        s = new Sides.Messaging(side);
    }

    @Benchmark
    public Object nip17_message() {
        return s.nip17Message.get();
    }

    @Benchmark
    public Object gift_wrap() {
        return s.giftWrap.get();
    }

    @Benchmark
    public Object unwrap() {
        return s.unwrap.get();
    }
}
