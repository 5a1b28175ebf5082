// The game page's state, and the one pure function that changes it:
//
//   reduce(state, message) -> the next state
//
// `message` is one of the server's (docs/PROTOCOL.md: state, update, error) or one of the
// page's own (below). No DOM, no fetch, no clock here, and the input is never changed: a
// new object comes back (or the same one when nothing changed). The views (views/*.js)
// are given the state and draw it; table.js only wires the socket and the events to
// reduce() and the views. The replay (replay.js) is the same reducer over a finished
// game's recorded steps (replayMessages). tests/js/state.test.js tests it under Node.
//
// The page's own messages:
//   {type: "received", message}  an update arrived: queued to be animated (or dropped)
//   {type: "applied"}            the queue's first update has been animated: it is shown
//   {type: "animating", on}      an update's events are being played on the board
//   {type: "score", seat, value} a score the animation has reached
//   {type: "select", location}   the guest chosen to move (null: none)
//   {type: "hint", location}     the destination hovered or focused on the board
//   {type: "acted"}              an action was sent: nothing more until the answer
//   {type: "connection", up}     the socket is open, or lost
//   {type: "account", player}    the logged-in player (null: none)
//   {type: "series", series}     GET /api/tables/{id}/series

/** The state before the first message. */
export function initialState() {
  return {
    table: null, // the table (docs/PROTOCOL.md)
    position: null, // FORMAT.md's position, or null before the game
    legal: [], // what this page may do now
    effects: [], // what each legal action would cause, in legal's order
    odds: [], // Hugo's reach for the seat to move
    points: null, // each seat's points pending until the round ends (the server's `pending`)
    held: [], // the seats this page holds, in order
    log: [], // every entry so far: {index, seat, action, events}
    seen: -1, // the newest table version received
    queue: [], // updates received, not yet animated and shown
    generation: 0, // one more with every full state: older animations stop
    die: null, // the face the die shows: the last roll
    scores: null, // the scores while an animation counts them (null: the position's)
    selected: null, // the guest chosen to move
    hint: null, // the destination hovered or focused
    waiting: false, // an action is on its way
    acted: false, // this page has acted at least once
    animating: false,
    connected: false,
    account: null,
    series: null,
  };
}

/** The last roll in a log (null: none). */
function lastRoll(log) {
  for (let i = log.length - 1; i >= 0; i--) {
    const action = log[i]?.action;
    if (action && "roll" in action) return action.roll;
  }
  return null;
}

/** What a `state` or an `update` says about the table and the position. */
function shown(msg) {
  return {
    table: msg.table,
    position: msg.position ?? null,
    legal: msg.legal ?? [],
    effects: msg.effects ?? [],
    odds: msg.odds ?? [],
    points: msg.pending ?? null,
    scores: null,
  };
}

/** Whether an update is older than what the page has, or an action it already has (a
 * presence change keeps the version and carries no entry). */
export function isStale(state, msg) {
  const version = msg.table.version;
  return version < state.seen || (version === state.seen && Boolean(msg.entry));
}

/** Whether an update skips versions: the page must ask for the whole state. */
export function skipsVersions(state, msg) {
  return !isStale(state, msg) && state.seen >= 0 && msg.table.version > state.seen + 1;
}

const HANDLERS = {
  state(state, msg) {
    const log = msg.log ?? [];
    const position = msg.position ?? null;
    return {
      ...state,
      ...shown(msg),
      held: (msg.seats ?? []).map(Number),
      log,
      seen: msg.table.version,
      queue: [],
      generation: state.generation + 1,
      die: position?.phase === "move" ? position.roll : lastRoll(log),
      // A state of the version shown (a catch-up, a reconnect) keeps the guest chosen:
      // nothing moved; chosen() drops it if it may no longer move.
      selected: msg.table.version === state.seen ? state.selected : null,
      waiting: false,
    };
  },

  // An update as it is applied (the replay applies its steps at once).
  update(state, msg) {
    const entry = msg.entry ?? null;
    const has = entry && state.log.some((e) => e.index === entry.index);
    const position = msg.position ?? null;
    let die = state.die;
    if (entry?.action && "roll" in entry.action) die = entry.action.roll;
    else if (position?.phase === "move") die = position.roll;
    return {
      ...state,
      ...shown(msg),
      log: entry && !has ? [...state.log, entry] : state.log,
      die,
      waiting: false,
    };
  },

  received(state, { message }) {
    if (isStale(state, message)) return state;
    return { ...state, seen: message.table.version, queue: [...state.queue, message] };
  },

  applied(state) {
    if (!state.queue.length) return state;
    const [first, ...rest] = state.queue;
    return { ...HANDLERS.update(state, first), queue: rest };
  },

  animating(state, { on }) {
    return on ? { ...state, animating: true, legal: [], effects: [], selected: null } : { ...state, animating: false };
  },

  score(state, { seat, value }) {
    const scores = [...(state.scores ?? state.position?.scores ?? [])];
    scores[seat] = value;
    return { ...state, scores };
  },

  select(state, { location }) {
    return { ...state, selected: location ?? null };
  },

  hint(state, { location }) {
    return { ...state, hint: location ?? null };
  },

  acted(state) {
    return { ...state, waiting: true, acted: true, selected: null };
  },

  error(state) {
    return state.waiting ? { ...state, waiting: false } : state;
  },

  connection(state, { up }) {
    return { ...state, connected: Boolean(up) };
  },

  account(state, { player }) {
    return { ...state, account: player ?? null };
  },

  series(state, { series }) {
    return { ...state, series };
  },
};

