// The server's HTTP API and the table WebSocket (docs/PROTOCOL.md).

/** An error answer of the API: {code, message, status, retry_after}: retry_after is the
 * wait, in whole seconds, of a refused limit (the error's own, else Retry-After), or null. */
export class ApiError extends Error {
  constructor(code, message, status, retryAfter = null) {
    super(message);
    this.code = code;
    this.status = status;
    this.retry_after = retryAfter;
  }
}

/** A limit's wait in whole seconds, from the error object or the Retry-After header. */
function waitOf(error, response) {
  const given = Number(error.retry_after ?? response.headers.get("Retry-After"));
  return Number.isFinite(given) && given > 0 ? Math.ceil(given) : null;
}

// The session's CSRF token (GET /api/account, register, login): every POST and DELETE
// carries it while logged in. The first POST of a page waits for the session to be known; a POST
// refused for a stale token (logged in or out on another page) is sent once more with
// the session asked again.
let csrf = null;
let session = null;

async function request(method, path, body) {
  try {
    return await send(method, path, body);
  } catch (error) {
    if (error.code !== "csrf" || method === "GET") throw error;
    await account({ fresh: true });
    return send(method, path, body);
  }
}

async function send(method, path, body) {
  const options = { method, headers: { Accept: "application/json" } };
  if (method === "POST" && !path.startsWith("/api/account")) await account().catch(() => null);
  if (method !== "GET" && csrf) options.headers["X-CSRF-Token"] = csrf;
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch {
    throw new ApiError("network", "The server cannot be reached.", 0);
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const error = (data && data.error) || {};
    throw new ApiError(error.code || "http", error.message || `HTTP ${response.status}`, response.status, waitOf(error, response));
  }
  return data;
}

/** An account call: its answer's csrf (or its logging out) is remembered. */
async function accountRequest(method, path, body) {
  const answer = await request(method, path, body);
  if (answer && "player" in answer) {
    csrf = answer.player ? (answer.csrf ?? csrf) : null;
    session = Promise.resolve(answer);
  }
  return answer;
}

/**
 * The session, {player: {name, created} | null, csrf}: asked once per page (again with
 * fresh); a guest's where the server has no accounts.
 */
export function account({ fresh = false } = {}) {
  if (!session || fresh) {
    session = accountRequest("GET", "/api/account").catch((error) => {
      if (error.status === 404) return { player: null };
      session = null;
      throw error;
    });
  }
  return session;
}

const enc = encodeURIComponent;

