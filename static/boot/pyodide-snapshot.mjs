// PyScript's `interpreter` (pyscript.toml): the vendored Pyodide, started from a memory
// snapshot that already holds the sxmj package, when one matches what is served.
//
// The snapshot (static/vendor/snapshot/, made by `make snapshot`/`make site` with
// scripts/build_snapshot.py) is Pyodide's experimental `_loadSnapshot`, locked to the exact
// Pyodide build. Its manifest.json names the gzip file, the Pyodide version, where the stored
// parts of the memory go (the zeros are not stored), and the size and
// hash of every sxmj source the snapshot holds. This module boots from it only when the
// version matches and the snapshot holds the served sources: on a page built by `make site`
// (its build stamp and its preload of this very snapshot say so) they were made together;
// otherwise (`make play`) every source is fetched and compared (an edited module must not run
// from a stale snapshot). When they differ, or anything fails (missing file, inflate error,
// restore error), it warns on the console and boots Pyodide the normal way.
// What happened is in `window.sxmjBoot.snapshot` and the boot log.
//
// index.html also loads this module as an async module script, so the manifest, the check,
// the download, the inflating and the restore itself start at once, beside PyScript's own
// start-up, rather than when PyScript asks for the interpreter: by then it is mostly done.
//
// A built site (`make site`) moves pyscript.toml's [files] into SOURCES below: PyScript then
// fetches no source at all, since the snapshot holds the modules. This module writes into the
// interpreter's file system the sources the snapshot lacks (none a page imports) and, on a
// normal boot, every source, as PyScript's [files] would have.

import * as real from "../vendor/pyodide/pyodide.mjs";

export const version = real.version;

const FORMAT = 2;  // the file holds the memory's parts that are not zeros (manifest.runs)
const RUNTIME = new URL("../vendor/pyodide/", import.meta.url).href;
const SNAPSHOT = new URL("../vendor/snapshot/", import.meta.url);
const SITE = new URL("../../", import.meta.url);
// A built site (`make site`) keeps the inflated snapshot in its service worker's cache
// "sxmj-<build>" (dropped with it by the next deploy): later visits skip the inflating.
const BUILD = globalThis.document?.querySelector('meta[name="sxmj-build"]')?.content || "dev";
const CACHE = BUILD !== "dev" && globalThis.caches ? `sxmj-${BUILD}` : null;
const KEEP_AFTER_MS = 3000;  // the 17 MB write waits until the game is up
// The sources PyScript's [files] would write (paths relative to the site and to the
// interpreter's home): `make site` moves the table here from the built pyscript.toml.
// null (the repository, `make play`): pyscript.toml's [files] writes them.
const SOURCES = null;

const boot = globalThis.sxmjBoot || {};
const started = performance.now();
// ms: milestones, in ms after `start` (this module's start, in ms after navigation start)
const report = (boot.snapshot = { state: "pending", reason: "", start: Math.round(started), ms: {} });

function note(detail) {
  if (typeof boot.note === "function") boot.note("snapshot", detail);
}

function lap(name) {
  report.ms[name] = Math.round(performance.now() - started);
}

/** A reason to boot without the snapshot (a warning, not an error). */
class Skip extends Error {}

