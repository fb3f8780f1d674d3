// The relay pool end to end (test/browser/run.mjs runs it): a sender in Node (the `ws`
// package's WebSocket: Node 20 has none of its own) publishes a NIP-17 message's wraps
// through a pool to two live relays and a dead one; a receiver's pool in a Chromium page,
// subscribed on both live relays, gets it exactly once; a second receiver pool given the
// first one's cursor gets nothing again.

/** In the page: a receiver pool subscribed on urls. Resolves the receiver's pubkey; the
 *  page's window.poolGot resolves with what arrived. */
export async function startReceiver(urls) {
  const { Softchat } = await import('/pkg/index.js');
  const sc = await Softchat.load();
  const me = sc.generateIdentity();
  const pool = sc.pool();
  const seen = [];
  let sub = 0;
  window.poolGot = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no message within 30 s (${seen.length} events)`)), 30000);
    sub = pool.subscribe('inbox', [{ kinds: [1059], '#p': [me.publicKeyHex] }], urls, {
      onEvent(ev, relay) {
        seen.push(relay);
        const m = me.receive(JSON.stringify(ev));
        clearTimeout(timer);
        // wait a moment for duplicates from the other relay (the pool must drop them)
        setTimeout(() => resolve({ content: m.content, sender: m.sender, deliveries: seen.length, cursor: Array.from(pool.cursor(sub)) }), 1500);
      },
    }, { cursorIds: 64, resumeSlack: 172800 });
  });
  window.poolAgain = async (cursor) => {
    const again = sc.pool();
    const events = [];
    await new Promise((resolve) => {
      again.subscribe('inbox', [{ kinds: [1059], '#p': [me.publicKeyHex] }], urls, {
        onEvent(ev) { events.push(ev.id); },
        onEose: resolve,
      }, { cursor: new Uint8Array(cursor), resumeSlack: 172800 });
    });
    again.dispose();
    pool.dispose();
    return events.length;
  };
  return me.publicKeyHex;
}

/** In Node: the sender's pool publishes the message's wraps to every url. */
export async function send(lib, WebSocket, urls, to, text) {
  const sc = await lib.Softchat.load();
  const me = sc.generateIdentity();
  const pool = sc.pool({ WebSocket, maxAttempts: 2, retryMinMs: 100, retryMaxMs: 200, okTimeoutMs: 3000, backoffMinMs: 100, backoffMaxMs: 200 });
  const wraps = me.sendMessage([{ pubkey: to }], text);
  const results = await Promise.all(wraps.map((w) => pool.publish(w.event, urls)));
  pool.dispose();
  return { sender: me.publicKeyHex, results };
}
