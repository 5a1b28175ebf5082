"""Every click and tap on the board lands, and every guest is drawn once.

Two people play a whole four-player midnight-party game against two bots in two
browsers: Ann with the mouse on a wide screen, her animations on (fast), Bob by touch on
a phone. Each of them clicks or taps a glowing target picked at random (any glowing
guest, also one of several on one location, then any glowing destination) at a random
point of its body, with a short timeout: Playwright fails a click whose point another
node would take ("… intercepts pointer events") instead of waiting for it.

Ann's page asks for the whole state again at random moments while guests move, so that
states keep arriving in the middle of an animation (as the catch-up of a server with
several instances sends them); each page checks, whenever it has settled, that it shows
each guest of the position it was last sent once, on its location (no second token for
a guest, none missing).

A full state sent again while a guest is chosen (a catch-up, a reconnect) keeps it
chosen, and the next click on a destination moves it.

Skipped with a message when Playwright or /usr/bin/chromium is missing; never runs
``playwright install``.
"""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from .helpers import act, api_get, api_post, expected_board, new_page, offer, shown_board, target

pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install playwright)")

#: Table ids and seeds of this module's server (tests/browser/conftest.py).
SERVER_SEED = 38
#: A phone held upright, touched.
PHONE = (390, 844)
TOUCH = {"device_scale_factor": 2, "is_mobile": True, "has_touch": True}
#: How long a click or tap may wait for its target: enough for a token to stop gliding.
CLICK_MS = 3000
#: More UI actions than two people take in one game.
MAX_ACTIONS = 800

#: Watches the page: what it was sent last (mirroring js/table/state.js: a state always, an
#: update unless stale), and whenever the page has settled, whether its tokens are the
#: guests of that position, one each (`__wrong` lists each difference once). With
#: `syncs`, a `sync` is sent at a random moment while a guest moves (a state arrives
#: mid-animation); `__mid` counts the states that came while the page was busy.
WATCH = """(syncs) => {
  window.__shown = { version: -1, position: null };
  window.__wrong = [];
  window.__mid = 0;
  window.__syncs = 0;
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (event) => {
        let msg;
        try { msg = JSON.parse(event.data); } catch { return; }
        const shown = window.__shown;
        if (msg.type === "state") {
          if (document.querySelector("main")?.dataset.busy === "true") window.__mid += 1;
          window.__shown = { version: msg.table.version, position: msg.position ?? null };
        } else if (msg.type === "update") {
          const version = msg.table.version;
          if (version > shown.version || (version === shown.version && !msg.entry)) {
            window.__shown = { version, position: msg.position ?? null };
          }
          const moved = (msg.entry?.events ?? []).find((e) => e.type === "guest_moved");
          if (syncs && moved) {
            setTimeout(() => {
              if (this.readyState !== Native.OPEN) return;
              this.send(JSON.stringify({ type: "sync" }));
              window.__syncs += 1;
            }, Math.random() * 60 * (moved.path.length + 3));
          }
        }
      });
    }
  };
  const seen = new Set();
  setInterval(() => {
    const main = document.querySelector("main");
    if (!main || main.dataset.busy !== "false") return;
    const count = (keys) => keys.reduce((all, key) => ({ ...all, [key]: (all[key] ?? 0) + 1 }), {});
    const { version, position } = window.__shown;
    const want = count((position?.guests ?? []).flatMap((locs, seat) => locs.map((loc) => `${seat}:${loc}`)));
    const have = count([...document.querySelectorAll("[data-testid=board] g.guest")].map((n) => n.dataset.guest));
    for (const key of new Set([...Object.keys(want), ...Object.keys(have)])) {
      const line = `version ${version}: guest ${key} drawn ${have[key] ?? 0} times, ${want[key] ?? 0} in the position`;
      if ((want[key] ?? 0) !== (have[key] ?? 0) && !seen.has(line)) {
        seen.add(line);
        window.__wrong.push(line);
      }
    }
  }, 20);
}"""

