// The CommonJS entry (require) of the installed tarball.
const { Softchat } = require('softchat');

Softchat.load().then((sc) => {
  const a = sc.generateIdentity();
  const ev = a.sign({ kind: 1, content: 'from require()' });
  if (sc.parseEvent(ev).id !== ev.id) throw new Error('cjs round trip');
  console.log(`cjs example ok: ${sc.version}`);
});
