// The rules in short, one click away: both rule sets, each point with the § of
// RULES.md it summarises. The § numbers live here (they are the same in every
// language); the texts are the i18n keys help.hugo.* and help.mp.*.
//
// Hooks: rules-help-button (opens), rules-help (the <dialog>), rules-help-set
// (one per rule set, data-rules), rule (one per point: data-ref "§4.2"), rule-ref
// (the § shown), rules-help-close; rules-help-time (time limits, the time bank, what a
// bot's takeover means, for a rated game too: the seat's result counts for its player).

import { el } from "./dom.js";
import { t } from "./i18n.js";

export const RULE_POINTS = {
  hugo: [
    ["§1", "help.hugo.components"],
    ["§2.1", "help.hugo.setup"],
    ["§2.2", "help.hugo.placement"],
    ["§3.1", "help.hugo.turn"],
    ["§4.1", "help.hugo.start"],
    ["§4.2", "help.hugo.rooms"],
    ["§4.3", "help.hugo.expel"],
    ["§4.4", "help.hugo.gallery"],
    ["§4.5", "help.hugo.shields"],
    ["§5.1–5.2", "help.hugo.hugo"],
    ["§5.3", "help.hugo.clock"],
    ["§6", "help.hugo.capture"],
    ["§7", "help.hugo.end"],
  ],
  "midnight-party": [
    ["§8.1", "help.mp.rounds"],
    ["§5.1", "help.mp.hugo"],
    ["§8.2", "help.mp.rooms"],
    ["§8.3", "help.mp.duty"],
    ["§8.4", "help.mp.round_end"],
    ["§8.5", "help.mp.scoring"],
    ["§8.6", "help.mp.next"],
    ["§8.7", "help.mp.end"],
  ],
};

function ruleSet(rules) {
  return el(
    "section",
    { class: "rules-set", "data-testid": "rules-help-set", "data-rules": rules },
    el("h3", {}, t(`help.set.${rules}`)),
    el(
      "ol",
      { class: "rules-points" },
      ...RULE_POINTS[rules].map(([ref, key]) =>
        el(
          "li",
          { class: "rule", "data-testid": "rule", "data-ref": ref },
          el("span", { class: "rule-ref", "data-testid": "rule-ref" }, ref),
          el("span", { class: "rule-text" }, t(key)),
        ),
      ),
    ),
  );
}

/** Time limits and bots: not rules of the game but of the tables (docs/PROTOCOL.md). */
function timeAndBots() {
  return el(
    "section",
    { class: "rules-set", "data-testid": "rules-help-time" },
    el("h3", {}, t("help.time.title")),
    el(
      "ul",
      { class: "rules-points" },
      ...[t("help.time.bank"), t("help.time.bot"), t("help.time.rated"), t("help.time.turn_based")].map((text) =>
        el("li", { class: "rule rule-plain" }, el("span", { class: "rule-text" }, text)),
      ),
    ),
  );
}

let dialog = null;

/** The dialog, built once; the table's own rule set first and open. */
function build(first) {
  const order = first === "midnight-party" ? ["midnight-party", "hugo"] : ["hugo", "midnight-party"];
  const close = el("button", { type: "button", class: "small", "data-testid": "rules-help-close" }, t("help.close"));
  dialog = el(
    "dialog",
    { class: "rules-help", "data-testid": "rules-help", "aria-labelledby": "rules-help-title" },
    el("div", { class: "rules-help-head" }, el("h2", { id: "rules-help-title" }, t("help.title")), close),
    el("p", { class: "hint" }, t("help.intro")),
    ...order.map(ruleSet),
    timeAndBots(),
  );
  close.addEventListener("click", () => dialog.close());
  dialog.addEventListener("click", (event) => {
    if (event.target === dialog) dialog.close();
  });
  document.body.append(dialog);
  return dialog;
}

/** Open the rules summary, with `rules` ("hugo" or "midnight-party") first. */
export function openRulesHelp(rules = "hugo") {
  if (dialog && dialog.dataset.first !== rules) {
    dialog.remove();
    dialog = null;
  }
  const box = dialog ?? build(rules);
  box.dataset.first = rules;
  if (!box.open) box.showModal();
  return box;
}

/** A button for a top bar that opens the summary; getRules() names the table's rules. */
export function rulesHelpButton(getRules = () => "hugo") {
  return el(
    "button",
    { type: "button", class: "small rules-help-button", "data-testid": "rules-help-button", onclick: () => openRulesHelp(getRules()) },
    t("help.open"),
  );
}
