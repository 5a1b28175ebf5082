// The pieces as the page shows them, and the engine's events played out on them.
//
// A Scene holds guests with stable ids so that one token moves across the board
// instead of vanishing and reappearing. play() walks an update's events one by one
// (FORMAT.md locations throughout); the position that comes with the update is
// authoritative and is laid over the scene at the end (reconcile).

import { sleep } from "../lib/dom.js";
import { t } from "../lib/i18n.js";

const TIMING = {
  normal: { die: 650, hop: 170, hugo: 300, capture: 650, pause: 260, banner: 900 },
  fast: { die: 180, hop: 50, hugo: 80, capture: 170, pause: 60, banner: 200 },
  off: { die: 0, hop: 0, hugo: 0, capture: 0, pause: 0, banner: 0 },
};

export class Scene {
  constructor() {
    this.guests = []; // {id, seat, loc}
    this.hugo = null;
    this.nextId = 1;
  }

  /** Make the scene match a position, moving as few tokens as possible. */
  reconcile(position) {
    if (!position) {
      this.guests = [];
      this.hugo = null;
      return;
    }
    const next = [];
    position.guests.forEach((locs, seat) => {
      const mine = this.guests.filter((g) => g.seat === seat);
      const wanted = [...locs];
      const kept = [];
      for (const guest of mine) {
        const i = wanted.indexOf(guest.loc);
        if (i >= 0) {
          wanted.splice(i, 1);
          kept.push(guest);
        }
      }
      const spare = mine.filter((g) => !kept.includes(g));
      for (const loc of wanted) {
        const guest = spare.shift() ?? { id: this.nextId++, seat };
        guest.loc = loc;
        kept.push(guest);
      }
      next.push(...kept);
    });
    this.guests = next;
    this.hugo = position.hugo;
  }

  find(seat, loc) {
    return this.guests.find((g) => g.seat === seat && g.loc === loc);
  }
}

/**
 * Play one update's events on the scene and the board.
 * ui: {board, speed(), isCurrent(), score(seat, value), banner(text)}
 * Stops early (without error) when isCurrent() turns false: a full state laid over the
 * scene meanwhile (table.js onState) owns it from then on, so nothing is moved on it
 * after any pause without asking first (a guest moved there would be drawn twice).
 */
export async function play(events, scene, ui) {
  const board = ui.board;
  const render = () => {
    board.setGuests(scene.guests);
    board.setHugo(scene.hugo);
  };
  /** Pause; whether the scene is still this animation's. */
  const wait = async (ms) => {
    await sleep(ms);
    return ui.isCurrent();
  };
  for (const event of events) {
    if (!ui.isCurrent()) return;
    const timing = TIMING[ui.speed()] ?? TIMING.normal;
    board.setHop(timing.hop);
    switch (event.type) {
      case "rolled":
        board.showDie(event.face, { rolling: timing.die > 0 });
        if (!(await wait(timing.die))) return;
        break;
      case "placed": {
        scene.guests.push({ id: scene.nextId++, seat: event.seat, loc: event.square });
        render();
        if (!(await wait(timing.pause))) return;
        break;
      }
      case "guest_moved": {
        const guest = scene.find(event.seat, event.source);
        if (!guest) break;
        for (const loc of event.path) {
          guest.loc = loc;
          render();
          if (!(await wait(timing.hop))) return;
        }
        guest.loc = event.target;
        render();
        break;
      }
      case "room_entered":
        board.flash(event.room, event.shield === "neutral" ? "flash" : `flash-${event.shield}`);
        if (!(await wait(timing.pause))) return;
        break;
      case "guest_expelled": {
        const guest = scene.find(event.seat, event.room);
        if (guest) guest.loc = event.square;
        render();
        if (!(await wait(timing.pause))) return;
        break;
      }
      case "hugo_moved":
        scene.hugo = event.target;
        render();
        if (!(await wait(timing.hugo))) return;
        break;
      case "captured": {
        board.flash(event.square, "flash-capture");
        if (!(await wait(timing.pause))) return;
        for (const guest of scene.guests.filter((g) => g.loc === event.square)) guest.loc = event.step;
        render();
        board.flash(event.step, "flash-capture");
        if (!(await wait(timing.capture))) return;
        break;
      }
      case "sent_to_cellar": {
        const guest = scene.find(event.seat, event.square);
        if (guest) guest.loc = event.step;
        render();
        if (!(await wait(timing.hop))) return;
        break;
      }
      case "score_changed":
        ui.score(event.seat, event.new);
        break;
      case "clock_advanced":
        ui.clock(event.time);
        if (!(await wait(timing.pause))) return;
        break;
      case "round_ended":
        ui.banner(t("banner.round_over", { round: event.round }));
        if (!(await wait(timing.banner))) return;
        break;
      case "round_started":
        ui.banner(t("banner.round_begins", { round: event.round }));
        if (!(await wait(timing.banner))) return;
        break;
      case "game_over":
        ui.banner(t("banner.game_over"));
        if (!(await wait(timing.pause))) return;
        break;
      default:
        break;
    }
  }
}
