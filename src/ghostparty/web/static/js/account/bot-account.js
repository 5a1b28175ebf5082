// The account page's "Bot account" card: make one's account a bot account (the Bot API,
// docs/PROTOCOL.md), for good, only before it ever sat at a table. A second click
// confirms; the server's refusal (it has games) is shown as it says it.
//
// Hooks for tests (data-testid): bot-account-view, bot-account-state (data-bot),
// bot-account-start, bot-account-confirm, bot-account-error.

import { api } from "../lib/api.js";
import { el, fill } from "../lib/dom.js";
import { errorText, t } from "../lib/i18n.js";

/** Fill the card for `player` ({name, bot_account}). */
export function showBotAccount(container, player) {
  const state = el("p", { "data-testid": "bot-account-state", "data-bot": player.bot_account ? "true" : "false" });
  const error = el("p", { class: "form-error", role: "alert", "data-testid": "bot-account-error", hidden: true });
  if (player.bot_account) {
    state.textContent = t("bot_account.is_bot");
    fill(container, state);
    return;
  }
  state.textContent = t("bot_account.note");
  const start = el("button", { type: "button", "data-testid": "bot-account-start" }, t("bot_account.start"));
  const confirm = el("button", { type: "button", class: "danger", "data-testid": "bot-account-confirm", hidden: true }, t("bot_account.confirm"));
  start.addEventListener("click", () => {
    start.hidden = true;
    confirm.hidden = false;
    confirm.focus();
  });
  confirm.addEventListener("click", async () => {
    confirm.disabled = true;
    try {
      await api.becomeBot();
      showBotAccount(container, { ...player, bot_account: true });
    } catch (failure) {
      error.textContent = errorText(failure);
      error.hidden = false;
      confirm.disabled = false;
    }
  });
  fill(container, state, start, confirm, error);
}
