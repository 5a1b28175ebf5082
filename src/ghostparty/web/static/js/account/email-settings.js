// The email card of the account page: give an address (a confirmation link is mailed),
// see it masked and whether it is confirmed, choose reminders and invitations, remove it.
// When the server sends no email, the card says so (docs/PROTOCOL.md, "Email").
//
// Hooks for tests (data-testid): email-view, email-off, email-current, email-form with
// email-address, email-save, email-remove, email-choices with email-reminders and
// email-invitations, email-error, email-done.

import { api } from "../lib/api.js";
import { accountError } from "../lib/session.js";
import { currentLanguage, t } from "../lib/i18n.js";

const $ = (id) => document.getElementById(id);

function say(id, text) {
  $(id).textContent = text ?? "";
  $(id).hidden = !text;
}

function render(state) {
  $("email-off").hidden = state.enabled !== false;
  $("email-form").hidden = state.enabled === false;
  const has = Boolean(state.address);
  $("email-current").hidden = !has;
  if (has) {
    $("email-current").textContent = t(state.confirmed ? "email.current_confirmed" : "email.current_waiting", {
      address: state.address,
    });
  }
  $("email-remove").hidden = !has;
  $("email-choices").hidden = !(has && state.confirmed);
  $("email-reminders").checked = Boolean(state.reminders);
  $("email-invitations").checked = Boolean(state.invitations);
}

/** Ask the server for the account's email state and show it. */
export async function showEmail() {
  say("email-error", null);
  say("email-done", null);
  try {
    render(await api.email());
  } catch (error) {
    say("email-error", accountError(error));
  }
}

async function change(call, done) {
  say("email-error", null);
  say("email-done", null);
  try {
    render(await call());
    if (done) say("email-done", done);
    return true;
  } catch (error) {
    say("email-error", accountError(error));
    return false;
  }
}

/** Wire the card's form and buttons (once per page). */
export function wireEmail() {
  $("email-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const address = $("email-address").value.trim();
    if (!address) return say("email-error", t("email.fill_in"));
    if (await change(() => api.setEmail(address, currentLanguage()), t("email.sent"))) $("email-address").value = "";
  });
  $("email-remove").addEventListener("click", () => change(() => api.removeEmail(), t("email.removed")));
  for (const kind of ["reminders", "invitations"]) {
    $(`email-${kind}`).addEventListener("change", (event) =>
      change(() => api.emailChoices({ [kind]: event.target.checked }), t("email.saved")),
    );
  }
}