#: The glowing targets of a kind, each with a random point of its body (a square's,
#: room's or step's box; well inside a guest's disc) relative to its bounding client
#: rectangle, and the location it stands for.
TARGETS = """([kind, seed]) => {
  let state = seed;
  const rand = () => ((state = (state * 1103515245 + 12345) % 2147483648) / 2147483648);
  const nodes = [...document.querySelectorAll(`[data-testid=board] [data-legal=true][data-legal-kind=${kind}]`)];
  return nodes.map((node, index) => {
    const outer = node.getBoundingClientRect();
    const disc = node.querySelector(":scope > .guest-disc");
    let x, y;
    if (disc) {
      const r = disc.getBoundingClientRect();
      const angle = rand() * 2 * Math.PI;
      const reach = (r.width / 2) * 0.7 * Math.sqrt(rand());
      x = r.left + r.width / 2 + reach * Math.cos(angle);
      y = r.top + r.height / 2 + reach * Math.sin(angle);
    } else {
      const body = node.querySelector(":scope > .square-box, :scope > .room-box, :scope > .step-box");
      if (!body) throw new Error(`no body in ${node.outerHTML.slice(0, 300)}`);
      // A point of the body that shows (what a person sees and presses): not under a
      // glowing guest drawn over the square's edge, nor under the page's sticky top bar.
      const r = body.getBoundingClientRect();
      for (let tries = 0; tries < 40; tries++) {
        x = r.left + r.width * (0.1 + 0.8 * rand());
        y = r.top + r.height * (0.1 + 0.8 * rand());
        const top = document.elementFromPoint(x, y);
        if (top && node.contains(top)) break;
      }
    }
    const loc = node.dataset.square || node.dataset.location || node.dataset.loc;
    return { index, loc, x: x - outer.left, y: y - outer.top };
  });
}"""


class Player:
    """A person at the table: their page, their seat, mouse or touch, and what they did."""

    def __init__(self, page: Any, seat: int, *, touch: bool, seed: int) -> None:
        self.page = page
        self.seat = seat
        self.touch = touch
        self.random = random.Random(seed)
        self.presses = 0
        self.guests_pressed = 0

    def press(self, node: Any, what: str, position: dict[str, float] | None = None) -> None:
        """Click or tap ``node`` (at ``position``): it must land within CLICK_MS."""
        from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

        try:
            if self.touch:
                node.tap(position=position, timeout=CLICK_MS)
            else:
                node.click(position=position, timeout=CLICK_MS)
        except PlaywrightTimeoutError as error:
            verb = "tap" if self.touch else "click"
            pytest.fail(f"seat {self.seat}: the {verb} on {what} did not land: {error}")
        self.presses += 1

    def press_target(self, kind: str) -> str:
        """Press one glowing target of ``kind``, picked at random; the location it stands for."""
        targets = self.page.evaluate(TARGETS, [kind, self.random.randrange(1, 2**31)])
        assert targets, f"seat {self.seat}: nothing of kind {kind} glows"
        chosen = self.random.choice(targets)
        node = self.page.locator(f"[data-testid=board] [data-legal=true][data-legal-kind={kind}]").nth(chosen["index"])
        # In the middle of the window, clear of the sticky top bar, then a visible point of it.
        node.evaluate("(n) => n.scrollIntoView({block: 'center', inline: 'center'})")
        again = self.page.evaluate(TARGETS, [kind, self.random.randrange(1, 2**31)])
        if chosen["index"] < len(again):
            chosen = again[chosen["index"]]
        # Playwright measures a position from the node's box as its content quads draw it,
        # strokes included: the glowing outline or disc makes that box up to 1.5 px wider
        # on each side than getBoundingClientRect's, which TARGETS measured from. Pressed
        # uncorrected, a point checked clear by up to 1.5 px lands on a neighbour's glowing
        # guest, on every retry, whatever the scroll.
        drawn = node.evaluate("(n) => { const r = n.getBoundingClientRect(); return [r.x, r.y]; }")
        box = node.bounding_box()
        assert box is not None, f"seat {self.seat}: the glowing {kind} {chosen['loc']} has no box"
        point = {"x": chosen["x"] + drawn[0] - box["x"], "y": chosen["y"] + drawn[1] - box["y"]}
        self.press(node, f"the glowing {kind} {chosen['loc']}", point)
        if kind == "source":
            self.guests_pressed += 1
        return str(chosen["loc"])

    def play(self, kind: str) -> str:
        """Do what the page offers (``kind``, see helpers.offer) by clicks or taps."""
        if kind in ("roll", "pass"):
            self.press(self.page.get_by_test_id(kind), f"the {kind} button")
            return kind
        if kind == "place":
            return f"place {self.press_target('place')}"
        if kind == "source":
            source = self.press_target("source")
            self.page.wait_for_selector("[data-testid=board] [data-legal=true][data-legal-kind=dest]")
        else:  # the only guest that may move is chosen already: pressing it keeps it chosen
            source = "the chosen guest"
            if self.random.random() < 0.5 and self.page.locator("[data-legal-kind=source]").count():
                source = self.press_target("source")
        return f"{source} → {self.press_target('dest')}"


