// Chat at the table (docs/PROTOCOL.md, WebSocket `chat`): the players' channel, and the
// spectators' own, which players don't see during the game. Every line is shown as
// text (textContent through dom.js's el), never as HTML; a quick phrase is sent as its
// key and worded in the reader's language (chat.phrase.<key>). Muting a writer is this
// browser's own (localStorage) for a guest, and kept on the server per table for a
// logged-in reader, who may also block a registered writer and report a line
// (chat-community.js).
//
// Hooks for tests (data-testid): chat (the panel; data-channel = the tab shown),
// chat-tab-players / chat-tab-spectators (the tabs; data-unread), chat-lines (the list),
// chat-line (data-id, data-channel, data-seat, data-muted; data-own = "true" on the
// reader's own lines, which have no mute, block or report) with chat-name and
// chat-text inside (data-phrase on a phrase) and chat-mute / chat-unmute, chat-block,
// chat-report (logged in; see chat-community.js), chat-form,
// chat-input, chat-send, chat-phrase (data-phrase), chat-note (errors, politely),
// chat-empty ("no messages yet"), chat-hint (a spectator on the players' tab).

import { blockWriter, loadMutes, reportForm, saveMute } from "./chat-community.js";
import { el, fill } from "../lib/dom.js";
import { errorText, retryAfter, t, tOr, waitText } from "../lib/i18n.js";
import { colourHex, guestTag, isGuest } from "../table/seats.js";
import { botTag } from "../table/records.js";

export const PHRASES = ["good_luck", "well_played", "oops", "thanks"];
export const MAX_TEXT = 200;
const MUTED_KEY = "ghostparty:muted";
/** Errors that answer a chat line (the socket's other errors are the game's). */
const CHAT_ERRORS = new Set(["rate_limited", "not_seated", "not_spectator", "too_long", "chat_timeout"]);

function loadMuted() {
  try {
    const list = JSON.parse(localStorage.getItem(MUTED_KEY) ?? "[]");
    return new Set(Array.isArray(list) ? list.filter((x) => typeof x === "string") : []);
  } catch {
    return new Set();
  }
}

function saveMuted(muted) {
  try {
    localStorage.setItem(MUTED_KEY, JSON.stringify([...muted]));
  } catch {
    // Private mode: muted for this page only.
  }
}

/** Who a mute is for: a writer by channel and name (the same name in every game). */
function writerKey(line) {
  return `${line.channel}:${String(line.name ?? "").toLowerCase()}`;
}

/** A line's words: its text, or its phrase in this reader's language. */
export function lineText(line) {
  return line.phrase ? tOr(`chat.phrase.${line.phrase}`, line.phrase) : (line.text ?? "");
}

function timeOf(line) {
  const when = Date.parse(line.sent ?? "");
  return Number.isFinite(when) ? new Date(when).toLocaleTimeString(document.documentElement.lang, { hour: "2-digit", minute: "2-digit" }) : "";
}

/**
 * The chat panel in `container`. options: {send(message) → bool (the socket's send;
 * absent: read-only, the replay's), name() → a spectator's name or null, tableId (for
 * a logged-in reader's mutes, blocks and reports)}.
 */
export class ChatPanel {
  constructor(container, { send = null, name = () => null, tableId = null } = {}) {
    this.container = container;
    this.sendMessage = send;
    this.name = name;
    this.tableId = tableId;
    this.account = null; // the logged-in reader ({name}), or null for a guest
    this.lines = new Map(); // id -> line, in arrival order
    this.table = null; // the table's view, for which seats are guests
    this.held = new Set();
    this.channel = "players";
    this.muted = loadMuted();
    this.lastSent = 0;
    this.unsent = null; // the text of the last line sent, until it comes back from the server
    this.noteTimer = null;
    this.build();
  }

  build() {
    this.tabs = {};
    const tablist = el("div", { class: "chat-tabs", role: "tablist", "aria-label": t("chat.title") });
    for (const channel of ["players", "spectators"]) {
      const tab = el(
        "button",
        { type: "button", role: "tab", class: "chat-tab", "data-testid": `chat-tab-${channel}`, "aria-selected": "false", onclick: () => this.show(channel) },
        t(`chat.channel.${channel}`),
      );
      this.tabs[channel] = tab;
      tablist.append(tab);
    }
    this.list = el("ol", { class: "chat-lines", "data-testid": "chat-lines", "aria-live": "polite", "aria-relevant": "additions", tabindex: "0", "aria-label": t("chat.title") });
    this.note = el("p", { class: "chat-note", "data-testid": "chat-note", role: "status", hidden: true });
    this.parts = [el("h2", { class: "chat-title" }, t("chat.title")), tablist, this.list, this.note];
    if (this.sendMessage) {
      this.input = el("input", {
        type: "text",
        maxlength: MAX_TEXT,
        "data-testid": "chat-input",
        "aria-label": t("chat.input"),
        placeholder: t("chat.placeholder"),
        autocomplete: "off",
      });
      this.form = el(
        "form",
        { class: "chat-form", "data-testid": "chat-form" },
        this.input,
        el("button", { type: "submit", "data-testid": "chat-send" }, t("chat.send")),
      );
      this.form.addEventListener("submit", (event) => {
        event.preventDefault();
        const text = this.input.value.trim();
        if (text && this.say({ text })) {
          this.unsent = text; // until the server has it: a refused line comes back to the box
          this.input.value = "";
        }
      });
      this.phrases = el(
        "div",
        { class: "chat-phrases", role: "group", "aria-label": t("chat.phrases") },
        ...PHRASES.map((phrase) =>
          el("button", { type: "button", class: "small", "data-testid": "chat-phrase", "data-phrase": phrase, onclick: () => this.say({ phrase }) }, t(`chat.phrase.${phrase}`)),
        ),
      );
      this.readOnly = el("p", { class: "hint chat-hint", "data-testid": "chat-hint", hidden: true }, t("chat.spectators_write"));
      this.parts.push(this.phrases, this.form, this.readOnly);
    }
    fill(this.container, ...this.parts);
    this.container.dataset.testid = "chat";
    this.show("players");
  }

