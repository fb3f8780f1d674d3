// Independent AES-256-GCM reference for the file suite (tests/file/test_file_ref.c):
//   node gcm_ref.mjs OUTDIR SEED
// Writes, for each size and IV length, a plaintext, the blob ciphertext || 16-byte tag made by
// node's built-in crypto (OpenSSL inside node, not the library under test), and a manifest
// with key, IV, x = sha256(blob) and ox = sha256(plaintext). Inputs derive from SEED so a
// failing run can be repeated. Node's standard library only.
import { createCipheriv, createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [outDir, seedText] = process.argv.slice(2);
if (!outDir || !seedText || !/^[0-9]+$/.test(seedText)) {
  console.error('usage: node gcm_ref.mjs OUTDIR SEED');
  process.exit(2);
}

const sizes = [0, 1, 15, 16, 17, 4095, 4096, 65536 + 3, 1 << 20, 3 * (1 << 20) + 7];
const MIB = 1 << 20;

function derive(label, n) {
  const out = Buffer.alloc(n);
  for (let off = 0, i = 0; off < n; i++) {
    const h = createHash('sha256').update(`${seedText}/${label}/${i}`).digest();
    off += h.copy(out, off);
  }
  return out;
}

// A plaintext of n bytes: AES-256-CTR keystream under a seed-derived key (fast for MiBs).
function plaintext(label, n) {
  const ctr = createCipheriv('aes-256-ctr', derive(`${label}/ptkey`, 32), Buffer.alloc(16));
  return Buffer.concat([ctr.update(Buffer.alloc(n)), ctr.final()]);
}

function seal(key, iv, pt) {
  const c = createCipheriv('aes-256-gcm', key, iv, { authTagLength: 16 });
  const parts = [];
  for (let off = 0; off < pt.length; off += MIB) {
    parts.push(c.update(pt.subarray(off, Math.min(off + MIB, pt.length))));
  }
  parts.push(c.final());
  parts.push(c.getAuthTag());
  return Buffer.concat(parts);
}

const sha256 = (b) => createHash('sha256').update(b).digest('hex');

mkdirSync(outDir, { recursive: true });
const cases = [];
function emit(name, size, iv, encrypt, note) {
  const key = derive(`${name}/key`, 32);
  const pt = plaintext(name, size);
  const blob = seal(key, iv, pt);
  writeFileSync(join(outDir, `${name}.pt`), pt);
  writeFileSync(join(outDir, `${name}.blob`), blob);
  cases.push({
    name, note, size, encrypt,
    key: key.toString('hex'), iv: iv.toString('hex'),
    pt: `${name}.pt`, blob: `${name}.blob`,
    blob_size: blob.length, x: sha256(blob), ox: sha256(pt),
  });
}

for (const ivLen of [12, 16]) {
  for (const size of sizes) {
    const name = `n${size}-iv${ivLen}`;
    emit(name, size, derive(`${name}/iv`, ivLen), true, `${size}-byte plaintext, ${ivLen}-byte IV`);
  }
}
// The legacy reading of a decryption-nonce: the 32 ASCII bytes of the hex text as the IV.
// The library only decrypts these (it never emits them).
for (const size of [0, 17, 65536 + 3]) {
  const name = `n${size}-legacy`;
  const hexText = derive(`${name}/iv`, 16).toString('hex');
  const note = `${size}-byte plaintext, legacy 32-byte IV`;
  emit(name, size, Buffer.from(hexText, 'ascii'), false, note);
}

writeFileSync(join(outDir, 'manifest.json'), JSON.stringify({
  generator: `node ${process.version} crypto aes-256-gcm (OpenSSL ${process.versions.openssl})`,
  seed: seedText,
  cases,
}, null, 1));
