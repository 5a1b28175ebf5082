// Who is logged in, as every page shows it: the top bar's "Log in" link or the player's
// name, the leaderboard link, links to players' profiles and ratings as shown.
//
// Hooks for tests (data-testid): account-nav (the top bar's links), leaderboard-link,
// login-link (a guest) or account-link (the player's name, data-player), moderation-link
// (a moderator's: the queue of reports), player-link
// (a seat's name linked to a profile, data-player).

import { account, api } from "./api.js";
import { el } from "./dom.js";
import { adoptLanguage, chosenLanguage, errorText, onLanguageChange, retryAfter, t, tOr } from "./i18n.js";

/** The logged-in player ({name, created}), or null for a guest or when the server cannot say. */
export async function currentPlayer() {
  try {
    return (await account()).player ?? null;
  } catch {
    return null;
  }
}

export function profileUrl(name) {
  return `/players/${encodeURIComponent(name)}`;
}

/** The account page, coming back to this page after logging in. */
export function loginUrl() {
  return `/login?next=${encodeURIComponent(location.pathname + location.search)}`;
}

/** The top bar's links: the leaderboard, the tournaments, the analysis board, the puzzles, a moderator's queue, and "Log in" or the player's name. */
export function accountNav(player, moderator = false) {
  const me = player
    ? el("a", { href: profileUrl(player.name), class: "account-me", "data-testid": "account-link", "data-player": player.name }, player.name)
    : el("a", { href: loginUrl(), "data-testid": "login-link" }, t("account.login_link"));
  return el(
    "nav",
    { class: "account-nav", "data-testid": "account-nav", "aria-label": t("account.nav") },
    el("a", { href: "/leaderboard", "data-testid": "leaderboard-link" }, t("leaderboard.link")),
    el("a", { href: "/tournaments", "data-testid": "tournaments-link" }, t("tournaments.link")),
    el("a", { href: "/analysis", "data-testid": "analysis-link" }, t("analysis.link")),
    el("a", { href: "/puzzles", "data-testid": "puzzles-link" }, t("puzzles.link")),
    moderator ? el("a", { href: "/moderation", "data-testid": "moderation-link" }, t("moderation.link")) : null,
    me,
  );
}

/** Put the top bar's links in place of the page's #account-slot; the player or null. */
export async function mountAccountNav() {
  const answer = await account().catch(() => ({ player: null }));
  const player = answer.player ?? null;
  if (player && followAccountLanguage(player)) return player; // the page reloads in the account's language
  document.getElementById("account-slot")?.replaceWith(accountNav(player, Boolean(answer.moderator)));
  return player;
}

let following = false;

/** An account's language is one for all its devices: the one it chose elsewhere is taken
 * here (true: the page reloads in it); one chosen here before it had any becomes its own;
 * and every choice made here is told to it. */
function followAccountLanguage(player) {
  if (player.language && adoptLanguage(player.language)) return true;
  if (!player.language && chosenLanguage()) api.setAccountLanguage(chosenLanguage()).catch(() => null);
  if (!following) {
    following = true;
    onLanguageChange((code) => api.setAccountLanguage(code).catch(() => null));
  }
  return false;
}

/** A seat's name, linked to the profile when a registered player (or a rated bot) sits there. */
export function playerLink(info, text) {
  if (!info?.player) return text;
  return el("a", { href: profileUrl(info.player), class: "player-link", "data-testid": "player-link", "data-player": info.player }, text);
}

/** A rating as shown: "1523", or "1523?" while it is provisional. */
export function ratingText(entry) {
  if (!entry || typeof entry.rating !== "number") return "–";
  return `${Math.round(entry.rating)}${entry.provisional ? "?" : ""}`;
}

/** A server error in the page's language: its account.error.<code> text, else the general one. */
export function accountError(error) {
  if (retryAfter(error) !== null) return errorText(error); // how long to wait, as the server said
  return error?.code ? tOr(`account.error.${error.code}`, errorText(error)) : errorText(error);
}
