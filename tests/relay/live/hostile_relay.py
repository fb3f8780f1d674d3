"""A scripted relay on loopback for the hostile-relay tests (tests/relay/live/hostile.py): the
server side of RFC 6455 written out frame by frame, so a test can send what no honest relay
sends (masked frames, redirects, floods, huge or malformed messages) and see exactly what the
client sent. Python standard library only; TLS through the ssl module.

    relay = ScriptedRelay(script)          # script(conn) is a coroutine run per connection
    relay = ScriptedRelay(script, tls=ssl_context, handshake=fn)
    relay.url, relay.port, relay.requests  # the HTTP requests seen (headers, lowercase keys)
    relay.stop()

The server runs its own asyncio loop in a daemon thread; every connection's task is
cancelled and every socket closed by stop()."""

import asyncio
import base64
import hashlib
import json
import os
import struct
import threading

GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


class Closed(Exception):
    """The client closed the connection (or it dropped)."""


class Conn:
    """One client connection, after the handshake."""

    def __init__(self, relay, reader, writer, request):
        self.relay, self.r, self.w, self.request = relay, reader, writer, request

    async def _frame(self):
        try:
            h = await self.r.readexactly(2)
            n = h[1] & 0x7F
            if n == 126:
                n = struct.unpack("!H", await self.r.readexactly(2))[0]
            elif n == 127:
                n = struct.unpack("!Q", await self.r.readexactly(8))[0]
            key = await self.r.readexactly(4) if h[1] & 0x80 else None
            data = await self.r.readexactly(n)
        except (asyncio.IncompleteReadError, ConnectionError):
            raise Closed()
        if key is not None and n > 0:
            mask = (key * (n // 4 + 1))[:n]
            data = (int.from_bytes(data, "big") ^ int.from_bytes(mask, "big")).to_bytes(n, "big")
        return h[0] & 0x80, h[0] & 0x0F, data

    async def recv(self):
        """The next text or binary message of the client (pings answered); Closed at the end."""
        parts = []
        while True:
            fin, op, data = await self._frame()
            if op == 8:
                raise Closed()
            if op == 9:
                await self.send_frame(data, opcode=10)
                continue
            if op == 10:
                continue
            parts.append(data)
            if fin:
                return b"".join(parts).decode("utf-8", "replace")

    async def recv_json(self):
        while True:
            text = await self.recv()
            try:
                return json.loads(text)
            except ValueError:
                continue

    def frame(self, payload, opcode=1, fin=True, masked=False):
        """The bytes of one server frame."""
        n = len(payload)
        head = bytes([(0x80 if fin else 0) | opcode])
        mbit = 0x80 if masked else 0
        if n < 126:
            head += bytes([mbit | n])
        elif n < 65536:
            head += bytes([mbit | 126]) + struct.pack("!H", n)
        else:
            head += bytes([mbit | 127]) + struct.pack("!Q", n)
        if masked:
            key = os.urandom(4)
            mask = (key * (n // 4 + 1))[:n]
            body = (int.from_bytes(payload, "big") ^ int.from_bytes(mask, "big")).to_bytes(n, "big") \
                if n else b""
            return head + key + body
        return head + payload

    async def send_raw(self, data):
        try:
            self.w.write(data)
            await self.w.drain()
        except (ConnectionError, RuntimeError):
            raise Closed()

    async def send_frame(self, payload, opcode=1, fin=True, masked=False):
        await self.send_raw(self.frame(payload, opcode, fin, masked))

    async def send(self, msg, masked=False):
        """A JSON value (or a str / bytes as they are) in one text frame."""
        if isinstance(msg, (list, dict)):
            msg = json.dumps(msg)
        if isinstance(msg, str):
            msg = msg.encode()
        await self.send_frame(msg, masked=masked)

    def close(self):
        try:
            self.w.close()
        except RuntimeError:
            pass


class ScriptedRelay:
    def __init__(self, script, tls=None, handshake=None, host="127.0.0.1"):
        """script(conn): the relay's side of one connection. handshake(request): the bytes to
        answer the HTTP request with instead of the upgrade (then the connection closes), or
        None for the upgrade."""
        self.script, self.tls, self.handshake = script, tls, handshake
        self.requests = []
        self.connections = 0
        self.host = host
        self.tasks = set()
        self.loop = asyncio.new_event_loop()
        started = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(started,), daemon=True)
        self.thread.start()
        started.wait(10)
        self.url = "%s://%s:%d" % ("wss" if tls else "ws", host, self.port)

    def _run(self, started):
        asyncio.set_event_loop(self.loop)
        self.server = self.loop.run_until_complete(
            asyncio.start_server(self._serve, "127.0.0.1", 0, ssl=self.tls, limit=1 << 20))
        self.port = self.server.sockets[0].getsockname()[1]
        started.set()
        self.loop.run_forever()

    async def _serve(self, reader, writer):
        task = asyncio.current_task()
        self.tasks.add(task)
        self.connections += 1
        try:
            head = b""
            while b"\r\n\r\n" not in head:
                chunk = await reader.read(4096)
                if not chunk or len(head) > 65536:
                    return
                head += chunk
            lines = head.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
            req = {"line": lines[0]}
            for line in lines[1:]:
                k, _, v = line.partition(":")
                req[k.strip().lower()] = v.strip()
            self.requests.append(req)
            if self.handshake is not None:
                answer = self.handshake(req)
                if answer is not None:
                    writer.write(answer)
                    await writer.drain()
                    return
            acc = base64.b64encode(hashlib.sha1(req.get("sec-websocket-key", "").encode() +
                                                GUID).digest())
            writer.write(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                         b"Connection: Upgrade\r\nSec-WebSocket-Accept: " + acc + b"\r\n\r\n")
            await writer.drain()
            await self.script(Conn(self, reader, writer, req))
        except (Closed, ConnectionError, asyncio.IncompleteReadError):
            pass
        except asyncio.CancelledError:
            pass
        finally:
            self.tasks.discard(task)
            try:
                writer.close()
            except RuntimeError:
                pass

    def stop(self):
        async def shutdown():
            self.server.close()
            for t in list(self.tasks):
                t.cancel()
            await asyncio.sleep(0)

        if self.loop.is_running():
            asyncio.run_coroutine_threadsafe(shutdown(), self.loop).result(10)
            self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


# ---- NIP-77 Negentropy messages (protocol version 1) ------------------------------------------

def varint(n):
    out = [n & 0x7F]
    n >>= 7
    while n:
        out.append(0x80 | (n & 0x7F))
        n >>= 7
    return bytes(reversed(out))


def neg_id_list(ids, bound_ts=None, prev_ts=0):
    """One IdList range up to bound_ts (None: infinity), as its bytes."""
    ts = 0 if bound_ts is None else 1 + bound_ts - prev_ts
    return varint(ts) + varint(0) + varint(2) + varint(len(ids)) + b"".join(ids)


def neg_fingerprint(fp, bound_ts=None, prev_ts=0):
    ts = 0 if bound_ts is None else 1 + bound_ts - prev_ts
    return varint(ts) + varint(0) + varint(1) + fp
