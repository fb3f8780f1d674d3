// A consumer's first program against the installed tarball (plain ESM, Node): two people,
// one private message, a NIP-44 payload, an npub.
import { Softchat, SoftchatError } from 'softchat';

const sc = await Softchat.load();
const alice = sc.generateIdentity();
const bob = sc.generateIdentity();
const [toBob] = alice.sendMessage([{ pubkey: bob.publicKey, relay: 'wss://relay.example' }], 'hi Bob');
const msg = bob.receive(toBob.json);
if (msg.content !== 'hi Bob' || msg.sender !== alice.publicKeyHex) throw new Error('receive');
const payload = alice.nip44Encrypt(bob.publicKeyHex, 'secret');
if (bob.nip44Decrypt(alice.publicKey, payload) !== 'secret') throw new Error('nip44');
try {
  bob.receive(toBob.json.replace('"kind":1059', '"kind":1'));
  throw new Error('a changed wrap was accepted');
} catch (e) {
  if (!(e instanceof SoftchatError) || e.statusName !== 'SC_ERR_WRAP_KIND') throw e;
}
console.log(`esm example ok: ${sc.version} ${sc.backend} ${sc.nip19.npub(alice.publicKey).slice(0, 12)}...`);
alice.dispose();
bob.dispose();