  /** The page's seats and the table's status: which channels this page reads and writes;
   * the table (optional) says which seats are guests', marked so beside their lines. */
  setSeats(held, status, table = this.table) {
    this.held = new Set(held);
    this.status = status;
    const guests = (table?.seats ?? []).filter(isGuest).map((s) => s.seat).join(",");
    const marked = (this.table?.seats ?? []).filter(isGuest).map((s) => s.seat).join(",");
    this.table = table;
    if (guests !== marked && this.lines.size) this.render();
    const spectator = this.held.size === 0;
    // A spectator writes to the spectators (and reads both); a player sees the
    // spectators' channel only once the game is over (the server sends it then).
    const hasSpectatorLines = [...this.lines.values()].some((l) => l.channel === "spectators");
    this.tabs.spectators.hidden = !((spectator && this.sendMessage) || hasSpectatorLines);
    if (!spectator && this.channel === "spectators" && !hasSpectatorLines) this.show("players");
    this.renderInput();
  }

  /** Show a channel's tab. */
  show(channel) {
    this.channel = channel;
    for (const [name, tab] of Object.entries(this.tabs)) {
      tab.setAttribute("aria-selected", String(name === channel));
      tab.classList.toggle("active", name === channel);
      if (name === channel) delete tab.dataset.unread;
    }
    this.container.dataset.channel = channel;
    this.render();
    this.renderInput();
  }

  /** Whether this page may write to the channel shown. */
  writable() {
    if (!this.sendMessage) return false;
    return this.channel === "players" ? this.held.size > 0 : this.held.size === 0;
  }

  renderInput() {
    if (!this.form) return;
    const on = this.writable();
    this.form.hidden = !on;
    this.phrases.hidden = !on;
    this.readOnly.hidden = on || this.held.size > 0;
  }

  /** Every line the server kept (chat_log, on each (re)connection). */
  load(lines) {
    this.lines = new Map((lines ?? []).map((line) => [line.id, line]));
    this.setSeats(this.held, this.status);
    this.render();
  }

  /** The logged-in reader (or null): their mutes at this table are the server's. */
  async setAccount(player) {
    this.account = player;
    if (!player || !this.tableId || !this.sendMessage) return;
    const kept = await loadMutes(this.tableId);
    if (kept) this.muted = kept;
    this.render();
  }

  /** A line a moderator removed (chat_removed). */
  remove(id) {
    if (this.lines.delete(id)) this.render();
  }

  /** A new line (chat). */
  add(line) {
    if (this.lines.has(line.id)) return;
    this.lines.set(line.id, line);
    const fromHere = line.seat === null || line.seat === undefined ? this.held.size === 0 : this.held.has(line.seat);
    if (fromHere && line.text === this.unsent) this.unsent = null;
    if (line.channel !== this.channel) {
      this.tabs[line.channel].dataset.unread = "true";
      this.tabs.spectators.hidden = this.tabs.spectators.hidden && line.channel !== "spectators";
      return;
    }
    const nearBottom = this.list.scrollHeight - this.list.scrollTop - this.list.clientHeight < 40;
    this.list.querySelector(".chat-empty")?.remove();
    this.list.append(this.item(line));
    if (nearBottom) this.list.scrollTop = this.list.scrollHeight;
  }

  render() {
    const shown = [...this.lines.values()].filter((line) => line.channel === this.channel);
    const empty = el("li", { class: "chat-empty", "data-testid": "chat-empty" }, t("chat.empty"));
    fill(this.list, ...(shown.length ? shown.map((line) => this.item(line)) : [empty]));
    this.list.scrollTop = this.list.scrollHeight;
  }

