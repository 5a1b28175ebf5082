// What a reader does about a chat line's writer beyond muting (docs/PROTOCOL.md,
// "Blocks, mutes, reports"): block them (logged in, a registered writer: their lines
// never reach this reader again, here or in replays), report the line to the moderators
// (a reason from the list and a few words), and keep a logged-in reader's mutes on the
// server, per table. Guests mute in their browser (chat.js).
//
// Hooks for tests (data-testid): chat-block and chat-report (on a line), report-form
// (data-line on a line's) with report-reason (a select), report-text, report-send, report-cancel;
// chat-note tells what happened.

import { api } from "../lib/api.js";
import { el } from "../lib/dom.js";
import { errorText, t } from "../lib/i18n.js";

export const REASONS = ["insults", "harassment", "spam", "cheating", "name", "other"];
export const MAX_REPORT_TEXT = 300;

/** A logged-in reader's mutes at a table, as the chat's keys ("players:bob"); null on failure. */
export async function loadMutes(tableId) {
  try {
    return new Set((await api.mutes(tableId)).muted);
  } catch {
    return null;
  }
}

/** Keep a mute on the server; the mutes now, or null if it failed. */
export async function saveMute(tableId, line, muted) {
  try {
    return new Set((await api.mute(tableId, line.channel, line.name ?? "", muted)).muted);
  } catch {
    return null;
  }
}

/** Block the writer of `line`; a text saying what happened. */
export async function blockWriter(tableId, line) {
  try {
    const answer = await api.block({ table: tableId, line: line.id });
    return { ok: true, text: t("chat.blocked", { name: answer.name }) };
  } catch (error) {
    return { ok: false, text: errorText(error) };
  }
}

/**
 * A small form to report a chat line (`about` = {table, line}) or a player (`about` =
 * {name}) written by `name`: a reason and a few words; `done(text)` is called with what
 * to tell the reader once it was sent (null: cancelled).
 */
export function reportForm(about, name, done) {
  const reason = el(
    "select",
    { "data-testid": "report-reason", "aria-label": t("report.reason") },
    ...REASONS.map((key) => el("option", { value: key }, t(`report.reason.${key}`))),
  );
  const text = el("input", {
    type: "text",
    maxlength: MAX_REPORT_TEXT,
    "data-testid": "report-text",
    "aria-label": t("report.text"),
    placeholder: t("report.text_placeholder"),
    autocomplete: "off",
  });
  const note = el("p", { class: "hint", role: "status" });
  const title = about.line ? t("report.title", { name }) : t("report.title_player", { name });
  const form = el(
    "form",
    { class: "report-form", "data-testid": "report-form", "data-line": about.line ?? null, "aria-label": title },
    el("p", { class: "report-title" }, title),
    el("label", {}, t("report.reason"), " ", reason),
    text,
    el("button", { type: "submit", "data-testid": "report-send" }, t("report.send")),
    el("button", { type: "button", class: "link", "data-testid": "report-cancel", onclick: () => { form.remove(); done(null); } }, t("report.cancel")),
    note,
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      await api.report({ ...about, reason: reason.value, text: text.value });
      form.remove();
      done(t("report.sent"));
    } catch (error) {
      note.textContent = errorText(error);
    }
  });
  return form;
}
