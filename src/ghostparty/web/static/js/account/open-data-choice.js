// The account page's "Open game data" card: whether the player's name is kept out of the
// published games (GET and POST /api/account/open-data; docs/OPEN-DATA.md). Guests'
// names are always pseudonymised there.
//
// Hooks for tests (data-testid): open-data-opt-out (the checkbox), open-data-saved.

import { api } from "../lib/api.js";
import { el, fill } from "../lib/dom.js";
import { errorText, t } from "../lib/i18n.js";

/** Fill `container` with the checkbox, as the server has it. */
export async function showOpenDataChoice(container) {
  let chosen;
  try {
    chosen = (await api.openData()).opt_out;
  } catch (error) {
    fill(container, el("p", { class: "form-error", role: "alert" }, errorText(error)));
    return;
  }
  const status = el("p", { class: "form-ok", role: "status", "data-testid": "open-data-saved", hidden: true });
  const box = el("input", { type: "checkbox", id: "open-data-opt-out", "data-testid": "open-data-opt-out" });
  box.checked = Boolean(chosen);
  box.addEventListener("change", async () => {
    box.disabled = true;
    try {
      box.checked = (await api.setOpenData(box.checked)).opt_out;
      status.className = "form-ok";
      status.textContent = t(box.checked ? "account.open_data_out" : "account.open_data_in");
    } catch (error) {
      box.checked = !box.checked;
      status.className = "form-error";
      status.textContent = errorText(error);
    } finally {
      box.disabled = false;
      status.hidden = false;
    }
  });
  fill(container, el("label", { class: "check" }, box, " ", t("account.open_data_opt_out")), status);
}
