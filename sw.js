// Service worker of the built site: offline play and fast reloads (registered, once a page
// with html[data-sw] is ready, by static/js/page-boot.js).
//
// `make site` (scripts/build_site.py) writes BUILD, a hash of every file of the site, and
// FILES, the list of them. Installing caches all of them in the cache "sxmj-<BUILD>" (the
// runtime, the memory snapshot, the game); once active, the worker deletes every other
// "sxmj-" cache, so a new deploy (a new sw.js) replaces the old cache whole. It answers
// same-origin GET requests below its scope from that cache first, and caches what it had
// to fetch. URLs are relative to this script, so the site works under any sub-path.
// In the repository (BUILD "dev", `make play`) the pages do not register it; if it runs
// anyway it leaves every request to the network, so edited files are always fresh.

const BUILD = "dev";
const FILES = [];
const CACHE = `sxmj-${BUILD}`;
let opened = null;  // caches.open once per worker start, not once per request
const cache = () => (opened ??= caches.open(CACHE));

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    if (BUILD !== "dev") {
      // "no-cache": revalidate with the server, so an older deploy in the HTTP cache never
      // gets into this build's cache (unchanged files cost a 304).
      await (await cache()).addAll(FILES.map((file) => new Request(file, { cache: "no-cache" })));
    }
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