export const api = {
  bots: () => request("GET", "/api/bots"),
  analysis: (body) => request("POST", "/api/analysis", body),
  board: (rules) => request("GET", `/api/boards/${encodeURIComponent(rules)}`),
  tables: () => request("GET", "/api/tables"),
  table: (id) => request("GET", `/api/tables/${encodeURIComponent(id)}`),
  create: (body) => request("POST", "/api/tables", body),
  join: (id, seat, name) => request("POST", `/api/tables/${encodeURIComponent(id)}/join`, { seat, name }),
  leave: (id, seat, token) => request("POST", `/api/tables/${encodeURIComponent(id)}/leave`, { seat, token }),
  start: (id, seat, token) => request("POST", `/api/tables/${encodeURIComponent(id)}/start`, { seat, token }),
  register: (name, password, seats) => accountRequest("POST", "/api/account/register", { name, password, seats }),
  login: (name, password, seats) => accountRequest("POST", "/api/account/login", { name, password, seats }),
  logout: () => accountRequest("POST", "/api/account/logout", {}),
  changePassword: (old, next) => accountRequest("POST", "/api/account/password", { old, new: next }),
  deleteAccount: (password) => accountRequest("POST", "/api/account/delete", { password }),
  email: () => request("GET", "/api/account/email"),
  setEmail: (address, language) => request("POST", "/api/account/email", { address, language }),
  emailChoices: (choices) => request("POST", "/api/account/email/choices", choices),
  removeEmail: () => request("POST", "/api/account/email/remove", {}),
  confirmEmail: (token) => request("POST", "/api/email/confirm", { token }),
  resetRequest: (address) => request("POST", "/api/email/reset-request", { address }),
  resetPassword: (token, password) => request("POST", "/api/email/reset", { token, password }),
  unsubscribe: (token) => request("POST", `/api/email/unsubscribe?token=${enc(token)}`),
  linkSeats: (seats) => request("POST", "/api/account/seats", { seats }),
  player: (name) => request("GET", `/api/players/${enc(name)}`),
  records: (names) => request("GET", `/api/records?${names.map((n) => `players=${enc(n)}`).join("&")}`),
  leaderboard: (rules, limit = 50, bots = false) => request("GET", `/api/leaderboard/${enc(rules)}?limit=${limit}${bots ? "&bots=1" : ""}`),
  matchWaiting: () => request("GET", "/api/match"),
  quickMatch: (body) => request("POST", "/api/match", body),
  matchLook: (ticket) => request("POST", "/api/match/look", { ticket }),
  matchLeave: (ticket) => request("POST", "/api/match/leave", { ticket }),
  again: (id, seat, token, now = false) => request("POST", `/api/tables/${enc(id)}/again`, { seat, token, now }),
  series: (id) => request("GET", `/api/tables/${enc(id)}/series`),
  tableTournament: (id) => request("GET", `/api/tables/${enc(id)}/tournament`),
  inviteBot: (name, table, seat) => request("POST", `/api/bots/${enc(name)}/invite`, { table, seat }),
  becomeBot: () => request("POST", "/api/account/bot", { irreversible: true }),
  pushState: () => request("GET", "/api/account/push"),
  pushSubscribe: (subscription, language) => request("POST", "/api/account/push", { ...subscription, language }),
  pushUnsubscribe: (endpoint) => request("DELETE", "/api/account/push", { endpoint }),
  openData: () => request("GET", "/api/account/open-data"),
  setOpenData: (optOut) => request("POST", "/api/account/open-data", { opt_out: optOut }),
  setAccountLanguage: (language) => request("POST", "/api/account/language", { language }),
  openDataIndex: () => request("GET", "/api/open-data"),
  tokens: () => request("GET", "/api/account/tokens"),
  createToken: (body) => request("POST", "/api/account/tokens", body),
  revokeToken: (id) => request("POST", `/api/account/tokens/${enc(id)}/revoke`),
  blocks: () => request("GET", "/api/blocks"),
  block: (body) => request("POST", "/api/blocks", body),
  mutes: (id) => request("GET", `/api/tables/${enc(id)}/mutes`),
  mute: (id, channel, name, muted) => request("POST", `/api/tables/${enc(id)}/mutes`, { channel, name, muted }),
  report: (body) => request("POST", "/api/reports", body),
  friends: () => request("GET", "/api/friends"),
  follow: (name, following = true) => request("POST", "/api/follows", { name, following }),
  following: (name) => request("GET", `/api/follows/${enc(name)}`),
  invitations: () => request("GET", "/api/invitations"),
  invite: (name, table) => request("POST", "/api/invitations", { name, table }),
  acceptInvitation: (id) => request("POST", `/api/invitations/${enc(id)}/accept`, {}),
  declineInvitation: (id) => request("POST", `/api/invitations/${enc(id)}/decline`, {}),
  modReports: () => request("GET", "/api/moderation/reports"),
  modAudit: () => request("GET", "/api/moderation/audit"),
  modTimeout: (name, minutes, reason) => request("POST", "/api/moderation/timeout", { name, minutes, reason }),
  modBan: (name, what, days, reason) => request("POST", "/api/moderation/ban", { name, what, days, reason }),
  modRemoveLine: (table, line, reason) => request("POST", "/api/moderation/remove-line", { table, line, reason }),
  modClose: (id, reason) => request("POST", `/api/moderation/reports/${enc(id)}/close`, { reason }),
  tournaments: () => request("GET", "/api/tournaments"),
  tournament: (id) => request("GET", `/api/tournaments/${enc(id)}`),
  createTournament: (body) => request("POST", "/api/tournaments", body),
  joinTournament: (id, name, entry) => request("POST", `/api/tournaments/${enc(id)}/join`, { ...(name ? { name } : {}), ...(entry ? { entry } : {}) }),
  leaveTournament: (id, entry) => request("POST", `/api/tournaments/${enc(id)}/leave`, entry ? { entry } : {}),
  myTournamentTable: (id, entry) => request("POST", `/api/tournaments/${enc(id)}/me`, entry ? { entry } : {}),
  cancelTournament: (id, reason) => request("POST", `/api/tournaments/${enc(id)}/cancel`, { reason }),
  trophies: (name) => request("GET", `/api/players/${enc(name)}/trophies`),
  nextPuzzle: ({ rules, theme, after } = {}) => {
    const query = new URLSearchParams(Object.entries({ rules, theme, after }).filter(([, value]) => value));
    return request("GET", `/api/puzzles/next${query.size ? `?${query}` : ""}`);
  },
  dailyPuzzle: () => request("GET", "/api/puzzles/daily"),
  puzzle: (id) => request("GET", `/api/puzzles/${enc(id)}`),
  attemptPuzzle: (id, action) => request("POST", `/api/puzzles/${enc(id)}/attempt`, { action }),
  puzzleMe: () => request("GET", "/api/puzzles/me"),
  puzzleThemes: () => request("GET", "/api/puzzles/themes"),
  mistakes: (table = null) => request("GET", `/api/puzzles/mistakes${table ? `?table=${enc(table)}` : ""}`),
  attemptMistake: (table, index, action) => request("POST", `/api/puzzles/mistakes/${enc(table)}/${enc(String(index))}/attempt`, { action }),
  modRename: (name, newName, reason) => request("POST", "/api/moderation/rename", { name, new_name: newName, reason }),
};

