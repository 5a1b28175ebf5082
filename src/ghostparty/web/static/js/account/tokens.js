// A logged-in player's API tokens on the account page (docs/PROTOCOL.md, API tokens):
// the list (name, scopes, created, last used, expires) with a Revoke button each, the
// form that makes one, and the new token's secret, shown once with a Copy button.
//
// Hooks for tests (data-testid): tokens-view; tokens-list with api-token (data-name,
// data-id) and its revoke, or tokens-none; token-form with token-name,
// token-scope-read, token-scope-play, token-scope-bot, token-days, token-create,
// token-error; token-new with token-secret and token-copy.

import { api } from "../lib/api.js";
import { el, fill } from "../lib/dom.js";
import { currentLanguage, errorText, t } from "../lib/i18n.js";

const $ = (id) => document.getElementById(id);

function day(text) {
  return new Date(text).toLocaleDateString(currentLanguage(), { year: "numeric", month: "short", day: "numeric" });
}

function facts(token) {
  const parts = [token.scopes.join(", "), t("account.token_created", { date: day(token.created) })];
  parts.push(token.last_used ? t("account.token_last_used", { date: day(token.last_used) }) : t("account.token_never_used"));
  if (!token.expires) parts.push(t("account.token_no_expiry"));
  else if (new Date(token.expires) <= new Date()) parts.push(t("account.token_expired", { date: day(token.expires) }));
  else parts.push(t("account.token_expires", { date: day(token.expires) }));
  return parts.join(" · ");
}

function rows(tokens) {
  if (!tokens.length) return [el("li", { class: "hint", "data-testid": "tokens-none" }, t("account.token_none"))];
  return tokens.map((token) =>
    el(
      "li",
      { "data-testid": "api-token", "data-name": token.name, "data-id": String(token.id) },
      el("strong", {}, token.name),
      el("span", { class: "hint token-facts" }, facts(token)),
      el(
        "button",
        {
          type: "button",
          class: "small",
          "data-testid": "revoke",
          "aria-label": t("account.token_revoke_label", { name: token.name }),
          onclick: () => revoke(token),
        },
        t("account.token_revoke"),
      ),
    ),
  );
}

function showError(text) {
  $("token-error").textContent = text ?? "";
  $("token-error").hidden = !text;
}

/** Fill the list of tokens (again). */
export async function showTokens() {
  try {
    fill($("tokens-list"), ...rows((await api.tokens()).tokens));
  } catch (error) {
    fill($("tokens-list"), el("li", { role: "alert" }, errorText(error)));
  }
}

async function revoke(token) {
  showError(null);
  try {
    await api.revokeToken(token.id);
  } catch (error) {
    showError(errorText(error));
    return;
  }
  $("token-new").hidden = true;
  $("token-secret").value = "";
  await showTokens();
  $("tokens-list").append(el("li", { role: "status", "data-testid": "token-revoked" }, t("account.token_revoked", { name: token.name })));
}

async function create(event) {
  event.preventDefault();
  showError(null);
  const form = event.target;
  const name = $("token-name").value.trim();
  const scopes = [...form.querySelectorAll("input[name=scope]:checked")].map((box) => box.value);
  if (!name) return showError(t("account.fill_in"));
  if (!scopes.length) return showError(t("account.token_pick_scope"));
  const days = $("token-days").value ? Number($("token-days").value) : null;
  const button = form.querySelector("button[type=submit]");
  button.disabled = true;
  try {
    const answer = await api.createToken({ name, scopes, days });
    $("token-secret").value = answer.secret;
    $("token-new").hidden = false;
    form.reset();
    await showTokens();
    $("token-secret").select();
  } catch (error) {
    showError(errorText(error));
  } finally {
    button.disabled = false;
  }
}

async function copy() {
  const secret = $("token-secret");
  try {
    await navigator.clipboard.writeText(secret.value);
  } catch {
    secret.select();
    document.execCommand("copy");
  }
  $("token-copy").textContent = t("account.token_copied");
  setTimeout(() => ($("token-copy").textContent = t("account.token_copy")), 2000);
}

/** Wire the form and the copy button (once per page). */
export function setUpTokens() {
  $("token-form").addEventListener("submit", create);
  $("token-copy").addEventListener("click", copy);
}

/** Forget a shown secret (logging out, another account). */
export function hideSecret() {
  $("token-new").hidden = true;
  $("token-secret").value = "";
  showError(null);
}
