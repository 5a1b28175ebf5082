// Ghost Party's service worker: a classic script (not a module), served at /sw.js with
// scope / by ghostparty.server.http.routes.app_shell, which puts a line in front of this
// file that defines SHELL = {version, assets, pages}: the asset version, the versioned
// URLs of the client's files (/assets/{version}/…) and the pages to keep from the start
// (the offline page and the lobby).
//
// Install: keep SHELL.assets and SHELL.pages. Fetch: a versioned file from the cache
// first (its URL never changes meaning); a page from the network first, kept for later,
// and when the network fails (or the server's proxy answers 502–504) the kept page, else
// the offline page. The API (/api/), the sockets (/ws/), anything but GET and other
// sites go straight to the network, never kept. A page from the cache is marked
// <html data-kept="true"> and says that it is the kept copy. Activate: the caches of
// other versions are deleted. A new asset version is a new script, so browsers install
// it by themselves.
//
// Playing needs the server (the rules run there): offline, a kept page shows its shell
// and the offline page says so (docs/playing.md). The Web Push handlers (a notification
// for "your move", an invitation, a tournament about to start) are sw-push.js's.

/* global SHELL */

importScripts("/sw-push.js");

const PREFIX = "ghostparty-";
const ASSET_CACHE = `${PREFIX}assets-${SHELL.version}`;
const PAGE_CACHE = `${PREFIX}pages-${SHELL.version}`;
const OFFLINE_PAGE = "/offline";
/** The most pages kept besides the shell's (each table's page is one). */
const MAX_PAGES = 40;
/** What a proxy answers while the server behind it is away: treated as offline. */
const AWAY = new Set([502, 503, 504]);

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const assets = await caches.open(ASSET_CACHE);
      await assets.addAll(SHELL.assets);
      const pages = await caches.open(PAGE_CACHE);
      await pages.addAll(SHELL.pages.map((page) => new Request(page, { cache: "no-cache" })));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const current = new Set([ASSET_CACHE, PAGE_CACHE]);
      const names = await caches.keys();
      await Promise.all(names.filter((name) => name.startsWith(PREFIX) && !current.has(name)).map((name) => caches.delete(name)));
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/api/") || url.pathname.startsWith("/ws/")) return;
  if (url.pathname.startsWith("/assets/")) {
    event.respondWith(fromCacheFirst(event, url));
  } else if (request.mode === "navigate") {
    event.respondWith(fromNetworkFirst(event, url));
  }
});

/** A versioned file: kept, else fetched (and kept if it is of this version). */
async function fromCacheFirst(event, url) {
  const request = event.request;
  const kept = await caches.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok && url.pathname.startsWith(`/assets/${SHELL.version}/`)) {
    const copy = response.clone();
    event.waitUntil(caches.open(ASSET_CACHE).then((cache) => cache.put(request, copy)));
  }
  return response;
}

/** A page: from the server and kept (by its path), else the kept one, else the offline page. */
async function fromNetworkFirst(event, url) {
  const key = url.origin + url.pathname;
  try {
    const response = await fetch(event.request);
    if (!AWAY.has(response.status)) {
      if (response.status === 200 && response.type === "basic") event.waitUntil(keepPage(key, response.clone()));
      return response;
    }
  } catch {
    // Offline, or the server is away: what was kept.
  }
  const cache = await caches.open(PAGE_CACHE);
  const kept = (await cache.match(key)) ?? (await cache.match(OFFLINE_PAGE));
  return kept ? marked(kept) : Response.error();
}

/** A kept page marked as such (<html data-kept="true">): it shows the offline bar (js/lib/app-shell.js). */
async function marked(response) {
  const html = await response.text();
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  headers.delete("etag");
  return new Response(html.replace(/<html\b/, '<html data-kept="true"'), { status: 200, headers });
}

async function keepPage(key, response) {
  const cache = await caches.open(PAGE_CACHE);
  await cache.put(key, response);
  const keys = await cache.keys();
  const shell = new Set(SHELL.pages.map((page) => new URL(page, self.location.origin).href));
  const extra = keys.filter((request) => !shell.has(request.url));
  await Promise.all(extra.slice(0, Math.max(0, extra.length - MAX_PAGES)).map((request) => cache.delete(request)));
}
