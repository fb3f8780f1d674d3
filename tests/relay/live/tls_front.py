"""TLS for the relay tests (tests/relay/live/live.py, tests/relay/live/hostile.py): a test CA
and certificates made at run time with the openssl command, and a TLS-terminating front that
puts a relay on loopback behind wss://. Python standard library only.

    path = make_certs(tmp)                       # path("ca.pem"), path("good.pem"), ...
    front = TlsFront(relay_port, path("good.pem"), path("good.key"))
    front.url                                     # wss://127.0.0.1:PORT
    front.stop()

good.pem names localhost and 127.0.0.1, wronghost.pem only example.org (both under the test
CA); self.pem is self-signed for localhost and 127.0.0.1."""

import asyncio
import os
import ssl
import subprocess
import threading


def make_certs(tmp):
    d = os.path.join(tmp, "tls")
    os.makedirs(d, exist_ok=True)

    def openssl(*args):
        r = subprocess.run(["openssl"] + list(args), cwd=d, capture_output=True, timeout=60)
        assert r.returncode == 0, r.stderr.decode()

    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
    openssl("req", "-x509", *ec, "-keyout", "ca.key", "-out", "ca.pem", "-days", "2",
            "-subj", "/CN=softchat test CA", "-addext", "basicConstraints=critical,CA:TRUE",
            "-addext", "keyUsage=critical,keyCertSign,cRLSign")
    for name, san in (("good", "DNS:localhost,IP:127.0.0.1"), ("wronghost", "DNS:example.org")):
        with open(os.path.join(d, name + ".ext"), "w") as f:
            f.write("subjectAltName=%s\nbasicConstraints=CA:FALSE\n"
                    "extendedKeyUsage=serverAuth\n" % san)
        openssl("req", *ec, "-keyout", name + ".key", "-out", name + ".csr",
                "-subj", "/CN=%s" % san.split(",")[0][4:])
        openssl("x509", "-req", "-in", name + ".csr", "-CA", "ca.pem", "-CAkey", "ca.key",
                "-CAcreateserial", "-out", name + ".pem", "-days", "2", "-extfile", name + ".ext")
    openssl("req", "-x509", *ec, "-keyout", "self.key", "-out", "self.pem", "-days", "2",
            "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1")
    return lambda name: os.path.join(d, name)


def server_context(cert, key):
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(cert, key)
    return ctx


class TlsFront:
    """wss:// on a port of its own for the plain relay on upstream_port (its own asyncio loop
    in a daemon thread; every connection closed by stop())."""

    def __init__(self, upstream_port, cert, key):
        self.upstream = upstream_port
        self.ctx = server_context(cert, key)
        self.loop = asyncio.new_event_loop()
        self.tasks = set()
        started = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(started,), daemon=True)
        self.thread.start()
        started.wait(10)
        self.url = "wss://127.0.0.1:%d" % self.port

    def _run(self, started):
        asyncio.set_event_loop(self.loop)
        self.server = self.loop.run_until_complete(
            asyncio.start_server(self._serve, "127.0.0.1", 0, ssl=self.ctx))
        self.port = self.server.sockets[0].getsockname()[1]
        started.set()
        self.loop.run_forever()

    async def _serve(self, reader, writer):
        task = asyncio.current_task()
        self.tasks.add(task)
        up_w = None
        try:
            up_r, up_w = await asyncio.open_connection("127.0.0.1", self.upstream)

            async def pipe(src, dst):
                while True:
                    data = await src.read(65536)
                    if not data:
                        break
                    dst.write(data)
                    await dst.drain()
                dst.close()

            await asyncio.gather(pipe(reader, up_w), pipe(up_r, writer))
        except (ConnectionError, OSError, asyncio.CancelledError):
            pass
        finally:
            self.tasks.discard(task)
            for w in (writer, up_w):
                if w is not None:
                    try:
                        w.close()
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
