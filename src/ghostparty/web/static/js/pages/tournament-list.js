// The tournaments page, /tournaments: running, upcoming and finished tournaments, and a
// form to create one (logged in).
//
// Hooks for tests (data-testid): tournaments (<main>, data-state = loading | ok | error);
// running-list, upcoming-list, finished-list with tournament-item per tournament
// (data-id, data-status) and its tournament-link; create-form, create-submit,
// create-error, create-login (a guest's "log in to create").

import { startAppShell } from "../lib/app-shell.js";
import { api } from "../lib/api.js";
import { el, fill } from "../lib/dom.js";
import { applyI18n, initI18n, languageSwitch, t } from "../lib/i18n.js";
import { tournamentLine, when } from "../tournament/tournament-text.js";
import { accountError, loginUrl, mountAccountNav } from "../lib/session.js";

const $ = (id) => document.getElementById(id);

function item(tour) {
  return el(
    "li",
    { "data-testid": "tournament-item", "data-id": tour.id, "data-status": tour.status },
    el("a", { href: `/tournaments/${encodeURIComponent(tour.id)}`, "data-testid": "tournament-link" }, tournamentLine(tour)),
    " — ",
    t(`tournaments.status_${tour.status}`),
    ", ",
    when(tour.starts),
  );
}

function list(id, tours) {
  fill($(id), ...(tours.length ? tours.map(item) : [el("li", { class: "empty" }, t("tournaments.none"))]));
}

async function load() {
  const main = $("tournaments");
  try {
    const all = await api.tournaments();
    list("running", all.running);
    list("upcoming", all.upcoming);
    list("finished", all.finished);
    main.dataset.state = "ok";
  } catch (error) {
    fill($("running"), el("li", { class: "empty" }, accountError(error)));
    main.dataset.state = "error";
  }
}

function kindChanged() {
  const swiss = $("c-kind").value === "swiss";
  $("c-minutes-row").hidden = swiss;
  $("c-rounds-row").hidden = !swiss;
  $("c-bots-row").hidden = swiss;
}

async function create(event) {
  event.preventDefault();
  const swiss = $("c-kind").value === "swiss";
  const starts = new Date(Date.now() + Number($("c-in").value) * 60000 + 5000);
  const body = {
    kind: $("c-kind").value,
    rules: $("c-rules").value,
    table_size: Number($("c-size").value),
    starts: starts.toISOString().replace(/\.\d+Z$/, "Z"),
    turn_seconds: Number($("c-turn").value),
    rated: $("c-rated").checked,
  };
  if (swiss) body.rounds = Number($("c-rounds").value);
  else Object.assign(body, { minutes: Number($("c-minutes").value), bots: $("c-bots").checked });
  $("create-error").textContent = "";
  try {
    const made = await api.createTournament(body);
    location.href = `/tournaments/${encodeURIComponent(made.id)}`;
  } catch (error) {
    $("create-error").textContent = accountError(error);
  }
}

async function main() {
  await initI18n();
  startAppShell();
  applyI18n();
  $("lang-slot").replaceWith(languageSwitch());
  const viewer = await mountAccountNav();
  if (viewer) {
    $("create-form").hidden = false;
    $("c-kind").addEventListener("change", kindChanged);
    $("create-form").addEventListener("submit", create);
  } else {
    const note = $("create-login");
    note.hidden = false;
    fill(note, el("a", { href: loginUrl() }, t("tournaments.login_to_create")));
  }
  await load();
  setInterval(load, 30000);
}

main();
