package org.softchat

import java.io.File
import java.io.InputStream
import java.io.OutputStream
import java.net.InetSocketAddress
import java.net.ServerSocket
import java.net.Socket
import java.security.MessageDigest
import java.util.Base64

/**
 * Relays for the pool's tests, on loopback: the two real ones the ctest suite starts
 * (tests/relay/live: rust-nostr's relay builder and nostr-relay from PyPI, built or installed
 * by the relay.live.setup.* fixtures into the test tools directory, -Dsoftchat.test.tools),
 * restartable on the same port; and [HostileRelay], a WebSocket endpoint in this JVM that
 * says what a test tells it to.
 */
object TestRelays {
    private val tools = File(System.getProperty("softchat.test.tools") ?: "../../../build/test-tools")

    fun rustRelay(): File = File(tools, "relays/release/softchat-test-relay").also {
        check(it.canExecute()) { "no $it: build it with ctest -R relay.live.setup.rust (scripts/test.sh does)" }
    }

    fun pythonRelay(): File = File(tools, "relays/venv/bin/nostr-relay").also {
        check(it.canExecute()) { "no $it: install it with ctest -R relay.live.setup.python (scripts/test.sh does)" }
    }

    fun freePort(): Int = ServerSocket(0).use { it.localPort }

    /** One relay process, restartable on its port; [stop] ends it and everything it spawned. */
    class Process(private val kind: String, val port: Int, private val dir: File, private val extra: List<String> = emptyList()) {
        private var p: java.lang.Process? = null
        val url = "ws://127.0.0.1:$port"

        fun start() {
            val argv = if (kind == "rust") {
                listOf(rustRelay().path, "--port", port.toString()) + extra
            } else {
                val cfg = File(dir, "nostr-relay-$port.yaml")
                cfg.writeText(pythonConfig(File(dir, "nostr-relay-$port.sqlite3"), port))
                listOf(pythonRelay().path, "-c", cfg.path, "serve")
            }
            p = ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(File(dir, "relay-$kind-$port.log")).start()
            val deadline = System.nanoTime() + 30_000_000_000L
            while (System.nanoTime() < deadline) {
                try {
                    Socket("127.0.0.1", port).close()
                    return
                } catch (_: Exception) {
                    Thread.sleep(50)
                }
            }
            stop()
            error("$kind relay did not listen on $port")
        }

        fun stop() {
            val q = p ?: return
            q.descendants().forEach { it.destroyForcibly() }
            q.destroyForcibly()
            q.waitFor()
            p = null
        }
    }

    private fun pythonConfig(db: File, port: Int) = listOf(
        "DEBUG: false",
        "relay_name: softchat test relay",
        "storage:",
        "  sqlalchemy.url: sqlite+aiosqlite:///${db.path}",
        "  num_concurrent_reqs: 10",
        "  num_concurrent_adds: 2",
        "  validators:",
        "    - nostr_relay.validators.is_not_too_large",
        "    - nostr_relay.validators.is_signed",
        "gunicorn:",
        "  bind: 127.0.0.1:$port",
        "  workers: 1",
        "  loglevel: warning",
        "  reload: false",
        "authentication:",
        "  enabled: false",
        "message_timeout: 1800",
        "subscription_limit: 32",
        "max_limit: 20000",
    ).joinToString("\n") + "\n"
}

/**
 * A relay that follows a script: it accepts WebSocket connections on loopback, hands each
 * client text frame to [onMessage] and sends what that returns. Enough of RFC 6455 for one
 * client: the handshake, masked client frames, unmasked server frames, no fragmentation.
 */
class HostileRelay(private val onMessage: (String, (String) -> Unit) -> Unit) : AutoCloseable {
    private val server = ServerSocket().apply { bind(InetSocketAddress("127.0.0.1", 0)) }
    val url = "ws://127.0.0.1:${server.localPort}"
    private val sockets = java.util.concurrent.CopyOnWriteArrayList<Socket>()
    private val thread = Thread({
        while (!server.isClosed) {
            val s = try { server.accept() } catch (_: Exception) { break }
            sockets.add(s)
            Thread({ serve(s) }, "hostile-relay-conn").apply { isDaemon = true }.start()
        }
    }, "hostile-relay").apply { isDaemon = true; start() }

    private fun serve(s: Socket) {
        try {
            val input = s.getInputStream()
            val out = s.getOutputStream()
            val head = StringBuilder()
            while (!head.endsWith("\r\n\r\n")) head.append(input.read().also { check(it >= 0) }.toChar())
            val key = head.lines().first { it.lowercase().startsWith("sec-websocket-key:") }.substringAfter(':').trim()
            val accept = Base64.getEncoder().encodeToString(
                MessageDigest.getInstance("SHA-1").digest((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").toByteArray()),
            )
            out.write("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: $accept\r\n\r\n".toByteArray())
            out.flush()
            val send: (String) -> Unit = { text -> synchronized(out) { frame(out, text.toByteArray()) } }
            while (true) {
                val msg = read(input) ?: break
                onMessage(msg, send)
            }
        } catch (_: Exception) {
            // the client went away
        } finally {
            s.close()
        }
    }

    private fun read(input: InputStream): String? {
        val b0 = input.read()
        if (b0 < 0 || b0 and 0x0f == 8) return null
        val b1 = input.read()
        var len = (b1 and 0x7f).toLong()
        if (len == 126L) len = ((input.read() shl 8) or input.read()).toLong()
        if (len == 127L) len = (0 until 8).fold(0L) { a, _ -> (a shl 8) or input.read().toLong() }
        val mask = if (b1 and 0x80 != 0) ByteArray(4) { input.read().toByte() } else null
        val data = input.readNBytes(len.toInt())
        if (mask != null) for (i in data.indices) data[i] = (data[i].toInt() xor mask[i % 4].toInt()).toByte()
        return if (b0 and 0x0f == 1) String(data, Charsets.UTF_8) else ""
    }

    private fun frame(out: OutputStream, data: ByteArray) {
        out.write(0x81)
        when {
            data.size < 126 -> out.write(data.size)
            data.size < 65536 -> { out.write(126); out.write(data.size shr 8); out.write(data.size and 0xff) }
            else -> { out.write(127); for (i in 7 downTo 0) out.write(((data.size.toLong() shr (8 * i)) and 0xff).toInt()) }
        }
        out.write(data)
        out.flush()
    }

    override fun close() {
        server.close()
        sockets.forEach { runCatching { it.close() } }
        thread.join(2000)
    }
}