/** The state after `message`; an unknown message type is an error (a page's bug). */
export function reduce(state, message) {
  const handler = HANDLERS[message?.type];
  if (!handler) throw new Error(`reduce: unknown message type ${JSON.stringify(message?.type)}; expected one of ${Object.keys(HANDLERS).join(", ")}`);
  return handler(state, message);
}

// ---------------------------------------------------------------- what the state implies

/** Whether the page may act now: its move, settled, nothing on its way. */
export function interactive(state) {
  return !state.waiting && !state.animating && state.queue.length === 0 && state.legal.length > 0;
}

/** The guests that may move (their locations). */
export function sources(state) {
  return new Set(state.legal.filter((a) => "from" in a).map((a) => a.from));
}

/** Where the guest on `source` may go. */
export function destinations(state, source) {
  return new Set(state.legal.filter((a) => a.from === source).map((a) => a.to));
}

/** The guest chosen to move: the only one that may, else the one picked while it still may. */
export function chosen(state) {
  if (!interactive(state) || state.position?.phase !== "move") return state.selected;
  const from = sources(state);
  if (from.size === 1) return [...from][0];
  return from.has(state.selected) ? state.selected : null;
}

/** The legal placements, safest first: the squares Hugo reaches last from where he comes
 * onto the gallery (`board`: GET /api/boards/{rules}, its arrow square and size). */
export function placements(state, board) {
  const n = board?.squares ?? 40;
  const entry = Number(String(board?.arrow ?? "G0").slice(1));
  const ahead = (loc) => (Number(loc.slice(1)) - entry + n) % n;
  const squares = state.legal.filter((a) => "place" in a).map((a) => a.place);
  return squares.sort((a, b) => ahead(b) - ahead(a));
}

/** What a click on `location` means now: {act: action}, {select: location}, or null. */
export function pick(state, location) {
  if (!interactive(state)) return null;
  const phase = state.position?.phase;
  if (phase === "place") return state.legal.some((a) => a.place === location) ? { act: { place: location } } : null;
  if (phase !== "move") return null;
  const selected = chosen(state);
  if (selected && destinations(state, selected).has(location)) return { act: { from: selected, to: location } };
  const from = sources(state);
  if (from.has(location)) return { select: selected === location && from.size > 1 ? null : location };
  return null;
}

/** Whether an action, animation or queued update keeps the page busy. */
export function busy(state) {
  return state.animating || state.queue.length > 0 || state.waiting;
}

/** A seat this page holds that a bot plays for (its person was away), if any. */
export function awaySeat(state) {
  return state.held.find((seat) => state.table?.status === "playing" && state.table.seats[seat]?.away);
}

/** Whether the odds are shown: to whoever holds the seat to move, once settled. */
export function showsOdds(state) {
  return state.table?.status === "playing" && state.held.includes(state.table.to_move) && !state.animating && state.queue.length === 0;
}

// ---------------------------------------------------------------- the replay

/**
 * A finished game's replay (GET /api/tables/{id}/replay: {record, steps, pending}) as the
 * messages this reducer takes: a `state` at the start, then one `update` per action,
 * each with the whole position (the start with every step's changes laid over it) and
 * the pending points (a step has them only where they changed).
 * `tableAt(position)` is the table as the seats panel reads it at that position.
 */
export function replayMessages(data, tableAt) {
  const start = data.record.start;
  const messages = [{ type: "state", table: tableAt(start), position: start, seats: [], log: [], pending: data.pending ?? null }];
  let position = start;
  let pending = data.pending ?? null;
  data.steps.forEach((step, index) => {
    position = { ...position, ...step.changes };
    if ("pending" in step) pending = step.pending; // only where it changed
    const entry = { index, seat: step.seat, action: data.record.actions[index], events: step.events ?? [] };
    messages.push({ type: "update", table: tableAt(position), position, entry, pending });
  });
  return messages;
}

/** The states of a replay: [0] at the start, [k + 1] after action k. */
export function replayStates(data, tableAt) {
  const states = [];
  let state = initialState();
  for (const message of replayMessages(data, tableAt)) {
    state = reduce(state, message);
    states.push(state);
  }
  return states;
}
