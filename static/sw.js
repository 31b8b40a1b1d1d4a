// Sprout's service worker: the site keeps working with the network off once it has loaded.
// Network first (so a new deployment is used as soon as it is reachable), the cache when the
// network fails. The cache is named after the build (`cargo xtask web-build` writes the build id
// below: a hash of the built files), so a new version's first visit fills a new cache and drops
// the old one. Registered by index.html with its own folder as scope, so a copy of dist/ under
// any sub-path caches only itself.
const BUILD = '__SPROUT_BUILD__';
const CACHE = `sprout-${BUILD}`;
// The app's files, relative to this script: the pages, and every file of the build
// (`xtask web-build` lists them on the next line, wasm-bindgen's snippets included).
const BUILT_FILES = [];
const FILES = ['./', ...BUILT_FILES];

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // One missing file must not keep the worker from installing: cache what loads.
    await Promise.all(FILES.map((file) => cache.add(new URL(file, self.registration.scope)).catch(() => {})));
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith('sprout-') && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || !request.url.startsWith(self.registration.scope)) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    try {
      const response = await fetch(request);
      if (response.ok && response.type === 'basic') await cache.put(request, response.clone());
      return response;
    } catch (offline) {
      // `index.html?db=shop`, `worker.js?db=shop`: the same file as without the query.
      const cached = await cache.match(request, { ignoreSearch: true })
        || (request.mode === 'navigate' ? await cache.match(new URL('./', self.registration.scope)) : undefined);
      if (cached) return cached;
      throw offline;
    }
  })());
});
