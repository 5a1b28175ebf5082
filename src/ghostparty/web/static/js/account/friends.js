// The lobby's Friends card: invitations to tables (live: /ws/lobby), and the players
// this account follows, online or not, with the tables where they sit (join or watch).
// Guests see why to log in. Following is done on a player's profile (player-actions.js);
// inviting on an open table's page (invite.js).
//
// Hooks for tests (data-testid): friends-card, friends-login (a guest's prompt),
// invitations (list) with an invitation per row (data-invitation, data-table) and its
// invitation-accept / invitation-decline buttons, invitations-note; friends (list) with a
// friend per row (data-name, data-online) and its friend-table-link (data-table).

import { api, listenForInvitations } from "../lib/api.js";
import { el, fill } from "../lib/dom.js";
import { errorText, t } from "../lib/i18n.js";
import { syncList } from "../lib/patch.js";
import { loginUrl, profileUrl } from "../lib/session.js";
import { saveToken } from "../lib/store.js";

const REFRESH_MS = 15000;
const $ = (id) => document.getElementById(id);

function gameText(table) {
  return t("lobby.table_title", { rules: t(`rules.${table.rules}`), n: table.players });
}

export class FriendsCard {
  constructor() {
    this.player = null;
    this.listening = false;
  }

  mount() {
    this.card = $("friends-card");
  }

  /** The logged-in player (or null): the card for them, or a guest's prompt. */
  usePlayer(player) {
    this.player = player;
    this.card.hidden = false;
    $("friends-login").hidden = Boolean(player);
    $("friends-body").hidden = !player;
    if (!player) {
      fill($("friends-login"), t("friends.guest"), " ", el("a", { href: loginUrl(), "data-testid": "friends-login-link" }, t("account.login_link")));
      return;
    }
    if (!this.listening) {
      this.listening = true;
      listenForInvitations(() => this.refreshInvitations());
      setInterval(() => this.refreshFriends(), REFRESH_MS);
      document.addEventListener("visibilitychange", () => this.refreshFriends());
    }
    this.refreshFriends();
  }

  async refreshInvitations() {
    if (!this.player) return;
    try {
      const { invitations } = await api.invitations();
      $("invitations-box").hidden = invitations.length === 0;
      fill($("invitations"), ...invitations.map((inv) => this.invitationRow(inv)));
    } catch (error) {
      $("invitations-note").textContent = errorText(error);
    }
  }

  invitationRow(inv) {
    const game = gameText(inv);
    const text = t("invitations.from", { name: inv.from, game });
    const accept = el("button", { type: "button", class: "small", "data-testid": "invitation-accept", "aria-label": `${t("invitations.accept")}: ${text}` }, t("invitations.accept"));
    const decline = el("button", { type: "button", class: "small", "data-testid": "invitation-decline", "aria-label": `${t("invitations.decline")}: ${text}` }, t("invitations.decline"));
    accept.addEventListener("click", () => this.answer(inv, true, accept));
    decline.addEventListener("click", () => this.answer(inv, false, decline));
    const rated = inv.rated ? el("span", { class: "tag tag-rated" }, t("account.rated")) : null;
    return el(
      "li",
      { "data-testid": "invitation", "data-invitation": String(inv.id), "data-table": inv.table, "data-key": `i${inv.id}` },
      el("div", { class: "table-info" }, el("strong", {}, text), " ", rated),
      el("span", { class: "invitation-buttons" }, accept, " ", decline),
    );
  }

  async answer(inv, yes, button) {
    button.disabled = true;
    $("invitations-note").textContent = "";
    try {
      if (!yes) {
        await api.declineInvitation(inv.id);
        await this.refreshInvitations();
        return;
      }
      const joined = await api.acceptInvitation(inv.id);
      saveToken(inv.table, joined.seat, joined.token);
      location.href = `/t/${encodeURIComponent(inv.table)}`;
    } catch (error) {
      $("invitations-note").textContent = errorText(error);
      button.disabled = false;
      await this.refreshInvitations();
    }
  }

  async refreshFriends() {
    if (!this.player || document.hidden) return;
    try {
      const { friends } = await api.friends();
      const rows = friends.map((friend) => this.friendRow(friend));
      syncList($("friends"), rows.length ? rows : [el("li", { class: "empty", "data-key": "" }, t("friends.none"))]);
    } catch (error) {
      syncList($("friends"), [el("li", { class: "empty", "data-key": "" }, errorText(error))]);
    }
  }

  friendRow(friend) {
    const state = friend.online ? t("friends.online") : t("friends.offline");
    const links = friend.tables.map((table) => {
      const action = table.status === "open" ? t("lobby.join") : t("lobby.watch");
      const label = t("friends.link_name", { action, name: friend.name, game: gameText(table) });
      return el("a", { class: "button small", href: `/t/${encodeURIComponent(table.id)}`, "data-testid": "friend-table-link", "data-table": table.id, "aria-label": label }, action);
    });
    return el(
      "li",
      { "data-testid": "friend", "data-name": friend.name, "data-online": String(friend.online), "data-key": `${friend.name}:${friend.online}:${friend.tables.map((x) => x.id + x.status).join()}` },
      el(
        "div",
        { class: "table-info" },
        el("span", { class: `presence ${friend.online ? "presence-on" : "presence-off"}`, "aria-hidden": "true" }),
        " ",
        el("a", { href: profileUrl(friend.name) }, friend.name),
        " ",
        el("span", { class: "hint" }, state),
        friend.tables.length ? el("div", { class: "table-people" }, friend.tables.map(gameText).join(" · ")) : null,
      ),
      el("span", {}, ...links),
    );
  }
}
