// The moderators' page, /moderation (docs/PROTOCOL.md, "Moderation"): the open reports,
// most reported first, each with the reporter's words and the lines around the reported
// one, and the actions on it (every one needs a reason); the audit log below.
//
// Hooks for tests (data-testid): moderation (<main>, data-state = loading | ok |
// forbidden | error), mod-status, reports with report-card per report (data-id,
// data-target, data-reporters) holding evidence-line (data-reported), mod-reason,
// mod-timeout (data-minutes), mod-remove-line, mod-ban-days, mod-ban-chat, mod-ban-rated,
// mod-new-name, mod-rename, mod-close, mod-note (a refusal); mod-status (what an action
// did, above the queue); audit-table with audit-row (data-action,
// data-target).

import { startAppShell } from "../lib/app-shell.js";
import { api } from "../lib/api.js";
import { el, fill } from "../lib/dom.js";
import { applyI18n, errorText, initI18n, languageSwitch, t, tOr } from "../lib/i18n.js";
import { lineText } from "../chat/chat.js";
import { mountAccountNav } from "../lib/session.js";

const $ = (id) => document.getElementById(id);
const TIMEOUTS = [15, 60, 1440];

function when(text) {
  const time = Date.parse(text ?? "");
  return Number.isFinite(time) ? new Date(time).toLocaleString(document.documentElement.lang) : "";
}

function evidence(report) {
  if (!report.evidence?.length) return null;
  return el(
    "ol",
    { class: "evidence", "aria-label": t("moderation.evidence") },
    ...report.evidence.map((line) =>
      el(
        "li",
        { "data-testid": "evidence-line", "data-reported": line.reported ? "true" : "false" },
        el("time", { datetime: line.sent }, when(line.sent)),
        " ",
        el("strong", {}, line.name),
        ": ",
        lineText(line),
      ),
    ),
  );
}

/** Run a moderator action with the report's reason; mod-status says what it did, the
 * card's note why it was refused. */
async function act(card, action) {
  const note = card.querySelector("[data-testid=mod-note]");
  const reason = card.querySelector("[data-testid=mod-reason]").value.trim();
  if (!reason) {
    note.textContent = t("moderation.reason_needed");
    card.querySelector("[data-testid=mod-reason]").focus();
    return;
  }
  try {
    const done = await action(reason);
    await refresh(); // the cards are made afresh: what happened is told above them
    $("mod-status").textContent = done;
  } catch (error) {
    note.textContent = tOr(`moderation.error.${error.code}`, errorText(error));
  }
}

function actions(card, report) {
  const name = report.target;
  const reason = el("input", { type: "text", maxlength: 200, "data-testid": "mod-reason", "aria-label": t("moderation.reason"), placeholder: t("moderation.reason") });
  const days = el("input", { type: "number", min: 0, max: 365, value: 7, "data-testid": "mod-ban-days", "aria-label": t("moderation.ban_days") });
  const newName = el("input", { type: "text", maxlength: 20, "data-testid": "mod-new-name", "aria-label": t("moderation.new_name") });
  const button = (testid, label, action, extra = {}) =>
    el("button", { type: "button", class: "small", "data-testid": testid, onclick: () => act(card, action), ...extra }, label);
  const onPlayer = report.account
    ? [
        ...TIMEOUTS.map((minutes) =>
          button("mod-timeout", t(`moderation.timeout_${minutes}`), async (why) => {
            const answer = await api.modTimeout(name, minutes, why);
            return t("moderation.timed_out", { name, until: when(answer.until) });
          }, { "data-minutes": minutes }),
        ),
        el("label", {}, t("moderation.ban_days"), " ", days),
        button("mod-ban-chat", t("moderation.ban_chat"), async (why) => {
          const answer = await api.modBan(name, "chat", Number(days.value), why);
          return t("moderation.banned", { name, until: when(answer.until) });
        }),
        button("mod-ban-rated", t("moderation.ban_rated"), async (why) => {
          const answer = await api.modBan(name, "rated", Number(days.value), why);
          return t("moderation.banned", { name, until: when(answer.until) });
        }),
        newName,
        button("mod-rename", t("moderation.rename"), async (why) => {
          const answer = await api.modRename(name, newName.value.trim(), why);
          return t("moderation.renamed", { name: answer.name });
        }),
      ]
    : [el("span", { class: "hint" }, t("moderation.guest"))];
  const removeLine = report.line
    ? button("mod-remove-line", t("moderation.remove_line"), async (why) => {
        await api.modRemoveLine(report.table, report.line, why);
        return t("moderation.removed");
      })
    : null;
  const close = button("mod-close", t("moderation.close"), async (why) => {
    await api.modClose(report.id, why);
    return t("moderation.closed");
  });
  return el("div", { class: "mod-actions", role: "group", "aria-label": t("moderation.actions", { name }) }, reason, ...onPlayer, removeLine, close);
}

function reportCard(report) {
  const card = el("li", { class: "report-card", "data-testid": "report-card", "data-id": report.id, "data-target": report.target, "data-reporters": report.reporters });
  const heading = el(
    "h2",
    {},
    t("moderation.report_heading", { name: report.target, reason: t(`report.reason.${report.reason}`) }),
    " · ",
    t("moderation.reporters", { n: report.reporters }),
  );
  const said = report.text ? el("p", { class: "report-text" }, `“${report.text}”`) : null;
  fill(card, heading, el("p", { class: "hint" }, when(report.created)), said, evidence(report), actions(card, report), el("p", { class: "hint", role: "status", "data-testid": "mod-note" }));
  return card;
}

function auditRow(entry) {
  return el(
    "tr",
    { "data-testid": "audit-row", "data-action": entry.action, "data-target": entry.target ?? "" },
    el("td", {}, when(entry.at)),
    el("td", {}, entry.moderator),
    el("td", {}, tOr(`moderation.action.${entry.action}`, entry.action)),
    el("td", {}, entry.target ?? "–"),
    el("td", {}, entry.reason),
  );
}

/** The queue and the log, read again (after every action). */
async function refresh() {
  const [queue, audit] = await Promise.all([api.modReports(), api.modAudit()]);
  fill($("reports"), ...(queue.reports.length ? queue.reports.map(reportCard) : [el("li", { class: "hint", "data-testid": "reports-empty" }, t("moderation.empty"))]));
  fill($("audit"), ...audit.entries.map(auditRow));
}

async function main() {
  await initI18n();
  startAppShell();
  applyI18n();
  document.getElementById("lang-slot")?.replaceWith(languageSwitch());
  await mountAccountNav();
  const page = $("moderation");
  try {
    await refresh();
    page.dataset.state = "ok";
  } catch (error) {
    page.dataset.state = error.code === "moderators_only" ? "forbidden" : "error";
    $("mod-status").textContent = error.code === "moderators_only" ? t("moderation.forbidden") : errorText(error);
  }
}

main();
