package org.softchat

import java.net.URI
import java.net.http.HttpClient
import java.net.http.WebSocket
import java.time.Duration
import java.util.concurrent.CompletableFuture
import java.util.concurrent.CompletionStage

/**
 * How [RelayPool] reaches relays: one WebSocket per relay. The pool never opens sockets
 * itself (the library is sans-IO); a transport does, and reports what happens on each
 * connection to its [Listener] from any thread. Apps on Android give the pool a transport
 * over the WebSocket client they ship (OkHttp's WebSocket maps onto these four calls one to
 * one); on a desktop JVM [JdkWebSocketTransport] needs nothing beyond the JDK.
 */
interface RelayTransport {
    /** What a connection reports; calls may come from any thread, one at a time per connection. */
    interface Listener {
        /** The WebSocket handshake completed. */
        fun onOpen()

        /** One whole text frame (a relay message). */
        fun onText(text: String)

        /** The connection closed or failed to open; nothing follows. */
        fun onClosed(reason: String)
    }

    /** An open or opening connection. */
    interface Connection {
        /** Queues a text frame (sends keep their order). */
        fun send(text: String)

        /** Closes the connection; [Listener.onClosed] follows. */
        fun close()
    }

    /** Starts opening a WebSocket to url (ws:// or wss://). */
    fun connect(url: String, listener: Listener): Connection
}

/**
 * A [RelayTransport] over java.net.http (JDK 11+; not on Android). Frames that arrive in
 * parts are joined; a text over [maxMessage] characters closes the connection (a relay
 * flooding the client) instead of growing without bound.
 */
class JdkWebSocketTransport @JvmOverloads constructor(
    private val client: HttpClient = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build(),
    private val maxMessage: Int = 2 shl 20,
) : RelayTransport {
    override fun connect(url: String, listener: RelayTransport.Listener): RelayTransport.Connection {
        val c = Conn(listener, maxMessage)
        client.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(10)).buildAsync(URI.create(url), c)
            .whenComplete { ws, e ->
                if (e != null) c.closed("connect failed: ${e.message}") else c.opened(ws)
            }
        return c
    }

    private class Conn(private val l: RelayTransport.Listener, private val max: Int) :
        RelayTransport.Connection, WebSocket.Listener {
        private val lock = Any()
        private var ws: WebSocket? = null
        private var tail: CompletableFuture<*> = CompletableFuture.completedFuture(null)
        private var ended = false
        private var wantClose = false
        private val part = StringBuilder()

        fun opened(w: WebSocket) {
            val close = synchronized(lock) {
                ws = w
                wantClose
            }
            if (close) w.abort()
        }

        fun closed(reason: String) {
            val first = synchronized(lock) {
                val f = !ended
                ended = true
                f
            }
            if (first) l.onClosed(reason)
        }

        override fun onOpen(webSocket: WebSocket) {
            // before buildAsync's future completes: sends from onOpen's listener need it now
            val close = synchronized(lock) {
                ws = webSocket
                wantClose
            }
            if (close) {
                webSocket.abort()
                return
            }
            webSocket.request(1)
            l.onOpen()
        }

        override fun onText(webSocket: WebSocket, data: CharSequence, last: Boolean): CompletionStage<*>? {
            if (part.length + data.length > max) {
                webSocket.abort()
                closed("a message over $max characters")
                return null
            }
            part.append(data)
            if (last) {
                val text = part.toString()
                part.setLength(0)
                l.onText(text)
            }
            webSocket.request(1)
            return null
        }

        override fun onClose(webSocket: WebSocket, statusCode: Int, reason: String): CompletionStage<*>? {
            closed("closed by the relay ($statusCode $reason)")
            return null
        }

        override fun onError(webSocket: WebSocket, error: Throwable) {
            closed("error: ${error.message}")
        }

        override fun send(text: String) {
            synchronized(lock) {
                val w = ws ?: return
                if (ended) return
                // java.net.http takes one send at a time: chain each on the one before
                tail = tail.handle { _, _ -> null }.thenCompose { w.sendText(text, true) }
            }
        }

        override fun close() {
            val w = synchronized(lock) {
                wantClose = true
                ws
            }
            w?.abort()
            closed("closed by the client")
        }
    }
}
