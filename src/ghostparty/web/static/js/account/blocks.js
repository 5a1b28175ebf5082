// The players a logged-in player blocked, on the account page, each with an Unblock
// button (docs/PROTOCOL.md, GET and POST /api/blocks).
//
// Hooks for tests (data-testid): blocked-player (data-name) with unblock; blocks-none.

import { api } from "../lib/api.js";
import { el, fill } from "../lib/dom.js";
import { errorText, t } from "../lib/i18n.js";

function rows(list, names) {
  if (!names.length) return [el("li", { class: "hint", "data-testid": "blocks-none" }, t("account.blocked_none"))];
  return names.map((name) =>
    el(
      "li",
      { "data-testid": "blocked-player", "data-name": name },
      name,
      " ",
      el(
        "button",
        {
          type: "button",
          class: "small",
          "data-testid": "unblock",
          onclick: async () => {
            try {
              fill(list, ...rows(list, (await api.block({ name, blocked: false })).list));
            } catch (error) {
              fill(list, el("li", { role: "alert" }, errorText(error)));
            }
          },
        },
        t("account.unblock", { name }),
      ),
    ),
  );
}

/** Fill `list` with the blocked players. */
export async function showBlocks(list) {
  try {
    fill(list, ...rows(list, (await api.blocks()).blocked));
  } catch (error) {
    fill(list, el("li", { role: "alert" }, errorText(error)));
  }
}
