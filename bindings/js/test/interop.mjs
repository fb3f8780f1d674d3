// Interop with nostr-tools 2.25 both ways, in one runtime (a Chromium page, and Node): its
// NIP-44 payloads, events and gift wraps (NIP-59 and NIP-17) open with ours and ours with
// its. nt: { pure, nip44, nip59, nip17 } from nostr-tools (test/browser/peers.mjs bundles
// them for the page).
import { eq, hex, ok, same, unhex } from './cases.mjs';

export function interop(sc, nt) {
  const list = [];
  const t = (name, fn) => list.push([name, fn]);
  const keys = () => {
    const sk = nt.pure.generateSecretKey();
    const id = sc.importIdentity(sk);
    return { sk, id, pub: nt.pure.getPublicKey(sk) };
  };

  t('interop: NIP-44 payloads both ways', () => {
    const a = keys();
    const b = keys();
    eq(a.id.publicKeyHex, a.pub, 'public keys agree');
    const ck = nt.nip44.v2.utils.getConversationKey(a.sk, b.pub);
    for (const text of ['hi', 'ü✓🦄', 'x'.repeat(65535)]) {
      eq(nt.nip44.v2.decrypt(a.id.nip44Encrypt(b.pub, text), ck), text, 'theirs reads ours');
      eq(b.id.nip44Decrypt(a.pub, nt.nip44.v2.encrypt(text, ck)), text, 'ours reads theirs');
    }
    const held = sc.conversationFromKey(ck);
    eq(held.decrypt(nt.nip44.v2.encrypt('held', ck)), 'held', 'held key');
    held.dispose();
    a.id.dispose();
    b.id.dispose();
  });
  t('interop: events both ways', () => {
    const a = keys();
    const ours = a.id.sign({ kind: 1, content: 'from softchat "quoted" \\ ✓', tags: [['t', 'x'], ['p', a.pub, 'wss://r']] });
    ok(nt.pure.verifyEvent(ours), 'nostr-tools verifies ours');
    eq(nt.pure.getEventHash(ours), ours.id, 'same id');
    const theirs = nt.pure.finalizeEvent({ kind: 1, created_at: 1700000000, tags: [['e', 'ab'.repeat(32)]], content: 'from nostr-tools\n\u0001' }, a.sk);
    same(sc.parseEvent(theirs), theirs, 'ours parses and verifies theirs');
    ok(sc.verifyEvent(JSON.stringify(theirs)), 'text form');
    ok(!sc.verifyEvent({ ...theirs, content: 'changed' }), 'a changed event fails');
    a.id.dispose();
  });
  t('interop: NIP-59 gift wraps both ways', () => {
    const a = keys();
    const b = keys();
    const rumorT = { kind: 1, content: 'wrapped', tags: [], created_at: Math.floor(Date.now() / 1000) };
    const theirs = nt.nip59.wrapEvent(rumorT, a.sk, b.pub);
    const u = b.id.unwrap(JSON.stringify(theirs));
    eq(u.rumor.content, 'wrapped', 'ours opens theirs');
    eq(u.sender, a.pub, 'sender');
    const ours = a.id.giftWrap(a.id.rumor(rumorT), b.pub);
    const opened = nt.nip59.unwrapEvent(ours.event, b.sk);
    eq(opened.content, 'wrapped', 'theirs opens ours');
    eq(opened.pubkey, a.pub, 'their sender');
    a.id.dispose();
    b.id.dispose();
  });
  t('interop: NIP-17 messages both ways', () => {
    const a = keys();
    const b = keys();
    const theirs = nt.nip17.wrapEvent(a.sk, { publicKey: b.pub, relayUrl: 'wss://b.example' }, 'hola from nostr-tools', 'topic');
    const m = b.id.receive(JSON.stringify(theirs));
    eq(m.content, 'hola from nostr-tools', 'ours receives theirs');
    eq(m.sender, a.pub, 'sender');
    eq(m.subject, 'topic', 'subject');
    const ours = a.id.sendMessage([{ pubkey: b.pub, relay: 'wss://b.example' }], 'hola from softchat', { subject: 's' });
    const opened = nt.nip17.unwrapEvent(ours[0].event, b.sk);
    eq(opened.kind, 14, 'kind 14');
    eq(opened.content, 'hola from softchat', 'theirs receives ours');
    eq(opened.pubkey, a.pub, 'author');
    const self = nt.nip17.unwrapEvent(ours[1].event, a.sk);
    eq(self.content, 'hola from softchat', 'the sender copy opens for the sender');
    a.id.dispose();
    b.id.dispose();
  });
  t('interop: NIP-19 both ways', () => {
    const a = keys();
    eq(sc.nip19.npub(a.pub), nt.nip19.npubEncode(a.pub), 'npub');
    const np = nt.nip19.nprofileEncode({ pubkey: a.pub, relays: ['wss://r.example'] });
    same(sc.nip19.decode(np), { type: 'nprofile', pubkey: a.pub, relays: ['wss://r.example'] }, 'nprofile');
    eq(hex(nt.nip19.decode(new TextDecoder().decode(sc.nip19.nsec(a.id))).data), hex(a.sk), 'nsec');
    eq(hex(sc.nip19.decodeSecret(nt.nip19.nsecEncode(a.sk))), hex(a.sk), 'their nsec');
    a.id.dispose();
  });
  return list;
}

export { unhex };
