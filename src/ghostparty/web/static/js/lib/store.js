// What this browser remembers: seat tokens per table, the player's name, preferences.

const NAME_KEY = "ghostparty:name";
const SPEED_KEY = "ghostparty:speed";

const TOKENS_PREFIX = "ghostparty:tokens:";

function tokensKey(tableId) {
  return `${TOKENS_PREFIX}${tableId}`;
}

function read(key, fallback) {
  try {
    const raw = localStorage.getItem(key);
    return raw === null ? fallback : JSON.parse(raw);
  } catch {
    return fallback;
  }
}

function write(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Private mode or full storage: the page still works for this visit.
  }
}

/** The tokens this browser holds for a table: {"0": "…", "2": "…"}. */
export function loadTokens(tableId) {
  const tokens = read(tokensKey(tableId), {});
  return tokens && typeof tokens === "object" ? tokens : {};
}

export function saveToken(tableId, seat, token) {
  const tokens = loadTokens(tableId);
  tokens[String(seat)] = token;
  write(tokensKey(tableId), tokens);
  return tokens;
}

export function dropToken(tableId, seat) {
  const tokens = loadTokens(tableId);
  delete tokens[String(seat)];
  write(tokensKey(tableId), tokens);
  return tokens;
}

/** Every seat this browser holds, of every table: [{table, seat, token}]. */
export function heldSeats() {
  const held = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (!key?.startsWith(TOKENS_PREFIX)) continue;
      const table = key.slice(TOKENS_PREFIX.length);
      for (const [seat, token] of Object.entries(loadTokens(table))) {
        if (typeof token === "string" && /^\d+$/.test(seat)) held.push({ table, seat: Number(seat), token });
      }
    }
  } catch {
    // No storage: no seats.
  }
  return held;
}

export function loadName() {
  const name = read(NAME_KEY, "");
  return typeof name === "string" ? name : "";
}

export function saveName(name) {
  write(NAME_KEY, name);
}

/** Animation speed: "normal", "fast" or "off". */
export function loadSpeed() {
  const speed = read(SPEED_KEY, "normal");
  return ["normal", "fast", "off"].includes(speed) ? speed : "normal";
}

export function saveSpeed(speed) {
  write(SPEED_KEY, speed);
}
