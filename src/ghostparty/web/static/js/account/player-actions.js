// On another player's profile, for a logged-in viewer: follow or unfollow them (Friends),
// block or unblock them, and report them to the moderators (docs/PROTOCOL.md, "Friends"
// and "Blocks, mutes, reports").
//
// Hooks for tests (data-testid): player-actions (the container) with profile-follow
// (data-following = true | false: one-way, they aren't told), profile-block
// (data-blocked = true | false), profile-report, then report-form (chat-community.js),
// and profile-note (what happened).

import { api } from "../lib/api.js";
import { el, fill } from "../lib/dom.js";
import { errorText, t } from "../lib/i18n.js";
import { reportForm } from "../chat/chat-community.js";

/** Fill `container` with the Block/Unblock and Report buttons for the player `name`. */
export async function playerActions(container, name) {
  let blocked = false;
  let following = false;
  try {
    blocked = (await api.blocks()).blocked.some((other) => other.toLowerCase() === name.toLowerCase());
    following = (await api.following(name)).following;
  } catch {
    return; // a server without accounts, or the session is gone: nothing to offer
  }
  const note = el("p", { class: "hint", role: "status", "data-testid": "profile-note" });
  const follow = el("button", { type: "button", class: "small", "data-testid": "profile-follow" });
  const showFollow = () => {
    follow.dataset.following = String(following);
    follow.textContent = following ? t("player.unfollow", { name }) : t("player.follow", { name });
  };
  follow.addEventListener("click", async () => {
    try {
      await api.follow(name, !following);
      following = !following;
      note.textContent = following ? t("player.followed", { name }) : t("player.unfollowed", { name });
      showFollow();
    } catch (error) {
      note.textContent = errorText(error);
    }
  });
  showFollow();
  const block = el("button", { type: "button", class: "small", "data-testid": "profile-block" });
  const show = () => {
    block.dataset.blocked = String(blocked);
    block.textContent = blocked ? t("account.unblock", { name }) : t("player.block", { name });
    block.title = blocked ? "" : t("chat.block_title", { name });
  };
  block.addEventListener("click", async () => {
    try {
      await api.block({ name, blocked: !blocked });
      blocked = !blocked;
      note.textContent = blocked ? t("chat.blocked", { name }) : t("player.unblocked", { name });
      show();
    } catch (error) {
      note.textContent = errorText(error);
    }
  });
  const report = el("button", { type: "button", class: "small", "data-testid": "profile-report" }, t("player.report", { name }));
  report.addEventListener("click", () => {
    container.querySelector(".report-form")?.remove();
    const form = reportForm({ name }, name, (text) => {
      if (text) note.textContent = text;
    });
    note.before(form);
    form.querySelector("select")?.focus();
  });
  show();
  fill(container, follow, " ", block, " ", report, note);
  container.hidden = false;
}
