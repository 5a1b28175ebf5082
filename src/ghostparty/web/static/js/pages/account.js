// The account page, /login: log in or register (the seats this browser holds become the
// account's), and when logged in: change the password, delete the account, log out.
//
// Hooks for tests (data-testid): account (<main>, data-state = loading | guest | player);
// login-form with login-name, login-password, login, login-error; register-form with
// register-name, register-password, register-password2, register, register-error;
// player-view with account-name, profile-link, logout; password-form with old-password,
// new-password, new-password2, change-password, password-error, password-done;
// delete-view with delete-start, then delete-form with delete-password, delete-confirm,
// delete-cancel, delete-error; blocks-view with blocks-list (blocks.js); email-view
// (email-settings.js); forgot-password (to /email/reset); tokens-view (tokens.js);
// push-view (push-settings.js); open-data-view (open-data-choice.js); bot-account-view
// (bot-account.js); account-note (what just happened).
// ?next=/path comes back to that page of this site after logging in.

import { startAppShell } from "../lib/app-shell.js";
import { account, api } from "../lib/api.js";
import { showBlocks } from "../account/blocks.js";
import { showBotAccount } from "../account/bot-account.js";
import { el } from "../lib/dom.js";
import { showEmail, wireEmail } from "../account/email-settings.js";
import { applyI18n, initI18n, languageSwitch, t, tn } from "../lib/i18n.js";
import { showOpenDataChoice } from "../account/open-data-choice.js";
import { showPushSettings } from "../account/push-settings.js";
import { accountError, accountNav, profileUrl } from "../lib/session.js";
import { heldSeats } from "../lib/store.js";
import { hideSecret, setUpTokens, showTokens } from "../account/tokens.js";

const $ = (id) => document.getElementById(id);

const GUEST_VIEWS = ["login-view", "register-view"];
const PLAYER_VIEWS = ["player-view", "email-view", "bot-account-view", "blocks-view", "tokens-view", "push-view", "open-data-view", "password-view", "delete-view"];

/** Where to go after logging in: ?next= if it is a page of this site, else nowhere. */
function nextPage() {
  const next = new URLSearchParams(location.search).get("next") ?? "";
  return /^\/(?![/\\])/.test(next) && !next.startsWith("/login") ? next : null;
}

function note(text) {
  const node = $("account-note");
  node.textContent = text ?? "";
  node.hidden = !text;
}

function showError(id, text) {
  const node = $(id);
  node.textContent = text ?? "";
  node.hidden = !text;
}

/** Show the guest's or the player's forms, and the top bar to match. */
function render(player) {
  $("account").dataset.state = player ? "player" : "guest";
  for (const id of GUEST_VIEWS) $(id).hidden = Boolean(player);
  for (const id of PLAYER_VIEWS) $(id).hidden = !player;
  const nav = document.querySelector("[data-testid=account-nav]") ?? $("account-slot");
  nav?.replaceWith(accountNav(player));
  for (const form of document.querySelectorAll("form")) form.reset();
  for (const id of ["login-error", "register-error", "password-error", "delete-error"]) showError(id, null);
  $("password-done").hidden = true;
  $("delete-form").hidden = true;
  $("delete-start").hidden = false;
  hideSecret();
  if (player) {
    $("account-name").textContent = player.name;
    $("profile-link").href = profileUrl(player.name);
    showBlocks($("blocks-list"));
    showOpenDataChoice($("open-data-choice"));
    showPushSettings($("push-settings"));
    showEmail();
    showTokens();
    showBotAccount($("bot-account"), player);
    document.title = t("account.page_title", { name: player.name });
  } else {
    document.title = t("account.title");
  }
}

/** Run an account call from a form: the button waits, an error shows under the form. */
async function submitting(form, errorId, call) {
  const button = form.querySelector("button[type=submit]");
  button.disabled = true;
  showError(errorId, null);
  try {
    return await call();
  } catch (error) {
    showError(errorId, accountError(error));
    return null;
  } finally {
    button.disabled = false;
  }
}

function loggedIn(answer, greeting) {
  const next = nextPage();
  if (next) {
    location.href = next;
    return;
  }
  render(answer.player);
  note(greeting);
}

async function login(event) {
  event.preventDefault();
  const name = $("login-name").value.trim();
  const password = $("login-password").value;
  if (!name || !password) return showError("login-error", t("account.fill_in"));
  const answer = await submitting(event.target, "login-error", () => api.login(name, password, heldSeats()));
  if (answer) loggedIn(answer, t("account.welcome_back", { name: answer.player.name }));
}

async function register(event) {
  event.preventDefault();
  const name = $("register-name").value.trim();
  const password = $("register-password").value;
  if (!name || !password) return showError("register-error", t("account.fill_in"));
  if (password !== $("register-password2").value) return showError("register-error", t("account.passwords_differ"));
  const answer = await submitting(event.target, "register-error", () => api.register(name, password, heldSeats()));
  if (answer) loggedIn(answer, t("account.welcome", { name: answer.player.name }));
}

async function changePassword(event) {
  event.preventDefault();
  $("password-done").hidden = true;
  const old = $("old-password").value;
  const next = $("new-password").value;
  if (!old || !next) return showError("password-error", t("account.fill_in"));
  if (next !== $("new-password2").value) return showError("password-error", t("account.passwords_differ"));
  const answer = await submitting(event.target, "password-error", () => api.changePassword(old, next));
  if (answer) {
    event.target.reset();
    $("password-done").hidden = false;
  }
}

async function logout() {
  try {
    await api.logout();
  } catch (error) {
    note(accountError(error));
    return;
  }
  render(null);
  note(t("account.logged_out"));
}

function askDelete(show) {
  $("delete-form").hidden = !show;
  $("delete-start").hidden = show;
  showError("delete-error", null);
  if (show) $("delete-password").focus();
  else $("delete-form").reset();
}

async function deleteAccount(event) {
  event.preventDefault();
  const password = $("delete-password").value;
  if (!password) return showError("delete-error", t("account.fill_in"));
  const answer = await submitting(event.target, "delete-error", () => api.deleteAccount(password));
  if (answer) {
    render(null);
    note(t("account.deleted"));
  }
}

async function main() {
  await initI18n();
  startAppShell();
  applyI18n();
  $("lang-slot").replaceWith(languageSwitch());
  $("login-form").addEventListener("submit", login);
  $("register-form").addEventListener("submit", register);
  $("password-form").addEventListener("submit", changePassword);
  $("logout").addEventListener("click", logout);
  $("delete-start").addEventListener("click", () => askDelete(true));
  $("delete-cancel").addEventListener("click", () => askDelete(false));
  $("delete-form").addEventListener("submit", deleteAccount);
  wireEmail();
  setUpTokens();
  let player = null;
  try {
    player = (await account()).player ?? null;
  } catch (error) {
    note(accountError(error));
  }
  render(player);
  const seats = heldSeats().length;
  if (!player && seats) $("register-view").querySelector(".hint").append(" ", el("strong", {}, tn("account.seats_kept", seats)));
}

main();
