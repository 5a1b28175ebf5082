// Translations: one JSON file per language in /static/i18n/<code>.json, a flat object
// of keys to strings. The languages on offer come from GET /api/languages, so adding a
// language is adding one file (with the same keys as en.json and its own
// "language.name").
//
//   await initI18n();            // before anything is rendered
//   t("lobby.create")            // "Create table" / "Tisch eröffnen"
//   t("status.rolled", {n: 4})   // {n} in the string is replaced
//   tn("lobby.free", 2)          // plural: the keys "lobby.free.one" and "lobby.free.other"
//   applyI18n(document)          // fills [data-i18n] and [data-i18n-attr] elements
//   errorText(apiError)          // a server error by its code, else the server's message
//   waitText(240)                // "4 minutes" / "4 Minuten": a limit's wait (retry_after)
//
// A key the language lacks shows as ⟦key⟧, so that a missing translation is seen
// (and the browser tests look for it) instead of silently showing another language.

const LANG_KEY = "ghostparty:lang";
const FALLBACK = "en";

let code = FALLBACK;
let strings = {};
let languages = [{ code: FALLBACK, name: "English" }];
const listeners = new Set();

function stored() {
  try {
    return JSON.parse(localStorage.getItem(LANG_KEY) ?? "null");
  } catch {
    return null;
  }
}

function store(value) {
  try {
    localStorage.setItem(LANG_KEY, JSON.stringify(value));
  } catch {
    // Private mode: the choice lasts for this page only.
  }
}

/** The best of the offered codes for this browser: stored choice, then navigator.languages. */
export function pickLanguage(offered, remembered, preferred) {
  const codes = offered.map((l) => l.code);
  if (remembered && codes.includes(remembered)) return remembered;
  for (const tag of preferred ?? []) {
    const lower = String(tag).toLowerCase();
    if (codes.includes(lower)) return lower;
    const base = lower.split("-")[0];
    if (codes.includes(base)) return base;
  }
  return codes.includes(FALLBACK) ? FALLBACK : (codes[0] ?? FALLBACK);
}

/** A language's file, static/i18n/ (two folders up from js/lib/): under the same versioned URL as the page's
 * scripts (/assets/{version}/i18n/…), so that browsers keep it as long as they may. */
function languageFile(language) {
  return new URL(`../../i18n/${encodeURIComponent(language)}.json`, import.meta.url).href;
}

async function fetchJson(path) {
  const response = await fetch(path, { headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return response.json();
}

/** The languages to try without the server's list: the remembered one, the browser's, English. */
export function offlineCandidates(remembered, preferred) {
  const codes = [remembered, ...(preferred ?? []).map((tag) => String(tag).toLowerCase().split("-")[0]), FALLBACK];
  const valid = codes.filter((one) => typeof one === "string" && /^[a-z]{2,3}(-[a-z0-9]+)?$/.test(one));
  return [...new Set(valid)].map((one) => ({ code: one, name: one }));
}

/** Load the list of languages and the chosen language's strings. */
export async function initI18n() {
  let listed = false;
  const preferred = navigator.languages?.length ? navigator.languages : [navigator.language];
  try {
    const answer = await fetchJson("/api/languages");
    if (Array.isArray(answer.languages) && answer.languages.length) [languages, listed] = [answer.languages, true];
  } catch {
    // Offline (the service worker keeps the language files, not the list) or an old
    // server: the remembered or the browser's language if its file loads, else English.
    languages = offlineCandidates(stored(), preferred);
  }
  code = pickLanguage(languages, stored(), preferred);
  try {
    strings = await fetchJson(languageFile(code));
  } catch {
    code = FALLBACK;
    strings = await fetchJson(languageFile(FALLBACK)).catch(() => ({}));
  }
  if (!listed) languages = [{ code, name: strings["language.name"] ?? code }];
  document.documentElement.lang = code;
  document.documentElement.dataset.lang = code;
  return code;
}

export function currentLanguage() {
  return code;
}

export function availableLanguages() {
  return languages;
}

/** Whether the current language has the key. */
export function has(key) {
  return typeof strings[key] === "string";
}

function fillIn(text, params) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => (params && name in params ? String(params[name]) : whole));
}

/** The text of a key, with {name} placeholders filled from params. */
export function t(key, params) {
  const text = strings[key];
  if (typeof text !== "string") return `⟦${key}⟧`;
  return fillIn(text, params);
}