def _taken(base_url: str, table_id: str, version: int) -> None:
    """Wait until the server has taken the action just sent (the table's version moved on)."""
    deadline = time.monotonic() + 10
    while api_get(base_url, f"/api/tables/{table_id}")["table"]["version"] <= version:
        assert time.monotonic() < deadline, f"the server never took the action after version {version}"
        time.sleep(0.01)


def _sit(page: Any, seat: int, name: str, *, touch: bool) -> None:
    page.get_by_test_id(f"name-{seat}").fill(name)
    join = page.get_by_test_id(f"join-{seat}")
    if touch:
        join.tap()
    else:
        join.click()
    page.get_by_test_id(f"leave-{seat}").wait_for()


# Flaky on a loaded machine: a glowing destination stayed aria-disabled for a whole press
# (Playwright: "element is not enabled"), or a press landed and the server took nothing.
# One cause was the page's: a state sent again (Ann's syncs) let go the guest she had
# just chosen (test_a_state_sent_again_… below). Reruns stay for a loaded machine.
@pytest.mark.flaky(reruns=3)
def test_two_people_play_a_whole_game_by_mouse_and_by_touch_and_every_press_lands(browser: Any, base_url: str) -> None:
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "greedy"}]
    created = api_post(base_url, "/api/tables", {"rules": "midnight-party", "seats": seats, "first_player": 0})
    table_id = created["table"]["id"]

    ann_page = new_page(browser, speed="fast")  # the mouse, animations on
    ann_page.context.add_init_script(f"({WATCH})(true)")
    bob_page = new_page(browser, speed="off", viewport=PHONE, **TOUCH)  # a phone, by touch
    bob_page.context.add_init_script(f"({WATCH})(false)")
    ann = Player(ann_page, 0, touch=False, seed=1)
    bob = Player(bob_page, 1, touch=True, seed=2)
    for player, name in ((ann, "Ann"), (bob, "Bob")):
        player.page.goto(f"{base_url}/t/{table_id}")
        player.page.wait_for_function("() => document.querySelector('main').dataset.status === 'open'")
        _sit(player.page, player.seat, name, touch=player.touch)
    ann.page.get_by_test_id("start").click()

    started = time.monotonic()
    done: list[str] = []
    people = {ann.seat: ann, bob.seat: bob}
    for _ in range(MAX_ACTIONS):
        table = api_get(base_url, f"/api/tables/{table_id}")["table"]
        if table["status"] == "over":
            break
        player = people.get(table["to_move"])
        if player is None:  # a bot's turn (they play at once)
            time.sleep(0.02)
            continue
        kind = offer(player.page, timeout=30000)
        if kind == "over":
            break
        done.append(player.play(kind))
        _taken(base_url, table_id, table["version"])
    else:
        pytest.fail(f"the game did not end after {MAX_ACTIONS} actions")

    answer = api_get(base_url, f"/api/tables/{table_id}")
    assert answer["table"]["status"] == "over"
    for player in (ann, bob):
        assert offer(player.page) == "over"
        assert shown_board(player.page) == expected_board(answer["position"])
        wrong = player.page.evaluate("window.__wrong")
        assert not wrong, f"seat {player.seat}: {wrong[:10]}"
        assert not player.page.errors, player.page.errors
    # Both played the whole game, choosing guests on the board, and Ann's page had states
    # come while it was animating.
    assert ann.guests_pressed > 5 and bob.guests_pressed > 5, (ann.guests_pressed, bob.guests_pressed)
    assert ann.page.evaluate("window.__syncs") > 10
    assert ann.page.evaluate("window.__mid") > 5
    print(f"{len(done)} actions, {ann.presses} clicks, {bob.presses} taps in {time.monotonic() - started:.0f} s")
    for player in (ann, bob):
        player.page.context.close()