/**
 * The lobby's WebSocket (/ws/lobby, logged-in players): calls `onChange` whenever the
 * player's invitations change (and once when connected); reconnects with backoff.
 */
export function listenForInvitations(onChange) {
  let attempt = 0;
  const open = () => {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/lobby`);
    ws.addEventListener("message", (event) => {
      attempt = 0;
      try {
        if (JSON.parse(event.data).type === "invitations") onChange();
      } catch {
        // not JSON: nothing to do
      }
    });
    ws.addEventListener("close", () => {
      const base = Math.min(30000, 1000 * 2 ** attempt);
      attempt += 1;
      setTimeout(open, base / 2 + Math.random() * (base / 2));
    });
  };
  open();
}

/** A table's share link. */
export function tableUrl(id) {
  return `${location.origin}/t/${encodeURIComponent(id)}`;
}

/**
 * One WebSocket to a table that says hello with the held tokens, reconnects with
 * backoff when it closes and says hello again (which brings the state back).
 *
 * handlers: {state(msg), update(msg), error(msg), connection(isUp)}
 */
export class TableSocket {
  constructor(tableId, getTokens, handlers) {
    this.tableId = tableId;
    this.getTokens = getTokens;
    this.handlers = handlers;
    this.ws = null;
    this.attempt = 0;
    this.closed = false;
    this.pingTimer = null;
    this.retryTimer = null;
  }

  open() {
    this.closed = false;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/tables/${encodeURIComponent(this.tableId)}`);
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.attempt = 0;
      this.hello();
      this.handlers.connection?.(true);
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: "ping" }), 25000);
    });
    ws.addEventListener("message", (event) => {
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch {
        return;
      }
      const handler = this.handlers[msg.type];
      if (handler) handler(msg);
    });
    ws.addEventListener("close", () => {
      clearInterval(this.pingTimer);
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.closed) return;
      this.handlers.connection?.(false);
      this.scheduleReconnect();
    });
  }

  scheduleReconnect() {
    const base = Math.min(8000, 400 * 2 ** this.attempt);
    const delay = base / 2 + Math.random() * (base / 2);
    this.attempt += 1;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.open(), delay);
  }

  /** Say hello again, e.g. after joining a seat: the server answers with state. */
  hello() {
    return this.send({ type: "hello", tokens: this.getTokens() });
  }

  sync() {
    return this.send({ type: "sync" });
  }

  act(seat, version, action) {
    return this.send({ type: "act", seat, version, action });
  }

  send(message) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  close() {
    this.closed = true;
    clearInterval(this.pingTimer);
    clearTimeout(this.retryTimer);
    if (this.ws) this.ws.close();
  }
}
