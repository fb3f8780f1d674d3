// The CommonJS build's stand-in for import.meta.url (build.sh bundles dist/index.js into
// dist/index.cjs with esbuild, replacing import.meta.url by this): the file's own URL, so
// the loader still finds the softchat.wasm beside it.
export const softchatModuleUrl =
  typeof document === 'undefined' ? require('url').pathToFileURL(__filename).href : document.baseURI;
