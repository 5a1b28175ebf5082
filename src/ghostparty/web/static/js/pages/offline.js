// The offline page, /offline: what the service worker (static/sw.js) shows for a page it
// has not kept while the server cannot be reached. Playing needs the server (the rules
// run there); "try again" loads the page that was asked for again (the lobby when this
// page was opened by its own address), and the rules summary works from the kept files.
//
// Hooks for tests (data-testid): offline-page (<main>), offline-again, the rules
// summary's (js/lib/rules-help.js), language.

import { startAppShell } from "../lib/app-shell.js";
import { applyI18n, initI18n, languageSwitch } from "../lib/i18n.js";
import { rulesHelpButton } from "../lib/rules-help.js";

const $ = (id) => document.getElementById(id);

async function main() {
  await initI18n();
  applyI18n(document);
  $("lang-slot").replaceWith(languageSwitch());
  $("rules-slot").append(rulesHelpButton());
  // The page the worker stood in for, again; the lobby when this page was asked for by name.
  $("offline-again").addEventListener("click", () => (location.pathname === "/offline" ? location.assign("/") : location.reload()));
  startAppShell({ bar: false });
}

main();
