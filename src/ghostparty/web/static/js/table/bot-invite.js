// Inviting a bot account (a program playing through the Bot API, docs/PROTOCOL.md) to an
// empty seat: from the seat list of an open table one sits at, or from the bot's profile
// (a select of one's open tables). The bot's program accepts or declines; once seated it
// shows in the seat list like anyone who joined.
//
// Hooks for tests (data-testid): invite-bot-{seat} (the seat list's form) with
// invite-bot-name-{seat} and invite-bot-send-{seat}; profile-invite (the profile's form)
// with profile-invite-table and profile-invite-send; invite-note (what happened).

import { api } from "../lib/api.js";
import { el } from "../lib/dom.js";
import { errorText, t } from "../lib/i18n.js";

/** The seat list's "Invite a bot" form for an empty `seat` of the open table `tableId`. */
export function seatInviteForm(tableId, seat) {
  const input = el("input", {
    type: "text",
    maxlength: 32,
    placeholder: t("bot_invite.name_placeholder"),
    "aria-label": t("bot_invite.name_label"),
    "data-testid": `invite-bot-name-${seat}`,
  });
  const note = el("span", { class: "hint", role: "status", "data-testid": "invite-note" });
  const form = el(
    "form",
    { class: "join-form invite-form", "data-testid": `invite-bot-${seat}` },
    input,
    el("button", { type: "submit", class: "small", "data-testid": `invite-bot-send-${seat}` }, t("bot_invite.send")),
    note,
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = input.value.trim();
    if (!name) return;
    note.textContent = await send(name, tableId, seat);
  });
  return form;
}

async function send(name, tableId, seat) {
  try {
    await api.inviteBot(name, tableId, seat);
    return t("bot_invite.sent", { name });
  } catch (error) {
    return errorText(error);
  }
}

/** On a bot account's profile, for a logged-in viewer: invite it to one of their open tables. */
export async function profileInvite(container, botName, viewerName) {
  let tables = [];
  try {
    tables = ((await api.player(viewerName)).tables ?? []).filter((table) => table.status === "open");
  } catch {
    return;
  }
  const note = el("p", { class: "hint", role: "status", "data-testid": "invite-note" });
  if (!tables.length) {
    container.append(el("p", { class: "hint", "data-testid": "profile-invite" }, t("bot_invite.no_tables")));
    container.hidden = false;
    return;
  }
  const select = el(
    "select",
    { "data-testid": "profile-invite-table", "aria-label": t("bot_invite.table_label") },
    ...tables.map((table) => el("option", { value: table.id }, t("bot_invite.table_option", { id: table.id, rules: t(`rules.${table.rules}`) }))),
  );
  const button = el("button", { type: "button", class: "small", "data-testid": "profile-invite-send" }, t("bot_invite.send_profile", { name: botName }));
  button.addEventListener("click", async () => {
    try {
      const table = (await api.table(select.value)).table;
      const empty = table.seats.find((s) => s.kind === "human" && !s.name);
      note.textContent = empty ? await send(botName, table.id, empty.seat) : t("bot_invite.table_full");
    } catch (error) {
      note.textContent = errorText(error);
    }
  });
  container.append(el("div", { class: "profile-invite", "data-testid": "profile-invite" }, select, " ", button, note));
  container.hidden = false;
}