/** 53-bit hash of the bytes (scripts/build_snapshot.py `cyrb53` computes the same). */
function cyrb53(bytes) {
  let h1 = 0xdeadbeef, h2 = 0x41c6ce57;
  for (let i = 0; i < bytes.length; i++) {
    h1 = Math.imul(h1 ^ bytes[i], 2654435761);
    h2 = Math.imul(h2 ^ bytes[i], 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16);
}

async function get(url, init) {
  const response = await fetch(url, init);
  if (!response.ok) throw new Skip(`${response.status} ${response.statusText} for ${url}`);
  return response;
}

/** Fetch the served sources the snapshot holds; throw Skip unless all are unchanged. */
async function checkSources(sources) {
  const stale = [];
  await Promise.all(Object.entries(sources).map(async ([path, want]) => {
    const bytes = new Uint8Array(await (await get(new URL(path, SITE))).arrayBuffer());
    if (bytes.length !== want.size || cyrb53(bytes) !== want.hash) stale.push(path);
  }));
  if (stale.length) throw new Skip(`served sources differ from the snapshot's: ${stale.sort().join(", ")}`);
}

/** Inflate the gzip body of `response` in a worker (static/boot/inflate-worker.js), as it
 * downloads: the main thread stays free, and the inflating ends soon after the download. */
function inflateInWorker(response, size) {
  return new Promise((resolve, reject) => {
    const worker = inflater || new Worker(new URL("./inflate-worker.js", import.meta.url));
    inflater = null;
    worker.onmessage = (event) => {
      worker.terminate();
      if (event.data instanceof ArrayBuffer) resolve(event.data);
      else reject(new Error(`inflating failed: ${event.data && event.data.error}`));
    };
    worker.onerror = (event) => {
      worker.terminate();
      reject(new Error(`inflate worker: ${event.message || "failed to start"}`));
    };
    try {
      worker.postMessage({ body: response.body, size }, [response.body]);
    } catch {
      // a browser that cannot transfer a stream: the whole download, then the inflating
      response.arrayBuffer().then((gz) => worker.postMessage({ body: gz, size }, [gz]), reject);
    }
  });
}

// The inflate worker, started with the manifest's request so that its script is loaded and
// running by the time the snapshot's first bytes arrive.
let inflater = null;

async function inflate(response, size) {
  let raw;
  if (typeof Worker === "function") {
    raw = await inflateInWorker(response, size);
  } else {
    raw = await new Response(response.body.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
  }
  if (raw.byteLength !== size) throw new Error(`inflated ${raw.byteLength} bytes, expected ${size}`);
  lap("inflated");
  return new Uint8Array(raw);
}

/** True when this page is a built one (`make site`) that preloads exactly this snapshot. */
function builtWith(name) {
  if (BUILD === "dev" || !globalThis.document) return false;
  const want = new URL(name, SNAPSHOT).href;
  return [...document.querySelectorAll('link[rel="preload"]')].some((l) => l.href === want);
}

/** The inflated snapshot from an earlier visit of this build, or null. */
async function cachedRaw(key, size) {
  if (!CACHE) return null;
  try {
    const hit = await (await caches.open(CACHE)).match(key);
    const raw = hit && await hit.arrayBuffer();
    return raw && raw.byteLength === size ? new Uint8Array(raw) : null;
  } catch {
    return null;  // no cache here (e.g. a private window): inflate
  }
}

function keepRaw(key, bytes) {
  if (!CACHE) return;
  // The page registers the service worker only once it is painted and idle: wait for the
  // worker to be active (its install made the cache), and a few seconds at least.
  const worker = globalThis.navigator?.serviceWorker?.ready ?? Promise.resolve();
  const later = new Promise((resolve) => setTimeout(resolve, KEEP_AFTER_MS));
  Promise.all([worker, later]).then(async () => {
    try {
      // only into the worker's cache (it makes it when installing), never re-making one
      // that a newer deploy's worker has just deleted
      if (await caches.has(CACHE)) await (await caches.open(CACHE)).put(key, new Response(bytes));
    } catch (err) {
      console.warn(`sxmj: could not keep the inflated snapshot: ${err}`);
    }
  });
}

/** The inflated snapshot (a promise). `handedOver()` is called once the bytes are on their
 * way: read from the cache, or the download streaming into the inflate worker. */
async function download(manifest, handedOver) {
  const url = new URL(manifest.snapshot, SNAPSHOT);
  const rawKey = new URL(`${manifest.snapshot}.raw`, SNAPSHOT);  // never fetched: a cache key
  const response = get(url);  // also takes up the built index.html's preload
  try {
    const raw = await cachedRaw(rawKey, manifest.packed);
    if (raw) {
      lap("cached");
      handedOver();
      // read the preloaded copy through (cancelling it would show as a failed request)
      response.then((r) => r.arrayBuffer()).catch(() => {});
      report.cached = true;
      return raw;
    }
    const inflated = inflate(await response, manifest.packed);
    handedOver();
    const bytes = await inflated;
    keepRaw(rawKey, bytes);
    return bytes;
  } finally {
    handedOver();  // (a failure: the restore starts, and fails at once)
    inflater?.terminate();  // unused (a cached copy, or a failure)
    inflater = null;
  }
}

/** After the page's first paint (the skeleton), or 200 ms at most (a hidden tab paints
 * nothing): the restore's main-thread work must not delay the skeleton. */
function painted() {
  if (typeof requestAnimationFrame !== "function") return Promise.resolve();
  return new Promise((resolve) => {
    requestAnimationFrame(() => setTimeout(resolve, 0));
    setTimeout(resolve, 200);
  });
}

/** Fetch `paths` (relative to the site) now; resolves to `[[path, bytes], ...]`. */
function fetchSources(paths) {
  return Promise.all(paths.map(async (path) =>
    [path, new Uint8Array(await (await get(new URL(path, SITE))).arrayBuffer())]));
}

/** Write fetched sources where PyScript's [files] puts them (relative to the home folder). */
function writeSources(pyodide, files) {
  for (const [path, bytes] of files) {
    const target = `/home/pyodide/${path}`;
    pyodide.FS.mkdirTree(target.slice(0, target.lastIndexOf("/")));
    pyodide.FS.writeFile(target, bytes);
  }
}

/** Start Pyodide from the snapshot now; resolves to the interpreter. `bytes`: a promise of
 * the stored parts of the snapshot, inflated; `manifest` says where each goes. */
async function restore(bytes, manifest, handoff) {
  const { raw: size, runs, sources } = manifest;
  // a page imports nothing the snapshot lacks, but every module stays importable
  const missing = fetchSources((SOURCES || []).filter((path) => !(path in sources)));
  missing.catch(() => {});
  // Pyodide's start-up takes the main thread for a while: the inflate worker gets the
  // download first, and the skeleton is painted first
  await Promise.all([handoff, painted()]);
  lap("restoring");
  // Pyodide needs only the snapshot's size to compile and instantiate the runtime and install
  // the standard library; its bytes are read after the file system hooks (fsInit) are done.
  // So it gets an empty buffer of that size at once, and fsInit fills it: all of that runs
  // while the snapshot downloads and inflates, not after.
  const target = new Uint8Array(size);
  let failed;
  const failure = new Promise((_, reject) => { failed = reject; });
  const fsInit = async () => {
    try {
      const packed = await bytes;
      let from = 0;
      for (const [at, length] of runs) {  // (checked with the manifest: they fit)
        target.set(packed.subarray(from, from + length), at);
        from += length;
      }
    } catch (err) {
      // Pyodide would start from an empty memory: leave this start waiting forever, and let
      // loadPyodide boot another one the normal way
      failed(err);
      await new Promise(() => {});
    }
  };
  const pyodide = await Promise.race([
    real.loadPyodide({ indexURL: RUNTIME, _loadSnapshot: target, fsInit }),
    failure,
  ]);
  // The snapshot froze the random module's state: every visit would deal the same.
  pyodide.runPython("__import__('random').seed()");
  writeSources(pyodide, await missing);
  lap("restored");
  return pyodide;
}

/** The runs (where each stored part goes) are in order, inside `raw`, and add up to `packed`. */
function runsFit({ raw, packed, runs }) {
  if (!Array.isArray(runs)) return false;
  let end = 0, total = 0;
  for (const run of runs) {
    const [at, length] = Array.isArray(run) ? run : [];
    if (!Number.isInteger(at) || !Number.isInteger(length) || at < end || length <= 0) return false;
    end = at + length;
    total += length;
  }
  return end <= raw && total === packed;
}

/** `{pyodide: Promise}` (restoring already), or a Skip/Error when the snapshot must not or
 * cannot be used. */
async function snapshotInterpreter() {
  if (typeof DecompressionStream !== "function") throw new Skip("no DecompressionStream here");
  // (a stale copy in the HTTP cache is harmless: the check below then fails, or all is old)
  const manifest = await (await get(new URL("manifest.json", SNAPSHOT))).json();
  lap("manifest");
  if (manifest.format !== FORMAT) throw new Skip(`manifest format ${manifest.format}, not ${FORMAT}`);
  if (manifest.pyodide !== real.version) {
    throw new Skip(`snapshot made with Pyodide ${manifest.pyodide}, runtime is ${real.version}`);
  }
  if (!runsFit(manifest)) throw new Skip("the manifest's runs do not fit the snapshot's size");
  report.file = manifest.snapshot;
  if (typeof boot.need === "function") boot.need("snapshot");  // the progress bar waits for it
  // download and inflate beside the check (index.html of a built site preloads the file)
  if (typeof Worker === "function") {
    inflater ??= new Worker(new URL("./inflate-worker.js", import.meta.url));
  }
  let handedOver;
  const handoff = new Promise((resolve) => { handedOver = resolve; });
  const bytes = download(manifest, handedOver);
  bytes.catch(() => {});  // a failure is handled in loadPyodide, never an unhandled rejection
  let checked = Promise.resolve();
  if (builtWith(manifest.snapshot)) {
    report.checked = "build";  // `make site` made the page, the sources and this snapshot together
  } else {
    checked = checkSources(manifest.sources).then(() => {
      lap("checked");
      report.checked = "sources";
    });
  }
  // (a dev page starts Pyodide only once its sources passed: a stale snapshot is never
  // restored, not even to be dropped)
  await checked;
  const pyodide = restore(bytes, manifest, handoff);
  pyodide.catch(() => {});  // (as above)
  return { pyodide };
}

function skipped(state, err) {
  report.state = state;
  report.reason = String(err && err.message ? err.message : err);
  note(`${state}: ${report.reason}`);
  console.warn(`sxmj: booting Pyodide without the memory snapshot (${state}): ${report.reason}`);
}

let prepared = null;

/** Start (once) the boot from the snapshot; resolves to `{pyodide}` or null (boot normally). */
export function prepareSnapshot() {
  prepared ??= snapshotInterpreter().catch((err) => {
    skipped(err instanceof Skip ? "skipped" : "failed", err);
    return null;
  });
  return prepared;
}

prepareSnapshot();

export async function loadPyodide(options = {}) {
  const config = { ...options, indexURL: RUNTIME };
  lap("asked");
  const snapshot = await prepareSnapshot();
  if (snapshot) {
    try {
      const pyodide = await snapshot.pyodide;
      // started before PyScript asked: its output handlers are set now
      if (options.stdout) pyodide.setStdout({ batched: options.stdout });
      if (options.stderr) pyodide.setStderr({ batched: options.stderr });
      report.state = "loaded";
      note(`loaded ${report.file} in ${report.ms.restored} ms`);
      return pyodide;
    } catch (err) {
      skipped("failed", err);
    }
  }
  // PyScript writes no source on a built site (SOURCES): fetch them beside the boot
  const sources = fetchSources(SOURCES || []);
  sources.catch(() => {});
  const pyodide = await real.loadPyodide(config);
  writeSources(pyodide, await sources);
  lap("booted");
  return pyodide;
}
