// Makes this device's memory snapshot of the interpreter with the sxmj package imported, off
// the main thread, once a page is ready and idle (started by static/boot/pyodide-snapshot.mjs,
// which restores it on every later visit of the same build).
//
// In (one message): {kit, cache, keys, build}: the build's manifest (scripts/build_snapshot.py:
// its key, the compiled standard library, the sources bundle, the modules to import), the name
// of the site's cache, and the cache keys to keep the snapshot under ({meta, raw}).
// Out: {state: "kept" | "skipped" | "failed", reason, ms}.
//
// What it does is what the page would do: Pyodide with the compiled standard library
// (`_makeSnapshot`), the sources written where PyScript's [files] puts them (/home/pyodide),
// every module of `kit.imports` imported; then `makeMemorySnapshot()`, of which only the parts
// that are not zeros are kept (about half: the heap not in use is a few long stretches of
// zeros), with where each goes ("runs", in 4 KB pages). Every file it needs comes from the
// site's cache when it is there (the service worker has put the runtime in it), else from the
// network (a dev page).

import { loadPyodide, version } from "../vendor/pyodide/pyodide.mjs";
import { fetchCacheFirst } from "./cache-first.mjs";

const FORMAT = 1;  // static/boot/pyodide-snapshot.mjs DEVICE_FORMAT
const RUNTIME = new URL("../vendor/pyodide/", import.meta.url).href;
const KIT_DIR = new URL("../vendor/snapshot/", import.meta.url);
const PAGE = 4096;

fetchCacheFirst();  // the runtime from the site's cache first (offline too)

async function json(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${response.status} for ${url}`);
  return response.json();
}

/** The parts of `raw` that are not zeros, and where each goes. */
function pack(raw) {
  const runs = [];
  const words = new Uint32Array(raw.buffer, raw.byteOffset, raw.byteLength >>> 2);
  const perPage = PAGE >>> 2;
  for (let at = 0; at < raw.length; at += PAGE) {
    const end = Math.min(at + PAGE, raw.length);
    let zeros = true;
    if (end - at === PAGE) {
      for (let w = at >>> 2, stop = w + perPage; w < stop; w++) if (words[w]) { zeros = false; break; }
    } else {
      for (let b = at; b < end; b++) if (raw[b]) { zeros = false; break; }
    }
    if (zeros) continue;
    const last = runs[runs.length - 1];
    if (last && last[0] + last[1] === at) last[1] += end - at;
    else runs.push([at, end - at]);
  }
  const size = runs.reduce((sum, [, length]) => sum + length, 0);
  const packed = new Uint8Array(size);
  let to = 0;
  for (const [at, length] of runs) {
    packed.set(raw.subarray(at, at + length), to);
    to += length;
  }
  return { runs, packed };
}

onmessage = async ({ data }) => {
  const { kit, cache, keys } = data;
  const t0 = performance.now();
  const ms = {};
  const lap = (name) => { ms[name] = Math.round(performance.now() - t0); };
  try {
    const sources = json(new URL(kit.bundle, KIT_DIR));
    sources.catch(() => {});
    const py = await loadPyodide({
      indexURL: RUNTIME, stdLibURL: new URL(kit.stdlib, KIT_DIR).href, _makeSnapshot: true,
      stdout: () => {}, stderr: () => {},
    });
    lap("booted");
    for (const [path, text] of Object.entries(await sources)) {
      const target = `/home/pyodide/${path}`;
      py.FS.mkdirTree(target.slice(0, target.lastIndexOf("/")));
      py.FS.writeFile(target, text);
    }
    py.globals.set("_sxmj_imports", py.toPy(kit.imports));
    const failed = py.runPython(`
import importlib, json, sys
_failed = []
for _name in _sxmj_imports:
    try:
        importlib.import_module(_name)
    except Exception:  # the page imports it itself
        _failed.append(_name)
# Forget the directory listings cached by the import system: after a restore the files are
# written anew, and a later import must look at them, not at this worker's file system.
# (Not importlib.invalidate_caches(): it imports importlib.metadata, which the compiled
# standard library leaves out.)
sys.path_importer_cache.clear()
_report = json.dumps(_failed)
del _name, _sxmj_imports, _failed
_report
`);
    py.runPython("del _report");
    lap("imported");
    const raw = py.makeMemorySnapshot();
    const { runs, packed } = pack(raw);
    lap("snapshot");
    // only into the site's cache as it is (a newer deploy's worker may have deleted it)
    if (data.build !== "dev" && !(await caches.has(cache))) {
      postMessage({ state: "skipped", reason: "the site's cache is gone (a newer deploy)", ms });
      return;
    }
    const store = await caches.open(cache);
    // one snapshot per cache: an older key's (a dev page's earlier code) goes
    for (const request of await store.keys()) {
      const name = request.url.slice(KIT_DIR.href.length);
      if (request.url.startsWith(KIT_DIR.href) && name.startsWith("device-") &&
          request.url !== keys.raw && request.url !== keys.meta) await store.delete(request);
    }
    const meta = {
      format: FORMAT, key: kit.key, pyodide: version, raw: raw.length, packed: packed.length,
      runs, failed: JSON.parse(failed), made: new Date().toISOString(), ms,
    };
    await store.put(keys.raw, new Response(packed, { headers: { "Content-Type": "application/octet-stream" } }));
    // the manifest last: once it is there, the snapshot is whole
    await store.put(keys.meta, new Response(JSON.stringify(meta), { headers: { "Content-Type": "application/json" } }));
    lap("kept");
    postMessage({ state: "kept", reason: "", ms });
  } catch (err) {
    postMessage({ state: "failed", reason: String((err && err.message) || err), ms });
  }
};
