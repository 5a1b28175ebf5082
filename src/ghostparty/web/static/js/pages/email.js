// The pages of the links in emails (docs/PROTOCOL.md, "Email"): /email/confirm#TOKEN
// confirms an address; /email/reset asks for a reset link, /email/reset#TOKEN sets a new
// password; /email/unsubscribe?token=… turns a kind of email off. A token in the
// fragment never reaches the server's logs nor another site (and the page sends no
// referrer); the page posts it, so that merely opening a link (a mail scanner) changes
// nothing but the confirmation.
//
// Hooks for tests (data-testid): email-page (data-state = loading | ready | done |
// failed), email-note; reset-ask with reset-address, reset-send, reset-ask-error;
// reset-set with reset-password, reset-password2, reset-save, reset-error;
// unsubscribe with unsubscribe-button, unsubscribe-error.

import { startAppShell } from "../lib/app-shell.js";
import { api } from "../lib/api.js";
import { applyI18n, initI18n, languageSwitch, t } from "../lib/i18n.js";
import { accountError } from "../lib/session.js";

const $ = (id) => document.getElementById(id);

function note(text, state) {
  $("email-note").textContent = text;
  $("email-note").hidden = !text;
  $("email").dataset.state = state;
}

function showError(id, text) {
  $(id).textContent = text ?? "";
  $(id).hidden = !text;
}

async function confirm(token) {
  try {
    await api.confirmEmail(token);
    note(t("email.confirmed"), "done");
  } catch (error) {
    note(accountError(error), "failed");
  }
}

function askReset() {
  $("reset-ask").hidden = false;
  $("reset-ask-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const address = $("reset-address").value.trim();
    if (!address) return showError("reset-ask-error", t("email.fill_in"));
    showError("reset-ask-error", null);
    try {
      await api.resetRequest(address);
      $("reset-ask").hidden = true;
      note(t("email.reset_sent"), "done");
    } catch (error) {
      showError("reset-ask-error", accountError(error));
    }
  });
}

function setPassword(token) {
  $("reset-set").hidden = false;
  $("reset-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const password = $("reset-password").value;
    if (!password) return showError("reset-error", t("email.fill_in"));
    if (password !== $("reset-password2").value) return showError("reset-error", t("account.passwords_differ"));
    const button = $("reset-form").querySelector("button");
    button.disabled = true;
    showError("reset-error", null);
    try {
      const answer = await api.resetPassword(token, password);
      $("reset-set").hidden = true;
      history.replaceState(null, "", location.pathname); // the used token leaves the address bar
      note(t("email.reset_done", { name: answer.name }), "done");
    } catch (error) {
      showError("reset-error", accountError(error));
    } finally {
      button.disabled = false;
    }
  });
}

function unsubscribe(token) {
  $("unsubscribe").hidden = false;
  $("unsubscribe-button").addEventListener("click", async () => {
    try {
      const answer = await api.unsubscribe(token);
      $("unsubscribe").hidden = true;
      note(t(`email.unsubscribed.${answer.unsubscribed}`), "done");
    } catch (error) {
      showError("unsubscribe-error", accountError(error));
    }
  });
}

async function main() {
  // a link opened over this very page changes only the fragment: read it afresh
  window.addEventListener("hashchange", () => location.reload());
  await initI18n();
  startAppShell();
  applyI18n();
  $("lang-slot").replaceWith(languageSwitch());
  const what = location.pathname.split("/")[2] ?? "";
  const token = location.hash.slice(1);
  $("email").dataset.state = "ready";
  if (what === "confirm" && token) await confirm(token);
  else if (what === "reset" && token) setPassword(token);
  else if (what === "reset") askReset();
  else if (what === "unsubscribe" && new URLSearchParams(location.search).get("token")) {
    unsubscribe(new URLSearchParams(location.search).get("token"));
  } else note(t("email.bad_link"), "failed");
}

main();
