// The service worker's push part (a classic script: /sw.js imports it with importScripts).
//
// A push's data is the server's JSON {kind, title, body, url, unsubscribe}
// (docs/PROTOCOL.md, "Web Push"): it is shown as a notification with an "Unsubscribe"
// action. A click opens the url (or focuses a window already there); the action ends this
// device's subscription, in the browser and on the server (DELETE /api/account/push with
// the subscription's auth secret: a worker has no CSRF token).

"use strict";

const PUSH_ICON = "/ghost.svg";

function pushMessage(event) {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { body: event.data ? event.data.text() : "" };
  }
  return {
    kind: data.kind || "message",
    title: data.title || "Ghost Party",
    body: data.body || "",
    url: typeof data.url === "string" && data.url.startsWith("/") ? data.url : "/",
    unsubscribe: data.unsubscribe || "Unsubscribe",
  };
}

self.addEventListener("push", (event) => {
  const message = pushMessage(event);
  event.waitUntil(
    self.registration.showNotification(message.title, {
      body: message.body,
      icon: PUSH_ICON,
      tag: `${message.kind}:${message.url}`,
      data: { url: message.url, kind: message.kind },
      actions: [{ action: "unsubscribe", title: message.unsubscribe }],
    }),
  );
});

async function unsubscribeDevice() {
  const subscription = await self.registration.pushManager.getSubscription();
  if (!subscription) return;
  const { endpoint, keys } = subscription.toJSON();
  await fetch("/api/account/push", {
    method: "DELETE",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify({ endpoint, auth: keys.auth }),
  }).catch(() => null);
  await subscription.unsubscribe();
}

async function openPage(url) {
  const target = new URL(url, self.location.origin).href;
  const open = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  for (const client of open) {
    if (client.url === target && "focus" in client) return client.focus();
  }
  return self.clients.openWindow(target);
}

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  if (event.action === "unsubscribe") {
    event.waitUntil(unsubscribeDevice());
    return;
  }
  event.waitUntil(openPage((event.notification.data && event.notification.data.url) || "/"));
});
