// Inflates the gzip-compressed Pyodide memory snapshot off the main thread, so that PyScript's
// own start-up goes on meanwhile (used by static/boot/pyodide-snapshot.mjs).
// In: the compressed bytes (an ArrayBuffer, transferred). Out: the inflated bytes (an
// ArrayBuffer, transferred back), or {error: "..."}.
"use strict";
onmessage = async (event) => {
  try {
    const stream = new Blob([event.data]).stream().pipeThrough(new DecompressionStream("gzip"));
    const bytes = await new Response(stream).arrayBuffer();
    postMessage(bytes, [bytes]);
  } catch (err) {
    postMessage({ error: String((err && err.message) || err) });
  }
};
