// Headless Chromium from Debian (/usr/bin/chromium) driven by playwright-core, with a fresh
// profile that is removed afterwards, and the peers bundled for the page.
import { chromium } from 'playwright-core';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** A browser context on a fresh --user-data-dir; close() ends the browser (and every process
 *  it started) and removes the profile. */
export async function launch() {
  const dir = await mkdtemp(join(tmpdir(), 'softchat-chromium-'));
  const ctx = await chromium.launchPersistentContext(dir, {
    executablePath: process.env.SOFTCHAT_CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: FLAGS,
  });
  return {
    ctx,
    async close() {
      try {
        await ctx.close();
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}

/** Bundles test/browser/peers.mjs (nostr-tools and nostr-wasm) into one ES module. */
export async function bundlePeers(pkgDir, outFile) {
  const esbuild = await import('esbuild');
  await esbuild.build({
    entryPoints: [join(pkgDir, 'test/browser/peers.mjs')], bundle: true, format: 'esm',
    platform: 'browser', outfile: outFile, logLevel: 'warning', absWorkingDir: pkgDir,
  });
}
