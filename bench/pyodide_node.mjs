// Runs bench/workloads.py inside Pyodide under Node (the same vendored npm package the
// browser uses) and prints one JSON line. Usage: node bench/pyodide_node.mjs '<python expr>'
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { loadPyodide } from "pyodide";

const root = fileURLToPath(new URL("..", import.meta.url));
const py = await loadPyodide();

function copyTree(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name === "__pycache__" || name === "out") continue;
    const rel = relative(root, path);
    if (statSync(path).isDirectory()) {
      py.FS.mkdirTree("/home/pyodide/" + rel);
      copyTree(path);
    } else if (name.endsWith(".py")) {
      py.FS.writeFile("/home/pyodide/" + rel, readFileSync(path));
    }
  }
}
py.FS.mkdirTree("/home/pyodide/sxmj");
py.FS.mkdirTree("/home/pyodide/bench");
copyTree(join(root, "sxmj"));
copyTree(join(root, "bench"));
const expr = process.argv[2];
const out = py.runPython(`
import json, sys, time
sys.path[:0] = ["/home/pyodide", "/home/pyodide/bench"]
import workloads as W
json.dumps(${expr})
`);
console.log(out);