/** A counted text: key.one / key.other (and any other Intl plural category), {n} = count. */
export function tn(key, count, params = {}) {
  let category = "other";
  try {
    category = new Intl.PluralRules(code).select(count);
  } catch {
    category = count === 1 ? "one" : "other";
  }
  const chosen = has(`${key}.${category}`) ? `${key}.${category}` : `${key}.other`;
  return t(chosen, { n: count, ...params });
}

/** A key if the language has it, else the given text (e.g. a server message). */
export function tOr(key, fallback, params) {
  return has(key) ? t(key, params) : fallback;
}

/** A wait in words of the current language: "40 seconds", "4 minutes", "1 hour, 5 minutes". */
export function waitText(seconds) {
  const whole = Math.max(1, Math.ceil(seconds));
  const unit = (n, name) => {
    try {
      return new Intl.NumberFormat(code, { style: "unit", unit: name, unitDisplay: "long" }).format(n);
    } catch {
      return `${n} ${name}${n === 1 ? "" : "s"}`;
    }
  };
  if (whole < 90) return unit(whole, "second");
  const minutes = Math.ceil(whole / 60);
  if (minutes < 90) return unit(minutes, "minute");
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest ? t("wait.hours_minutes", { hours: unit(hours, "hour"), minutes: unit(rest, "minute") }) : unit(hours, "hour");
}

/** The wait a refused limit asks for, in seconds (`retry_after` of the server's answer), or null. */
export function retryAfter(error) {
  const seconds = Number(error?.retry_after);
  return error?.code === "rate_limited" && Number.isFinite(seconds) && seconds > 0 ? seconds : null;
}

/** A server error ({code, message}) in the current language, by its code; a refused
 * limit says how long to wait when the server said (retry_after). */
export function errorText(error) {
  const errorCode = error?.code;
  const message = error?.message || errorCode || "";
  const wait = retryAfter(error);
  if (wait !== null) return t("error.rate_limited_wait", { wait: waitText(wait) });
  return errorCode ? tOr(`error.${errorCode}`, message) : t("error.unknown");
}

/**
 * Fill the translated parts of a page: data-i18n="key" sets the text, and
 * data-i18n-attr="placeholder:key;title:key" sets attributes.
 */
export function applyI18n(root = document) {
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of node.dataset.i18nAttr.split(";")) {
      const [attr, key] = pair.split(":").map((s) => s.trim());
      if (attr && key) node.setAttribute(attr, t(key));
    }
  }
  if (root === document) {
    const title = document.querySelector("title[data-i18n]");
    if (title) document.title = title.textContent;
  }
}

/** Choose a language: remembered (by the account too, through the listeners: they may
 * take a moment, at most two seconds), then the page reloads in it. */
export async function setLanguage(next) {
  store(next);
  const told = Promise.allSettled([...listeners].map((listener) => listener(next)));
  await Promise.race([told, new Promise((resolve) => setTimeout(resolve, 2000))]);
  location.reload();
}

/** The language an account chose on another device: taken (and the page reloaded in it)
 * unless this browser has it already. False if nothing changed: also where the browser
 * keeps no choice (private mode) or took this one already in this tab, so that a page
 * never reloads in a loop. */
export function adoptLanguage(chosen) {
  if (!chosen || chosen === stored() || !languages.some((language) => language.code === chosen)) return false;
  const ADOPTED = "ghostparty:lang-adopted";
  try {
    if (sessionStorage.getItem(ADOPTED) === chosen) return false;
    sessionStorage.setItem(ADOPTED, chosen);
  } catch {
    return false;
  }
  store(chosen);
  if (stored() !== chosen) return false;
  location.reload();
  return true;
}

/** The language this browser chose, or null if it never did (then navigator.languages decide). */
export function chosenLanguage() {
  return stored();
}

export function onLanguageChange(listener) {
  listeners.add(listener);
}

/** The language switch for a top bar: a labelled <select> of every language file. */
export function languageSwitch() {
  const label = document.createElement("label");
  label.className = "language";
  const text = document.createElement("span");
  text.className = "language-label";
  text.textContent = t("language.choose");
  const select = document.createElement("select");
  select.dataset.testid = "language";
  select.setAttribute("aria-label", t("language.choose"));
  for (const language of languages) {
    const option = document.createElement("option");
    option.value = language.code;
    option.textContent = language.name;
    select.append(option);
  }
  select.value = code;
  select.addEventListener("change", () => setLanguage(select.value));
  label.append(text, select);
  return label;
}
