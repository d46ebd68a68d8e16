// Make a Pyodide memory snapshot with the sxmj package already imported (Node).
//
// Called by scripts/build_snapshot.py, which decides when a rebuild is needed and writes the
// manifest; this script only does what needs Pyodide. Input: a JSON job on stdin
//   {"pyodide": "<dir holding pyodide.mjs>", "files": {"sxmj/x.py": "/abs/path", ...},
//    "imports": ["sxmj.match", ...], "out": "/abs/path/sxmj-<key>.snap.gz", "level": 9}
// Output: the gzip-compressed snapshot at `out` (its parts that are not zeros, one after the
// other: `runs` in the report says where each goes), and a JSON report on stdout.
//
// The files go where PyScript's [files] puts them: "./sxmj/x.py" relative to Pyodide's cwd,
// /home/pyodide, so the modules' __file__ and tracebacks match the browser.

import { readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";

const job = JSON.parse(readFileSync(0, "utf8"));
const { loadPyodide, version } = await import(pathToFileURL(`${job.pyodide}/pyodide.mjs`).href);

const t0 = performance.now();
const py = await loadPyodide({ _makeSnapshot: true, stdout: () => {}, stderr: (m) => console.error(m) });
const booted = performance.now();

const home = py.runPython("import os; os.getcwd()");
for (const [rel, abs] of Object.entries(job.files)) {
  const target = `${home}/${rel}`;
  py.FS.mkdirTree(dirname(target));
  py.FS.writeFile(target, readFileSync(abs));
}

py.globals.set("_sxmj_imports", py.toPy(job.imports));
const loaded = py.runPython(`
import importlib, json, os, sys, traceback
_failed = {}
for _name in _sxmj_imports:
    try:
        importlib.import_module(_name)
    except Exception:  # left out of the snapshot; the page imports it itself
        _failed[_name] = traceback.format_exc(limit=-1).strip().splitlines()[-1]
_home = os.getcwd() + "/"
_loaded = sorted(
    m.__file__[len(_home):]
    for m in list(sys.modules.values())
    if getattr(m, "__file__", None) and m.__file__.startswith(_home)
)
# Forget the directory listings cached by the import system: after a restore the files are
# written anew by PyScript, and a later import must look at them, not at this build's FS.
sys.path_importer_cache.clear()
importlib.invalidate_caches()
_report = json.dumps({"loaded": _loaded, "failed": _failed, "modules": len(sys.modules)})
del _name, _home, _sxmj_imports, _loaded, _failed
_report
`);
py.runPython("del _report");
const imported = performance.now();

const raw = py.makeMemorySnapshot();
// About half of the memory is zeros, in a few long stretches (the heap not in use). Only the
// other parts are stored ("runs": [offset, length] in 4 KB pages): the page inflates half as
// much, and its buffer for the snapshot starts as zeros anyway.
const PAGE = 4096;
const runs = [];
for (let at = 0; at < raw.length; at += PAGE) {
  const page = raw.subarray(at, Math.min(at + PAGE, raw.length));
  if (page.every((b) => b === 0)) continue;
  const last = runs[runs.length - 1];
  if (last && last[0] + last[1] === at) last[1] += page.length;
  else runs.push([at, page.length]);
}
const packed = Buffer.concat(runs.map(([at, length]) => raw.subarray(at, at + length)));
const gz = gzipSync(packed, { level: job.level ?? 9 });
writeFileSync(job.out, gz);
const done = performance.now();

console.log(JSON.stringify({
  pyodide: version,
  raw: raw.length,
  packed: packed.length,
  runs,
  gzip: gz.length,
  ...JSON.parse(loaded),
  ms: {
    boot: Math.round(booted - t0),
    imports: Math.round(imported - booted),
    snapshot_and_gzip: Math.round(done - imported),
  },
}));
