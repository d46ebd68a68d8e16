// Compile the part of Python's standard library that the pages use, with the pinned Pyodide
// itself (Node): the first visit's standard library.
//
// Called by scripts/build_snapshot.py, which decides when a rebuild is needed and writes the
// manifest; this script only does what needs Pyodide. Input: a JSON job on stdin
//   {"pyodide": "<dir holding pyodide.mjs>", "files": {"sxmj/x.py": "/abs/path", ...},
//    "imports": ["sxmj.match", ...], "seeds": ["asyncio", ...], "out": "/abs/path/x.zip"}
// It boots Pyodide with the vendored python_stdlib.zip, writes the sxmj sources where PyScript
// puts them (/home/pyodide, the interpreter's cwd), imports `imports` (what the device's memory
// snapshot will hold) and `seeds` (every other module the sources, the pages' entry scripts and
// PyScript's Python name anywhere, even inside a function; a name that is no module is
// skipped), and writes to `out` a zip of every standard module that was loaded, compiled to
// bytecode (.pyc, unchecked hash-based: nothing is compared with a source at import time; the
// code objects name /lib/python314.zip/<path>.py, as the vendored zip's would; as `python -OO`
// would, without docstrings and asserts; the frozen ones, which the runtime holds, left out):
// the browser then compiles none of them, which is most of a normal boot's time. Output: a
// JSON report.

import { readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { pathToFileURL } from "node:url";

const job = JSON.parse(readFileSync(0, "utf8"));
const { loadPyodide, version } = await import(pathToFileURL(`${job.pyodide}/pyodide.mjs`).href);

const t0 = performance.now();
const py = await loadPyodide({ stdout: () => {}, stderr: (m) => console.error(m) });
const booted = performance.now();

const home = py.runPython("import os; os.getcwd()");
for (const [rel, abs] of Object.entries(job.files)) {
  const target = `${home}/${rel}`;
  py.FS.mkdirTree(dirname(target));
  py.FS.writeFile(target, readFileSync(abs));
}

py.globals.set("_job", py.toPy({ imports: job.imports, seeds: job.seeds }));
const report = py.runPython(`
import importlib, importlib.util, json, os, sys, traceback, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc

_failed = {}
for _name in _job["imports"]:
    try:
        importlib.import_module(_name)
    except Exception:  # left out of the device's snapshot; the page imports it itself
        _failed[_name] = traceback.format_exc(limit=-1).strip().splitlines()[-1]
_skipped = []
for _name in _job["seeds"]:
    try:
        importlib.import_module(_name)
    except BaseException:  # a name that is no standard module (or not here): nothing to keep
        _skipped.append(_name)

_stdlib = next(p for p in sys.path if p.endswith(".zip"))
_prefix = _stdlib + "/"
_used = sorted({
    m.__file__[len(_prefix):]
    for m in list(sys.modules.values())
    if getattr(m, "__file__", None) and m.__file__.startswith(_prefix) and m.__file__.endswith(".py")
    and getattr(m.__spec__, "origin", None) != "frozen"  # (os, codecs, io...: in the runtime)
})
_home = os.getcwd() + "/"
_loaded = sorted(
    m.__file__[len(_home):]
    for m in list(sys.modules.values())
    if getattr(m, "__file__", None) and m.__file__.startswith(_home)
)
_source = zipfile.ZipFile(_stdlib)
_out = zipfile.ZipFile("/tmp/stdlib.zip", "w", zipfile.ZIP_DEFLATED, compresslevel=9)
for _rel in _used:
    _text = _source.read(_rel)
    # optimize=2 (python -OO): no docstrings, no asserts: 15 % smaller; the standard library's
    # code does not rely on either (sxmj's own code is compiled by the page, as written)
    _code = compile(_text, _prefix + _rel, "exec", dont_inherit=True, optimize=2)
    _pyc = _code_to_hash_pyc(_code, importlib.util.source_hash(_text), checked=False)
    _info = zipfile.ZipInfo(_rel[:-3] + ".pyc", (2020, 1, 1, 0, 0, 0))  # reproducible
    _info.compress_type = zipfile.ZIP_DEFLATED
    _out.writestr(_info, bytes(_pyc))
_out.close()
_report = json.dumps({
    "stdlib": _stdlib, "used": _used, "loaded": _loaded, "failed": _failed,
    "skipped": sorted(_skipped), "modules": len(sys.modules),
})
_report
`);
writeFileSync(job.out, py.FS.readFile("/tmp/stdlib.zip"));
const done = performance.now();

console.log(JSON.stringify({
  pyodide: version,
  ...JSON.parse(report),
  ms: { boot: Math.round(booted - t0), imports_and_compile: Math.round(done - booted) },
}));
