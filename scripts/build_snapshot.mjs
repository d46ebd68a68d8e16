// Make a Pyodide memory snapshot with the sxmj package already imported (Node).
//
// Called by scripts/build_snapshot.py, which decides when a rebuild is needed and writes the
// manifest; this script only does what needs Pyodide. Input: a JSON job on stdin
//   {"pyodide": "<dir holding pyodide.mjs>", "files": {"sxmj/x.py": "/abs/path", ...},
//    "imports": ["sxmj.match", ...], "out": "/abs/path/sxmj-<key>.snap.gz", "level": 9}
// Output: the gzip-compressed snapshot at `out`, and a JSON report on stdout.
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
const gz = gzipSync(raw, { level: job.level ?? 9 });
writeFileSync(job.out, gz);
const done = performance.now();

console.log(JSON.stringify({
  pyodide: version,
  raw: raw.length,
  gzip: gz.length,
  ...JSON.parse(loaded),
  ms: {
    boot: Math.round(booted - t0),
    imports: Math.round(imported - booted),
    snapshot_and_gzip: Math.round(done - imported),
  },
}));
