// The account page's "Notifications" card: a switch that turns Web Push on or off for
// this browser (docs/accounts.md, "Notifications on a device"). On: the browser's
// permission, the service worker (/sw.js, which imports /sw-push.js), a subscription with
// the server's key (GET /api/account/push), posted to the server. Off: the server forgets
// the device (DELETE /api/account/push) and the browser's subscription ends.
//
// Hooks for tests (data-testid): push-switch (the checkbox), push-status.

import { api } from "../lib/api.js";
import { el, fill } from "../lib/dom.js";
import { currentLanguage, errorText, t } from "../lib/i18n.js";

function supported() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

async function registration() {
  await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  return navigator.serviceWorker.ready;
}

async function turnOn(key) {
  if ((await Notification.requestPermission()) !== "granted") throw new Error(t("push.denied"));
  const worker = await registration();
  const subscription =
    (await worker.pushManager.getSubscription()) ??
    (await worker.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }));
  await api.pushSubscribe(subscription.toJSON(), currentLanguage());
}

async function turnOff() {
  const worker = await registration();
  const subscription = await worker.pushManager.getSubscription();
  if (!subscription) return;
  await api.pushUnsubscribe(subscription.endpoint).catch((error) => {
    if (error.code !== "not_found") throw error; // forgotten already
  });
  await subscription.unsubscribe();
}

async function isOn() {
  if (Notification.permission !== "granted") return false;
  const worker = await navigator.serviceWorker.getRegistration("/");
  return Boolean(worker && (await worker.pushManager.getSubscription()));
}

/** Fill `container` with the switch, as this browser has it. */
export async function showPushSettings(container) {
  if (!supported()) {
    fill(container, el("p", { class: "hint", "data-testid": "push-status" }, t("push.unsupported")));
    return;
  }
  let state;
  try {
    state = await api.pushState();
  } catch (error) {
    fill(container, el("p", { class: "form-error", role: "alert" }, errorText(error)));
    return;
  }
  const status = el("p", { class: "form-ok", role: "status", "data-testid": "push-status", hidden: true });
  const box = el("input", { type: "checkbox", id: "push-switch", "data-testid": "push-switch" });
  box.checked = await isOn();
  if (Notification.permission === "denied") {
    status.className = "form-error";
    status.textContent = t("push.denied");
    status.hidden = false;
  }
  box.addEventListener("change", async () => {
    box.disabled = true;
    const wanted = box.checked;
    try {
      await (wanted ? turnOn(state.key) : turnOff());
      status.className = "form-ok";
      status.textContent = t(wanted ? "push.on" : "push.off");
    } catch (error) {
      box.checked = !wanted;
      status.className = "form-error";
      status.textContent = error.code ? errorText(error) : error.message || t("push.failed");
    } finally {
      box.disabled = false;
      status.hidden = false;
    }
  });
  fill(container, el("label", { class: "check" }, box, " ", t("push.switch")), status);
}