#: Asks the table's socket for the whole state again, counting the states it receives.
SYNC_AGAIN = """() => {
  const socket = window.__sockets.find((s) => s.readyState === WebSocket.OPEN && s.url.includes("/ws/tables/"));
  window.__states = 0;
  socket.addEventListener("message", (event) => { if (JSON.parse(event.data).type === "state") window.__states += 1; });
  socket.send(JSON.stringify({ type: "sync" }));
}"""


def test_a_state_sent_again_keeps_the_chosen_guest_and_the_next_click_moves_it(browser: Any, base_url: str) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
    created = api_post(base_url, "/api/tables", {"rules": "hugo", "seats": seats, "first_player": 0})
    table_id = created["table"]["id"]
    page = new_page(browser, speed="off")
    page.goto(f"{base_url}/t/{table_id}")
    page.wait_for_function("() => document.querySelector('main').dataset.status === 'open'")
    _sit(page, 0, "Ann", touch=False)
    page.get_by_test_id("start").click()

    sources = "[data-testid=board] [data-legal=true][data-legal-kind=source]"
    for _ in range(300):  # until Ann may move one of several guests
        version = api_get(base_url, f"/api/tables/{table_id}")["table"]["version"]
        kind = offer(page)
        assert kind != "over", "the game ended before Ann had two guests that could move"
        if kind == "source" and page.locator(sources).count() >= 2:
            break
        act(page, kind)
        _taken(base_url, table_id, version)
    else:
        pytest.fail("Ann never had two guests that could move")

    guest = page.locator(sources).last
    chosen = guest.get_attribute("data-loc")
    guest.click()
    page.wait_for_selector("[data-testid=board] [data-legal=true][data-legal-kind=dest]")
    page.evaluate(SYNC_AGAIN)
    page.wait_for_function("() => window.__states > 0")
    page.wait_for_function("() => document.querySelector('main').dataset.busy === 'false'")
    selected = page.locator("[data-testid=board] g.guest.selected")
    assert selected.count() == 1 and selected.get_attribute("data-loc") == chosen, "the chosen guest was let go"
    destination = target(page, "dest")
    where = destination.get_attribute("data-square") or destination.get_attribute("data-location")
    version = api_get(base_url, f"/api/tables/{table_id}")["table"]["version"]
    done = len(api_get(base_url, f"/api/tables/{table_id}/record")["actions"])
    destination.click()
    _taken(base_url, table_id, version)
    assert api_get(base_url, f"/api/tables/{table_id}/record")["actions"][done] == {"from": chosen, "to": where}
    assert not page.errors, page.errors
    page.context.close()
