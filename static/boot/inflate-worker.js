// Inflates the gzip-compressed Pyodide memory snapshot off the main thread, so that PyScript's
// own start-up goes on meanwhile (used by static/boot/pyodide-snapshot.mjs).
// In: {body, size}: body the compressed bytes, as a ReadableStream (transferred: inflating
// goes on while the download does) or an ArrayBuffer (where streams cannot be transferred);
// size the inflated size, from the manifest.
// Out: the inflated bytes (an ArrayBuffer, transferred back), or {error: "..."}.
"use strict";
onmessage = async (event) => {
  try {
    const { body, size } = event.data;
    const source = body instanceof ReadableStream ? body : new Blob([body]).stream();
    const reader = source.pipeThrough(new DecompressionStream("gzip")).getReader();
    // written in place: no list of chunks to join, no second 31 MB copy
    const raw = new Uint8Array(size);
    let at = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (at + value.length > size) throw new Error(`more than the ${size} bytes expected`);
      raw.set(value, at);
      at += value.length;
    }
    if (at !== size) throw new Error(`inflated ${at} bytes, expected ${size}`);
    postMessage(raw.buffer, [raw.buffer]);
  } catch (err) {
    postMessage({ error: String((err && err.message) || err) });
  }
};
