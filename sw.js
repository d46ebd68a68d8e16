// Service worker of the built site: offline play and fast reloads (registered, once a page
// with html[data-sw] is ready, by static/js/page-boot.js).
//
// `make site` (scripts/build_site.py) writes BUILD, a hash of every file of the site, and
// FILES, what the pages use (not the command line's modules, nor PyScript's editor and
// terminal) with the hash of each (the first 16 hex digits of its SHA-256). Installing fills
// the cache "sxmj-<BUILD>" with them, downloading nothing this device already has: each file is
// taken, when its hash is the build's, from this cache (on a first visit the page has put there
// what it downloaded), from another build's cache (a deploy downloads only what changed), or
// from the HTTP cache; only the rest comes from the network. Once active, the worker deletes
// every other "sxmj-" cache, so a new deploy (a new sw.js) replaces the old cache whole (and
// with it the device's memory snapshot of the old code). It answers same-origin GET requests
// below its scope from that cache first, and caches what it had to fetch. URLs are relative to
// this script, so the site works under any sub-path.
// In the repository (BUILD "dev", `make play`) the pages do not register it; if it runs
// anyway it leaves every request to the network, so edited files are always fresh.

const BUILD = "dev";
const FILES = {};
const CACHE = `sxmj-${BUILD}`;
const AT_ONCE = 6;  // files looked up or fetched at the same time
let opened = null;  // caches.open once per worker start, not once per request
const cache = () => (opened ??= caches.open(CACHE));

/** The build's hash of a response's body: the first 16 hex digits of its SHA-256. */
async function hashOf(response) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", await response.clone().arrayBuffer()));
  return [...digest.subarray(0, 8)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** `response` if it holds the build's file of hash `hash`, else null. */
async function checked(response, hash) {
  if (!response || !response.ok) return null;
  return (await hashOf(response)) === hash ? response : null;
}

async function fetched(request, mode) {
  try {
    return await fetch(request, { cache: mode });
  } catch {
    return null;
  }
}

/** Run `job` on every item, AT_ONCE at a time. */
async function each(items, job) {
  let next = 0;
  await Promise.all(Array.from({ length: AT_ONCE }, async () => {
    while (next < items.length) await job(items[next++]);
  }));
}

async function fill() {
  const store = await cache();
  const found = new Map();  // hash -> a response holding it
  const missing = [];
  // 1. what this device has: this cache (the page's downloads), then any other cache
  await each(Object.entries(FILES), async ([file, hash]) => {
    const request = new Request(file);
    const response = await checked(await store.match(request), hash) ||
      await checked(await caches.match(request), hash);
    if (response) {
      found.set(hash, response);
      await store.put(request, response.clone());
    } else {
      missing.push([file, hash]);
    }
  });
  // 2. the same bytes under another name ("./" is index.html), the HTTP cache, the network
  // ("reload": when the HTTP cache holds another build's copy)
  await each(missing, async ([file, hash]) => {
    const request = new Request(file);
    const response = found.get(hash)?.clone() ||
      await checked(await fetched(request, "force-cache"), hash) ||
      await checked(await fetched(request, "reload"), hash);
    if (!response) throw new Error(`sxmj: ${file} is not this build's (a newer deploy?)`);
    found.set(hash, response);
    await store.put(request, response.clone());
  });
}

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    if (BUILD !== "dev") await fill();
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    await Promise.all(
      names.filter((name) => name.startsWith("sxmj-") && name !== CACHE).map((name) => caches.delete(name)),
    );
    await self.clients.claim();
  })());
});

async function fromCache(request) {
  const store = await cache();
  const page = request.mode === "navigate";
  // a navigation may carry a query (?seed=...): the page is the same file
  const hit = await store.match(request, { ignoreSearch: page }) ||
    (page && await store.match(new URL("./", self.registration.scope).href));
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok && response.type === "basic") await store.put(request, response.clone());
  return response;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (BUILD === "dev" || request.method !== "GET") return;
  if (new URL(request.url).origin !== self.location.origin) return;
  if (!request.url.startsWith(self.registration.scope)) return;
  event.respondWith(fromCache(request));
});
