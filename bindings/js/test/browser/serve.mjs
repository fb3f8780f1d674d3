// A static HTTP server on loopback for the browser tests and benchmarks: the package (its
// dist/ or an unpacked tarball) at /pkg/, the tests at /test/, the repo's vectors at
// /vectors/, and extra roots the caller names (the bundled peers, the benchmarks).
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.json': 'application/json', '.wasm': 'application/wasm', '.csv': 'text/csv', '.map': 'application/json',
};

/** roots: { '/pkg/': '/abs/dir', ... } (also single files: { '/peers.js': '/abs/file' }).
 *  Resolves to { url, close() }. */
export function serve(roots) {
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    for (const [prefix, dir] of Object.entries(roots)) {
      if (path === prefix || (prefix.endsWith('/') && path.startsWith(prefix))) {
        const rel = normalize(path.slice(prefix.length));
        const file = prefix.endsWith('/') ? join(dir, rel) : dir;
        if (rel.startsWith('..') || (prefix.endsWith('/') && !file.startsWith(dir + sep) && file !== dir)) break;
        try {
          const body = await readFile(file);
          res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
          res.end(body);
        } catch {
          res.writeHead(404).end();
        }
        return;
      }
    }
    res.writeHead(404).end();
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve({ url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => { server.closeAllConnections?.(); server.close(r); }) });
    });
  });
}
