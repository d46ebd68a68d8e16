// PyScript's `interpreter` (pyscript.toml): the vendored Pyodide, started from the memory
// snapshot this device made on an earlier visit, or else the normal way, from the standard
// library compiled at build time.
//
// No snapshot is shipped: a first visit would download it (7 MB) before anything else. What
// `make snapshot` (scripts/build_snapshot.py) writes into static/vendor/snapshot/ instead: the
// standard modules the pages use, compiled to bytecode (python_stdlib-<key>.zip: a normal boot
// spends most of its time compiling the standard library from source), every sxmj source in
// one file (sxmj-<key>.json) and the manifest (the key, the Pyodide version, the modules a
// snapshot holds, each source's size and hash). A built site (`make site`) writes the manifest
// into this module (KIT) and the list of sources (SOURCES); a dev page (`make play`) reads
// manifest.json and compares every served source with it: an edited module never runs from a
// stale snapshot (and without the manifest, the page boots from the vendored zip).
//
// 1. This module starts at once (index.html loads it as an async module script), beside
//    PyScript's own start-up: it looks for this device's snapshot of this very key in the
//    site's cache; with one, Pyodide restores it (every visit after the first), else boots the
//    normal way from the compiled standard library; either way it starts once the skeleton is
//    painted and is (nearly) up when PyScript asks for it.
// 2. Once the page is ready, painted and idle, static/js/page-boot.js calls `sxmjBoot.keep()`
//    (a built site's first visit: what Pyodide downloaded, the wasm above all, which the HTTP
//    cache may not hold, goes into the site's cache, so the service worker's install does not
//    download it again), registers the service worker, then
//    calls `sxmjBoot.settle()`: the vendored python_stdlib.zip goes on sys.path (for any
//    standard module the compiled zip lacks), and, when no snapshot of this key was used, the
//    device makes one in a worker (static/boot/snapshot-worker.js) and keeps it in the site's
//    cache "sxmj-<build>" (a new deploy drops it with the cache: the key changes with the code).
//
// When the snapshot must not or cannot be used it says why on the console (a warning) and boots
// the normal way. What happened is in `window.sxmjBoot.snapshot` (the start) and
// `window.sxmjBoot.device` (this device's snapshot), and in the boot log.

import * as real from "../vendor/pyodide/pyodide.mjs";

export const version = real.version;

const FORMAT = 3;  // the manifest (scripts/build_snapshot.py FORMAT)
const DEVICE_FORMAT = 1;  // the device's snapshot: its parts that are not zeros, and where each goes
const RUNTIME = new URL("../vendor/pyodide/", import.meta.url).href;
const KIT_DIR = new URL("../vendor/snapshot/", import.meta.url);
const SITE = new URL("../../", import.meta.url);
const FULL_STDLIB = new URL("python_stdlib.zip", RUNTIME).href;
const FULL_STDLIB_PATH = "/lib/python_stdlib.zip";  // beside the compiled /lib/python314.zip
const DEVICE_AFTER_MS = 4000;  // the device's snapshot waits this long after the worker's install
const boot = globalThis.sxmjBoot || {};
const BUILD = globalThis.document?.querySelector('meta[name="sxmj-build"]')?.content || "dev";
// The site's cache, filled by the service worker (sw.js) and by this page; a dev page keeps
// only its own snapshot, in a cache of its own
const CACHE = BUILD !== "dev" ? `sxmj-${BUILD}` : "sxmj-dev";
// The sources PyScript's [files] would write (paths relative to the site and to the
// interpreter's home): `make site` moves the table here from the built pyscript.toml.
// null (the repository, `make play`): pyscript.toml's [files] writes them.
const SOURCES = null;
// The manifest of the build (static/vendor/snapshot/manifest.json, without the sources'
// hashes): `make site` writes it here. null (the repository): read and checked at start.
const KIT = null;

const started = performance.now();
// ms: milestones, in ms after `start` (this module's start, in ms after navigation start)
const report = (boot.snapshot = { state: "pending", reason: "", start: Math.round(started), ms: {} });
const device = (boot.device = { state: "pending", reason: "", ms: {} });

