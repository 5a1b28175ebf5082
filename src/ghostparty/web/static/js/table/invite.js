// On an open table's page, for a logged-in player who sits there while a person's seat
// is free: invite one of the players they follow (docs/PROTOCOL.md, "Friends"). The
// invitee's lobby shows it at once.
//
// Hooks for tests (data-testid): invite-friend (the box), invite-name (select),
// invite-send, invite-note.

import { api } from "../lib/api.js";
import { el, fill } from "../lib/dom.js";
import { errorText, t } from "../lib/i18n.js";

export class InviteBox {
  constructor(node, tableId) {
    this.node = node;
    this.tableId = tableId;
    this.names = null; // the followed players' names, asked once
    this.shown = false;
  }

  /** Show the box while `table` is open, `account` sits there and a person's seat is free. */
  update(table, account) {
    const free = table.seats.some((s) => s.kind === "human" && !s.name);
    const mine = Boolean(account) && table.seats.some((s) => s.player === account.name);
    const show = table.status === "open" && free && mine;
    this.node.hidden = !show;
    if (show && !this.shown) this.render();
    this.shown = show;
  }

  async render() {
    if (this.names === null) {
      try {
        this.names = (await api.friends()).friends.map((f) => f.name);
      } catch {
        this.names = [];
      }
    }
    const note = el("p", { class: "hint", role: "status", "data-testid": "invite-note" });
    if (!this.names.length) {
      fill(this.node, el("p", { class: "hint" }, t("invite.no_friends")));
      return;
    }
    const select = el("select", { id: "invite-name", "data-testid": "invite-name" }, ...this.names.map((n) => el("option", { value: n }, n)));
    const send = el("button", { type: "button", "data-testid": "invite-send" }, t("invite.send"));
    send.addEventListener("click", async () => {
      send.disabled = true;
      try {
        const { invitation } = await api.invite(select.value, this.tableId);
        note.textContent = t("invite.sent", { name: invitation.to });
      } catch (error) {
        note.textContent = errorText(error);
      } finally {
        send.disabled = false;
      }
    });
    fill(this.node, el("label", { for: "invite-name" }, t("invite.label")), el("div", { class: "share-row" }, select, send), note);
  }
}
