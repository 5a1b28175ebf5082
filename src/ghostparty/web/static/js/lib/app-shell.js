// The installable app's part in every page (docs/playing.md, "Installing the app"):
// startAppShell(), called by each page's entry once its language is loaded, registers
// the service worker (/sw.js, scope /) after the page has loaded — silently nothing
// where service workers are unavailable (an insecure origin, a private window, an old
// browser) — and shows a bar on a page the worker served from its cache (the network
// failed; <html data-kept="true">) or while the browser says it is offline: playing
// needs the server.
//
// Hooks for tests (data-testid): offline-bar (shown while offline), offline-retry.

import { el } from "./dom.js";
import { t } from "./i18n.js";

/** Register the service worker once the page has loaded; any failure is ignored. */
export function registerWorker() {
  if (!("serviceWorker" in navigator)) return;
  const register = () => navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {});
  if (document.readyState === "complete") register();
  else addEventListener("load", register, { once: true });
}

let bar = null;

function offlineBar() {
  bar ??= el(
    "div",
    { class: "offline-bar", role: "status", "data-testid": "offline-bar" },
    el("span", {}, t("offline.bar")),
    el("button", { type: "button", class: "small", "data-testid": "offline-retry", onclick: () => location.reload() }, t("offline.retry")),
  );
  return bar;
}

/** Whether this page is the copy the service worker kept (static/sw.js marks it). */
function kept() {
  return document.documentElement.dataset.kept === "true";
}

function showOffline(offline) {
  if (offline || kept()) document.body.prepend(offlineBar());
  else bar?.remove();
}

/** The service worker and (unless `bar` is false) the offline bar, for every page. */
export function startAppShell({ bar: withBar = true } = {}) {
  registerWorker();
  if (!withBar) return;
  showOffline(navigator.onLine === false);
  addEventListener("offline", () => showOffline(true));
  addEventListener("online", () => showOffline(false));
}
