// The PyPI nostr-relay on loopback for the end-to-end tests (the relay tests/relay/live runs;
// tests/relay/live/setup.sh installs it): SQLite in a temporary directory, one worker.
// Its output goes to a log in that directory (shown when it fails to start). stop() ends it
// and every process it spawned (its process group), then removes the files.
import { spawn } from 'node:child_process';
import { openSync, closeSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function freePort() {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = s.address().port;
      s.close(() => resolve(p));
    });
  });
}

function listening(port) {
  return new Promise((resolve) => {
    const c = connect(port, '127.0.0.1', () => { c.destroy(); resolve(true); });
    c.on('error', () => resolve(false));
  });
}

export async function startRelay(bin) {
  const dir = await mkdtemp(join(tmpdir(), 'softchat-relay-'));
  const port = await freePort();
  const cfg = join(dir, 'nostr-relay.yaml');
  await writeFile(cfg, [
    'DEBUG: false', 'relay_name: softchat web test relay', 'storage:',
    `  sqlalchemy.url: sqlite+aiosqlite:///${join(dir, 'db.sqlite3')}`,
    '  num_concurrent_reqs: 10', '  num_concurrent_adds: 2', '  validators:',
    '    - nostr_relay.validators.is_not_too_large', '    - nostr_relay.validators.is_signed',
    'gunicorn:', `  bind: 127.0.0.1:${port}`, '  workers: 1', '  loglevel: warning', '  reload: false',
    'authentication:', '  enabled: false', 'subscription_limit: 32', '',
  ].join('\n'));
  const logFile = join(dir, 'relay.log');
  const log = openSync(logFile, 'w');
  const p = spawn(bin, ['-c', cfg, 'serve'], { stdio: ['ignore', log, log], detached: true });
  closeSync(log);
  const stop = async () => {
    try { process.kill(-p.pid, 'SIGTERM'); } catch { /* gone */ }
    const gone = new Promise((r) => (p.exitCode !== null ? r() : p.once('exit', r)));
    await Promise.race([gone, new Promise((r) => setTimeout(r, 5000))]);
    try { process.kill(-p.pid, 'SIGKILL'); } catch { /* gone */ }
    await rm(dir, { recursive: true, force: true });
  };
  for (let i = 0; i < 300; i++) {
    if (await listening(port)) return { url: `ws://127.0.0.1:${port}`, stop };
    if (p.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const text = readFileSync(logFile, 'utf8');
  await stop();
  throw new Error(`nostr-relay did not listen on ${port}:\n${text}`);
}
