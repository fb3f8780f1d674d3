// The same under `tsc --strict` against the tarball's declarations: types, `using`, errors.
import { Softchat, SoftchatError, type GiftWrap, type NostrEvent, type PrivateMessage } from 'softchat';

async function main(): Promise<void> {
  const sc: Softchat = await Softchat.load();
  using alice = sc.generateIdentity();
  using bob = sc.generateIdentity();
  const wraps: GiftWrap[] = alice.sendMessage([{ pubkey: bob.publicKeyHex }], 'typed hello', { subject: 'ts' });
  const msg: PrivateMessage = bob.receive(wraps[0]!.json);
  const note: NostrEvent = alice.sign({ kind: 1, content: 'typed note', tags: [['t', 'ts']] });
  const parsed: NostrEvent = sc.parseEvent(JSON.stringify(note));
  if (msg.content !== 'typed hello' || msg.subject !== 'ts' || parsed.id !== note.id) {
    throw new Error('typed round trip');
  }
  let status = '';
  try {
    sc.importIdentity(new Uint8Array(32));
  } catch (e) {
    if (e instanceof SoftchatError) status = e.statusName;
  }
  if (status !== 'SC_ERR_INVALID_KEY') throw new Error(`status ${status}`);
  console.log(`tsc --strict example ok: ${parsed.id.slice(0, 8)}`);
}

await main();
