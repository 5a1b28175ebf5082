// The puzzles page's pure parts (no DOM; tests/js/puzzles.test.mjs): which puzzle an
// address asks for, what may be clicked on the board, the reason in the page's language,
// and a guest's streak, kept in the browser (guests are not rated).

/** The themes a puzzle may have (src/ghostparty/analysis/themes.py THEMES), in its order. */
export const THEMES = [
  "hides",
  "lucky-room",
  "expels",
  "escapes-hugo",
  "stays-hidden",
  "leaves-cellar",
  "ends-round",
  "saves-points",
  "passes",
  "placement",
];

/**
 * What the address asks for: {mistakes: true, table} for "#mistakes" or "?mistakes" (one's
 * own mistakes; "=<table id>": that game's alone, else table is null), {daily: true} for
 * "#daily" or "?daily", {id} for "#id=…" or "?id=…", else {} (the next puzzle of the filters).
 */
export function addressRequest(search, hash) {
  const query = new URLSearchParams(String(search ?? "").replace(/^\?/, ""));
  const fragment = new URLSearchParams(String(hash ?? "").replace(/^#/, ""));
  for (const params of [fragment, query]) {
    if (params.has("mistakes")) return { mistakes: true, table: params.get("mistakes") || null };
  }
  if (query.has("daily") || fragment.has("daily")) return { daily: true };
  const id = fragment.get("id") || query.get("id");
  return id ? { id } : {};
}

/**
 * The locations the player may click. With the puzzle's legal actions (`legal`, as the
 * game page gets them): exactly those. Without them: any of the mover's guests, and then
 * any other location but Hugo's start and a room of the mover's own (no move ends there);
 * the server judges the move.
 */
export function boardTargets(puzzle, selected, allLocations = []) {
  const legal = puzzle.legal;
  if (puzzle.phase === "place") {
    const places = legal ? legal.filter((a) => a.place !== undefined).map((a) => a.place) : freeSquares(puzzle.position, allLocations);
    return { places: new Set(places), sources: new Set(), dests: new Set(), selected: null };
  }
  const mine = puzzle.position.guests[puzzle.to_move] ?? [];
  const sources = legal ? new Set(legal.filter((a) => a.from !== undefined).map((a) => a.from)) : new Set(mine);
  const chosen = sources.has(selected) ? selected : null;
  let dests = new Set();
  if (chosen !== null) {
    dests = legal
      ? new Set(legal.filter((a) => a.from === chosen).map((a) => a.to))
      : new Set(allLocations.filter((loc) => loc !== chosen && loc !== "START" && !(loc.startsWith("R:") && mine.includes(loc))));
  }
  return { places: new Set(), sources, dests, selected: chosen };
}

/** Gallery squares ("G0" …) on which no guest and not Hugo stands. */
function freeSquares(position, allLocations) {
  const taken = new Set([position.hugo, ...position.guests.flat()]);
  return allLocations.filter((loc) => /^G\d+$/.test(loc) && !taken.has(loc));
}

/**
 * A click on `loc`: {action} when it completes an action, else {selected} (the guest
 * now chosen, or null).
 */
export function pickOn(puzzle, selected, loc, allLocations = []) {
  const targets = boardTargets(puzzle, selected, allLocations);
  if (targets.places.has(loc)) return { action: { place: loc } };
  if (targets.selected !== null && targets.dests.has(loc)) return { action: { from: targets.selected, to: loc } };
  return { selected: targets.sources.has(loc) && loc !== targets.selected ? loc : null };
}

/** The reason in `language`, English where it has none in that language. */
export function reasonText(reason, language) {
  if (!reason) return "";
  return reason[language] || reason.en || "";
}

/** Whether two actions are the same (their JSON, keys in any order). */
export function sameAction(a, b) {
  if (!a || !b) return false;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((key) => a[key] === b[key]);
}

export const GUEST_STREAK_KEY = "ghostparty:puzzle-streak";

/**
 * A guest's streak after an attempt: {streak, best, seen}, kept in `storage` (localStorage)
 * under GUEST_STREAK_KEY. A puzzle counts once: trying the same one again changes nothing.
 */
export function countGuestStreak(storage, puzzleId, correct) {
  const kept = readGuestStreak(storage);
  if (kept.seen.includes(puzzleId)) return kept;
  const streak = correct ? kept.streak + 1 : 0;
  const next = { streak, best: Math.max(kept.best, streak), seen: [...kept.seen, puzzleId].slice(-200) };
  try {
    storage.setItem(GUEST_STREAK_KEY, JSON.stringify(next));
  } catch {
    // storage full or refused: the streak lives for this page only
  }
  return next;
}

/** A guest's streak as kept in `storage`: {streak, best, seen}; nothing kept or a damaged entry: zeros. */
export function readGuestStreak(storage) {
  try {
    const read = JSON.parse(storage.getItem(GUEST_STREAK_KEY) ?? "null");
    if (read && Number.isInteger(read.streak) && Number.isInteger(read.best) && Array.isArray(read.seen)) return read;
  } catch {
    // a damaged entry starts again
  }
  return { streak: 0, best: 0, seen: [] };
}