  item(line) {
    const own = this.isOwn(line);
    const muted = !own && this.muted.has(writerKey(line)); // one's own lines are never muted
    const attrs = {
      class: `chat-line${muted ? " muted" : ""}`,
      "data-testid": "chat-line",
      "data-id": line.id,
      "data-channel": line.channel,
      "data-seat": line.seat ?? "",
      "data-muted": muted ? "true" : "false",
      "data-own": own ? "true" : "false",
    };
    const name = el("span", { class: "chat-name", "data-testid": "chat-name" }, line.name ?? "?");
    if (line.seat !== null && line.seat !== undefined) name.style.setProperty("--seat", colourHex(line.seat));
    const when = el("time", { class: "chat-time", datetime: line.sent ?? "" }, timeOf(line));
    if (muted) {
      return el(
        "li",
        attrs,
        el("span", { class: "chat-text hint" }, t("chat.muted_line", { name: line.name ?? "?" })),
        el("button", { type: "button", class: "link", "data-testid": "chat-unmute", onclick: () => this.mute(line, false) }, t("chat.unmute")),
      );
    }
    const text = el("span", { class: `chat-text${line.phrase ? " phrase" : ""}`, "data-testid": "chat-text", "data-phrase": line.phrase ?? null }, lineText(line));
    const mute = own
      ? null
      : el(
          "button",
          { type: "button", class: "link chat-mute", "data-testid": "chat-mute", title: t(this.account && this.tableId ? "chat.mute_title_table" : "chat.mute_title", { name: line.name ?? "?" }), onclick: () => this.mute(line, true) },
          t("chat.mute"),
        );
    const seatInfo = line.channel === "players" ? this.table?.seats?.[line.seat] : null;
    const guest = isGuest(seatInfo) ? guestTag() : botTag(line.account ? seatInfo?.player : null);
    const more = own || !this.account || !this.tableId || !this.sendMessage ? null : this.accountButtons(line);
    return el("li", attrs, when, " ", name, guest ? [" ", guest] : null, el("span", { class: "chat-colon" }, ": "), text, mute, more);
  }

  /**
   * Whether the reader wrote `line`, in this window or another: an account's line is the
   * logged-in reader's when it is their account's (its name: account names are unique),
   * a seat's line when this page holds the seat's token. No mute, block or report on it.
   */
  isOwn(line) {
    if (line.account && this.account && line.name === this.account.name) return true;
    return line.seat !== null && line.seat !== undefined && this.held.has(line.seat);
  }

  /** Block (a registered writer) and Report, for a logged-in reader. */
  accountButtons(line) {
    const who = line.name ?? "?";
    const block = line.account
      ? el("button", { type: "button", class: "link chat-block", "data-testid": "chat-block", title: t("chat.block_title", { name: who }), onclick: () => this.block(line) }, t("chat.block"))
      : null;
    const report = el(
      "button",
      { type: "button", class: "link chat-report", "data-testid": "chat-report", title: t("chat.report_title", { name: who }), onclick: () => this.report(line) },
      t("chat.report"),
    );
    return [block, report];
  }

  async block(line) {
    const answer = await blockWriter(this.tableId, line);
    this.tell(answer.text);
    if (answer.ok) this.sendMessage({ type: "chat_sync" }); // the server sends the chat again, without them
  }

  report(line) {
    this.container.querySelector(".report-form")?.remove();
    const form = reportForm({ table: this.tableId, line: line.id }, line.name ?? "?", (text) => {
      if (text) this.tell(text);
    });
    this.note.before(form);
    form.querySelector("select")?.focus();
  }

  async mute(line, on) {
    const key = writerKey(line);
    if (on) this.muted.add(key);
    else this.muted.delete(key);
    if (this.account && this.tableId) {
      const kept = await saveMute(this.tableId, line, on); // the reader's own, on every browser
      if (kept) this.muted = kept;
    } else {
      saveMuted(this.muted);
    }
    this.render();
  }

  /** Send a line ({text} or {phrase}) to the channel shown; false when it wasn't sent. */
  say(content) {
    if (!this.writable()) return false;
    const message = { type: "chat", channel: this.channel, ...content };
    if (this.channel === "spectators") {
      const name = this.name();
      if (name) message.name = name;
    }
    if (!this.sendMessage(message)) {
      this.tell(t("table.not_connected"));
      return false;
    }
    this.lastSent = Date.now();
    return true;
  }

  /** A socket error: shown here (true) when it answers a chat line just sent. */
  handleError(msg) {
    if (!CHAT_ERRORS.has(msg.code) || Date.now() - this.lastSent > 5000) return false;
    if (msg.code === "rate_limited") {
      // The line refused goes back into the box (unless something else was typed since).
      if (this.unsent && this.input && !this.input.value) this.input.value = this.unsent;
      this.unsent = null;
      const wait = retryAfter(msg);
      this.tell(wait === null ? t("chat.error.rate_limited") : t("chat.error.rate_limited_wait", { wait: waitText(wait) }));
      return true;
    }
    if (msg.code === "chat_timeout") {
      const until = new Date(Date.parse(msg.until ?? "")).toLocaleString(document.documentElement.lang);
      this.tell(t("chat.error.chat_timeout", { until, reason: msg.reason ?? "" }), 15000);
      return true;
    }
    this.tell(tOr(`chat.error.${msg.code}`, errorText(msg)));
    return true;
  }

  tell(text, ms = 4000) {
    this.note.textContent = text;
    this.note.hidden = false;
    clearTimeout(this.noteTimer);
    this.noteTimer = setTimeout(() => {
      this.note.hidden = true;
    }, ms);
  }
}
