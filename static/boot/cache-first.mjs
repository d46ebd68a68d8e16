// For the workers of static/boot/: every fetch they make (the runtime's files, the build's
// kit) is answered from the site's cache first, where the service worker has put them, so
// a worker starts offline too; else from the network (a dev page, or no cache storage).

/** Makes this worker's `fetch` look in the site's cache before the network. */
export function fetchCacheFirst() {
  const realFetch = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    const request = input instanceof Request ? input : new Request(new URL(input, location.href), init);
    try {
      const hit = await caches.match(request);
      if (hit) return hit;
    } catch {
      // no cache storage: the network
    }
    return realFetch(input, init);
  };
}
