// The cases in a module Worker: the page (test/browser/worker.html) posts which groups to
// run and gets the results back.
import { run } from '/test/browser/suite.mjs';

self.onmessage = async (e) => {
  try {
    self.postMessage(await run(e.data));
  } catch (err) {
    self.postMessage({ error: String(err && err.stack || err) });
  }
};
