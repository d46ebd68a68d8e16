// The hand review (复盘) off the main thread: a second Pyodide, in this worker, runs
// sxmj.bots.review.review_steps while the page stays free (sxmj/ui/table/review/worker.py
// starts it, on the first review of a visit, and keeps it for the next ones).
//
// A plain module worker: it needs no SharedArrayBuffer, so no COOP/COEP headers (GitHub Pages
// sends none). Every message either way is a JSON string.
//
// In:  {type: "review", id, stdlib, sources, record, hand, seat}: review `seat`'s decisions in
//      `hand` (null: every hand) of `record` (the record's JSON text). `stdlib` is the build's
//      compiled standard library (its URL; null: the vendored one), `sources` {path: text} the
//      page's own sxmj modules, written where the page's are (the same code, never a stale
//      copy); both are used by the first job only (the worker starts once), and later jobs
//      send null.
//      {type: "cancel", id}: stop job `id` (what it found is dropped).
// Out: {type: "started", ms}: the worker's Pyodide is up (once);
//      {type: "progress", id, done, total}: guesses done, at most every PROGRESS_MS;
//      {type: "done", id, review, heap}: sxmj.bots.review.Review.to_wire(), and the bytes of
//      this worker's WebAssembly memory (null where Pyodide doesn't show it): what a phone's
//      tab holds for the review beside the page's own Pyodide, for the browser tests to record;
//      {type: "failed", id, stage: "start" | "review", reason}.
//
// A job runs in chunks of a few playouts (CHUNK) for about SLICE_MS, then yields to this
// worker's event loop, so a cancel or a newer job gets in: only the newest job runs.

import { loadPyodide } from "../vendor/pyodide/pyodide.mjs";
import { fetchCacheFirst } from "./cache-first.mjs";

const RUNTIME = new URL("../vendor/pyodide/", import.meta.url).href;
const SLICE_MS = 50;  // runs back to back this long, then reads its messages
const PROGRESS_MS = 100;  // the page's bar moves at most this often
const CHUNK = 4;  // playouts between two looks at the clock (one is ~2 ms)

fetchCacheFirst();  // the runtime from the site's cache first (offline too)

// Python's side: a job is a function that advances the review by n playouts and says where
// it stands, {"done", "total"}, with "review" once the last one is played.
const GLUE = `
import json
from sxmj.bots.review import review_steps

def _sxmj_review_job(record_text, hand, seat):
    steps = review_steps(json.loads(record_text), seat, hand, per_guess=True)
    where = [0, 0, None]

    def advance(n):
        for _ in range(n):
            step = next(steps, None)
            if step is None:
                done, total, review = where
                return json.dumps({"done": total, "total": total, "review": review.to_wire()})
            where[:] = step
        return json.dumps({"done": where[0], "total": where[1]})

    return advance
`;

let python = null;  // a promise of the started Pyodide
let current = null;  // the id of the job that runs (or waits for the start)

const send = (message) => postMessage(JSON.stringify(message));
const reason = (err) => String((err && err.message) || err).slice(-2000);

async function start({ stdlib, sources }) {
  const t0 = performance.now();
  const py = await loadPyodide({
    indexURL: RUNTIME, ...(stdlib ? { stdLibURL: stdlib } : {}), stdout: () => {}, stderr: () => {},
  });
  if (!sources || typeof sources !== "object") throw new Error("no sources to start with");
  for (const [path, text] of Object.entries(sources)) {
    if (!/^sxmj\/[\w/]+\.py$/.test(path)) throw new Error(`not a module of the package: ${path}`);
    const target = `/home/pyodide/${path}`;
    py.FS.mkdirTree(target.slice(0, target.lastIndexOf("/")));
    py.FS.writeFile(target, text);
  }
  py.runPython(GLUE);
  send({ type: "started", ms: Math.round(performance.now() - t0) });
  return py;
}

const pause = () => new Promise((resolve) => setTimeout(resolve, 0));
// Pyodide keeps its Emscripten module private; its heap's size is the one figure read from it
const heapBytes = (py) => py._module?.HEAPU8?.byteLength ?? null;

async function run(job) {
  let py;
  try {
    python ??= start(job);
    py = await python;
  } catch (err) {
    python = null;  // a later job tries again
    send({ type: "failed", id: job.id, stage: "start", reason: reason(err) });
    return;
  }
  if (current !== job.id) return;
  let advance = null;
  try {
    advance = py.globals.get("_sxmj_review_job")(job.record, job.hand, job.seat);
    let posted = -Infinity;
    for (;;) {
      const began = performance.now();
      let where;
      do {
        where = JSON.parse(advance(CHUNK));
      } while (!where.review && performance.now() - began < SLICE_MS);
      if (where.review) {
        send({ type: "done", id: job.id, review: where.review, heap: heapBytes(py) });
        return;
      }
      if (performance.now() - posted >= PROGRESS_MS) {
        send({ type: "progress", id: job.id, done: where.done, total: where.total });
        posted = performance.now();
      }
      await pause();
      if (current !== job.id) return;  // cancelled, or a newer job
    }
  } catch (err) {
    send({ type: "failed", id: job.id, stage: "review", reason: reason(err) });
  } finally {
    advance?.destroy();
  }
}

onmessage = ({ data }) => {
  let message;
  try {
    message = JSON.parse(data);
  } catch {
    return;  // not ours
  }
  if (message.type === "cancel") {
    if (current === message.id) current = null;
  } else if (message.type === "review") {
    current = message.id;
    run(message);
  }
};