function note(what, detail) {
  if (typeof boot.note === "function") boot.note(what, detail);
}

function lap(name, into = report) {
  into.ms[name] = Math.round(performance.now() - started);
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

// ---------- what the first visit downloads, kept for the service worker ----------

// A first visit of a built site (no service worker controls the page yet): every response this
// page gets from `fetch` below the site while Pyodide starts is kept (a clone) until
// `sxmjBoot.keep()` puts it into the site's cache. The browser's HTTP cache may not hold the
// big ones (the 9.6 MB wasm), and the worker's install must not download them a second time.
const kept = new Map();
// (only on the pages that register the worker, html[data-sw], and not in a frame of another
// site's page: page-boot.js registers no worker there)
const storage = boot.storage || { frame: "top", caches: Promise.resolve(globalThis.caches ? "ok" : "absent") };
const keeping = BUILD !== "dev" && !!globalThis.caches && storage.frame !== "third-party" &&
  !!globalThis.document?.documentElement.hasAttribute("data-sw") && !swController();
function swController() {
  try {
    return globalThis.navigator?.serviceWorker?.controller;
  } catch {
    return null;  // storage refused: no worker
  }
}
const realFetch = globalThis.fetch;

function keepResponse(url, response) {
  if (keeping && response.ok && response.type === "basic" && url.startsWith(SITE.href)) {
    kept.set(url.split("#")[0], response.clone());
  }
  return response;
}

/** fetch, keeping what the first visit downloads. */
async function get(url, init) {
  const href = new URL(url, SITE).href;
  const response = await realFetch(href, init);
  if (!response.ok) throw new Skip(`${response.status} ${response.statusText} for ${href}`);
  return keepResponse(href, response);
}

/** Run `start` (Pyodide's start) with `fetch` keeping what it downloads (the wasm, the zip). */
async function keepingFetches(start) {
  if (!keeping) return start();
  const wrapped = (input, init) => realFetch(input, init).then((response) =>
    keepResponse(new URL(input instanceof Request ? input.url : input, location.href).href, response));
  globalThis.fetch = wrapped;
  try {
    return await start();
  } finally {
    if (globalThis.fetch === wrapped) globalThis.fetch = realFetch;
  }
}

/** Put what this page downloaded through `fetch` while Pyodide started into the site's cache
 * (called once, by page-boot.js, just before it registers the service worker). The worker's
 * install checks each against the build's hashes, and takes the page's other files (scripts,
 * stylesheets, images) from the HTTP cache. */
async function keepFetched() {
  if (!keeping || !kept.size) return 0;
  const store = await caches.open(CACHE);
  const entries = [...kept];
  kept.clear();
  await Promise.all(entries.map(([url, response]) => store.put(url, response).catch(() => {})));
  note("kept", `${entries.length} files the page downloaded, for the service worker`);
  return entries.length;
}

// ---------- the build's manifest, this device's snapshot ----------

/** The manifest: the built site's (KIT), or (dev) static/vendor/snapshot/manifest.json once
 * every served source matches it. null: boot from the vendored zip, make no snapshot. */
async function readKit() {
  if (KIT) {
    report.checked = "build";  // `make site` made the page, the sources and the kit together
    return KIT;
  }
  const manifest = await (await get(new URL("manifest.json", KIT_DIR))).json();
  if (manifest.format !== FORMAT) throw new Skip(`manifest format ${manifest.format}, not ${FORMAT}`);
  const stale = [];
  await Promise.all(Object.entries(manifest.sources).map(async ([path, want]) => {
    const bytes = new Uint8Array(await (await get(new URL(path, SITE))).arrayBuffer());
    if (bytes.length !== want.size || cyrb53(bytes) !== want.hash) stale.push(path);
  }));
  if (stale.length) throw new Skip(`served sources differ from the build's: ${stale.sort().join(", ")}`);
  lap("checked");
  report.checked = "sources";
  return manifest;
}

function deviceKeys(kit) {
  const base = `device-${kit.key}`;
  return { meta: new URL(`${base}.json`, KIT_DIR).href, raw: new URL(`${base}.raw`, KIT_DIR).href };
}

/** The runs (where each stored part goes) are in order, inside `raw`, and add up to `packed`. */
function runsFit({ raw, packed, runs }) {
  if (!Array.isArray(runs) || !Number.isInteger(raw)) return false;
  let end = 0, total = 0;
  for (const run of runs) {
    const [at, length] = Array.isArray(run) ? run : [];
    if (!Number.isInteger(at) || !Number.isInteger(length) || at < end || length <= 0) return false;
    end = at + length;
    total += length;
  }
  return end <= raw && total === packed;
}

/** This device's snapshot of `kit`: `{meta, packed}` (packed: a promise of its bytes), or a
 * Skip saying why there is none. */
async function deviceSnapshot(kit) {
  // (asked once, by page-boot.js: a frame of another site's page may be refused)
  const state = await storage.caches;
  if (state !== "ok") throw new Skip(`cache storage ${state} here`);
  if (!(await caches.has(CACHE))) throw new Skip("no snapshot on this device yet");
  const store = await caches.open(CACHE);
  const keys = deviceKeys(kit);
  const hit = await store.match(keys.meta);
  if (!hit) throw new Skip("no snapshot of this build on this device yet");
  const meta = await hit.json();
  if (meta.format !== DEVICE_FORMAT || meta.key !== kit.key) throw new Skip("the device's snapshot is of another build");
  if (meta.pyodide !== real.version) throw new Skip(`the device's snapshot is of Pyodide ${meta.pyodide}`);
  if (!runsFit(meta)) throw new Skip("the device's snapshot does not fit its manifest");
  const packed = store.match(keys.raw).then(async (response) => {
    if (!response) throw new Error("the device's snapshot is gone");
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (bytes.length !== meta.packed) throw new Error(`the device's snapshot has ${bytes.length} bytes, not ${meta.packed}`);
    lap("read");
    return bytes;
  });
  packed.catch(() => {});
  return { meta, packed };
}

// ---------- starting Pyodide ----------

/** After the page's first paint (the skeleton), or 200 ms at most (a hidden tab paints
 * nothing): Pyodide's start takes the main thread and must not delay the skeleton. */
function painted() {
  if (typeof requestAnimationFrame !== "function") return Promise.resolve();
  return new Promise((resolve) => {
    requestAnimationFrame(() => setTimeout(resolve, 0));
    setTimeout(resolve, 200);
  });
}

/** The sources to write, `[[path, text], ...]`: a built site's bundle (one request), or, with
 * no bundle (`make play`), none: PyScript's [files] writes them. */
async function sourceFiles(kit) {
  if (!SOURCES) return [];
  if (kit) return Object.entries(await (await get(new URL(kit.bundle, KIT_DIR))).json());
  // no kit (a built site always has one): every source, one request each
  return Promise.all(SOURCES.map(async (path) => [path, await (await get(path)).text()]));
}

/** Write the sources where PyScript's [files] puts them (relative to the home folder). */
function writeSources(pyodide, files) {
  for (const [path, text] of files) {
    const target = `/home/pyodide/${path}`;
    pyodide.FS.mkdirTree(target.slice(0, target.lastIndexOf("/")));
    pyodide.FS.writeFile(target, text);
  }
}

/** Put the vendored python_stdlib.zip (every standard module, as source) at the end of
 * sys.path: the compiled zip holds what the pages import; this is for anything else. */
function mountFullStdlib(pyodide, bytes) {
  pyodide.FS.writeFile(FULL_STDLIB_PATH, bytes);
  pyodide.runPython(`import sys\nif ${JSON.stringify(FULL_STDLIB_PATH)} not in sys.path: sys.path.append(${JSON.stringify(FULL_STDLIB_PATH)})`);
  report.full = true;
  note("stdlib", "python_stdlib.zip mounted");
}

/** The vendored zip from the site's cache (the service worker's, or this page's), or null. */
async function cachedFullStdlib() {
  if (await storage.caches !== "ok") return null;
  try {
    const hit = await caches.match(FULL_STDLIB);
    return hit ? new Uint8Array(await hit.arrayBuffer()) : null;
  } catch {
    return null;
  }
}

/** Start Pyodide the normal way: from the compiled standard library when there is a kit. */
async function bootNormally(kit) {
  const files = sourceFiles(kit);
  files.catch(() => {});
  await painted();
  lap("booting");
  const stdLibURL = kit ? new URL(kit.stdlib, KIT_DIR).href : undefined;
  const pyodide = await keepingFetches(() => real.loadPyodide({ indexURL: RUNTIME, stdLibURL }));
  writeSources(pyodide, await files);
  lap("booted");
  return pyodide;
}

/** Start Pyodide from this device's snapshot. */
async function restore(kit, snapshot) {
  const { meta, packed } = snapshot;
  const files = sourceFiles(kit);
  files.catch(() => {});
  const full = cachedFullStdlib();
  await painted();
  lap("restoring");
  // Pyodide needs only the snapshot's size to compile and instantiate the runtime and install
  // the standard library; its bytes are read after the file system hooks (fsInit) are done.
  // So it gets an empty buffer of that size at once, and fsInit fills it while the cache is read.
  const target = new Uint8Array(meta.raw);
  let failed;
  const failure = new Promise((_, reject) => { failed = reject; });
  const fsInit = async () => {
    try {
      const bytes = await packed;
      let from = 0;
      for (const [at, length] of meta.runs) {  // (checked with the manifest: they fit)
        target.set(bytes.subarray(from, from + length), at);
        from += length;
      }
    } catch (err) {
      // Pyodide would start from an empty memory: leave this start waiting forever, and boot
      // another one the normal way
      failed(err);
      await new Promise(() => {});
    }
  };
  const pyodide = await Promise.race([
    real.loadPyodide({
      indexURL: RUNTIME, stdLibURL: new URL(kit.stdlib, KIT_DIR).href, _loadSnapshot: target, fsInit,
    }),
    failure,
  ]);
  // The snapshot froze the random module's state: every visit would deal the same.
  pyodide.runPython("__import__('random').seed()");
  writeSources(pyodide, await files);
  const zip = await full;
  if (zip) mountFullStdlib(pyodide, zip);
  lap("restored");
  return pyodide;
}

/** `{pyodide: Promise, kit}`: the start, under way (an embed's frame waits until it is on
 * screen: page-boot.js's sxmjBoot.inView). */
async function start() {
  await boot.inView;
  let kit = null;
  try {
    kit = await readKit();
    lap("kit");
  } catch (err) {
    skipped("skipped", err);  // no kit: the vendored zip, and no snapshot
    device.state = "skipped";
    device.reason = report.reason;
    return { pyodide: quiet(bootNormally(null)), kit };
  }
  report.key = kit.key;
  boot.stdlib = new URL(kit.stdlib, KIT_DIR).href;  // also the review worker's
  let snapshot = null;
  try {
    snapshot = await deviceSnapshot(kit);
  } catch (err) {
    report.state = "none";
    report.reason = String(err && err.message ? err.message : err);
    note("snapshot", `none: ${report.reason}`);
    if (!(err instanceof Skip)) console.warn(`sxmj: the device's snapshot could not be read: ${report.reason}`);
    return { pyodide: quiet(bootNormally(kit)), kit };
  }
  report.file = deviceKeys(kit).raw.slice(KIT_DIR.href.length);
  report.cached = true;
  device.state = "used";
  return { pyodide: quiet(restore(kit, snapshot)), kit, restoring: true };
}

/** `promise`, its failure handled where it is awaited (loadPyodide), never unhandled meanwhile. */
function quiet(promise) {
  promise.catch(() => {});
  return promise;
}

function skipped(state, err) {
  report.state = state;
  report.reason = String(err && err.message ? err.message : err);
  note("snapshot", `${state}: ${report.reason}`);
  console.warn(`sxmj: booting Pyodide without a memory snapshot (${state}): ${report.reason}`);
}

let prepared = null;

/** Start (once) the interpreter; resolves to `{pyodide, kit}`. */
export function prepareSnapshot() {
  prepared ??= start();
  return prepared;
}

prepareSnapshot();

let interpreter = null;

export async function loadPyodide(options = {}) {
  lap("asked");
  const { pyodide, kit, restoring } = await prepareSnapshot();
  try {
    interpreter = await pyodide;
    if (restoring) {
      report.state = "loaded";
      note("snapshot", `loaded ${report.file} in ${report.ms.restored} ms`);
    }
  } catch (err) {
    if (!restoring) throw err;
    skipped("failed", err);
    device.state = "pending";  // make a new one
    interpreter = await bootNormally(kit);
  }
  // started before PyScript asked: its output handlers are set now
  if (options.stdout) interpreter.setStdout({ batched: options.stdout });
  if (options.stderr) interpreter.setStderr({ batched: options.stderr });
  return interpreter;
}

// ---------- after ready: the vendored zip, this device's snapshot ----------

/** Make this device's snapshot of `kit` in a worker, and keep it in the site's cache. */
function makeDeviceSnapshot(kit) {
  return new Promise((resolve) => {
    const worker = new Worker(new URL("./snapshot-worker.js", import.meta.url), { type: "module" });
    const done = (state, reason = "") => {
      worker.terminate();
      device.state = state;
      device.reason = reason;
      lap("done", device);
      note("device", reason ? `${state}: ${reason}` : state);
      if (state === "failed") console.warn(`sxmj: this device's memory snapshot was not made: ${reason}`);
      resolve(state);
    };
    worker.onmessage = ({ data }) => {
      if (data.ms) device.made = data.ms;
      done(data.state, data.reason);
    };
    worker.onerror = (event) => done("failed", event.message || "the worker did not start");
    worker.postMessage({ kit, cache: CACHE, keys: deviceKeys(kit), build: BUILD });
  });
}

let settling = null;

/** Once the page is ready and idle (page-boot.js, after the service worker): the vendored zip
 * on sys.path, then this device's snapshot when it has none of this build. */
function settle() {
  settling ??= (async () => {
    const { kit } = await prepareSnapshot();
    if (!interpreter) return;
    const page = globalThis.document?.documentElement;
    if (kit && !report.full) {
      try {
        // (an embed, in another site's article, takes it only from the cache: 2.5 MB more for
        // a calculator is too much)
        const zip = await cachedFullStdlib() || (page?.hasAttribute("data-sw") &&
          storage.frame !== "third-party" &&
          new Uint8Array(await (await realFetch(FULL_STDLIB)).arrayBuffer()));
        if (zip) mountFullStdlib(interpreter, zip);
      } catch (err) {
        console.warn(`sxmj: python_stdlib.zip not mounted: ${err}`);
      }
    }
    if (device.state !== "pending") return;
    const third = storage.frame === "third-party";
    if (!kit || !page?.hasAttribute("data-sw") || third || typeof Worker !== "function" ||
        await storage.caches !== "ok") {
      device.state = "skipped";
      device.reason = !kit ? "no kit" : third ? "a frame of another site" : "not on this page";
      return;
    }
    // a few seconds into the game, in an idle moment: the worker's start takes a core for
    // about a second, which the first moves (and a page opened only for a moment) need more
    await new Promise((resolve) => setTimeout(resolve, DEVICE_AFTER_MS));
    await new Promise((resolve) => (globalThis.requestIdleCallback
      ? requestIdleCallback(resolve, { timeout: 2000 }) : setTimeout(resolve, 0)));
    device.state = "making";
    lap("making", device);
    note("device", "making this device's snapshot");
    await makeDeviceSnapshot(kit);
  })();
  return settling;
}

boot.keep = keepFetched;
// The interpreter's WebAssembly memory in bytes (null before it starts): scripts/bench_embeds.py
// adds up the frames of a page of embeds with it.
boot.wasmBytes = () => interpreter?._module?.HEAPU8?.byteLength ?? null;
boot.settle = settle;
