// Small DOM helpers. Text always goes in through textContent, never innerHTML.

const SVG_NS = "http://www.w3.org/2000/svg";

/** An HTML element: el("button", {class: "x", "data-testid": "roll"}, "Roll"). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  setAttrs(node, attrs);
  append(node, children);
  return node;
}

/** An SVG element, same arguments as el(). */
export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  setAttrs(node, attrs);
  append(node, children);
  return node;
}

function setAttrs(node, attrs) {
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2), value);
    } else {
      node.setAttribute(key, value === true ? "" : String(value));
    }
  }
}

function append(node, children) {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Remove every child of a node. */
export function clear(node) {
  while (node.firstChild) node.firstChild.remove();
  return node;
}

/** Replace the children of a node. */
export function fill(node, ...children) {
  clear(node);
  append(node, children);
  return node;
}

/** Wait ms milliseconds. */
export function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A short message at the bottom of the screen that goes away by itself. */
export function toast(message, kind = "error") {
  let box = document.getElementById("toasts");
  if (!box) {
    box = el("div", { id: "toasts", "aria-live": "polite" });
    document.body.append(box);
  }
  const note = el("div", { class: `toast toast-${kind}`, "data-testid": "toast", role: "status" }, message);
  box.append(note);
  setTimeout(() => note.classList.add("toast-out"), 3500);
  setTimeout(() => note.remove(), 4000);
}

/** Show ``text`` in the page's banner element (id "banner") for 1.6 s. */
export function banner(text) {
  const node = document.getElementById("banner");
  node.textContent = text;
  node.hidden = false;
  node.classList.remove("show");
  void node.offsetWidth; // restart the CSS animation
  node.classList.add("show");
  clearTimeout(banner.timer);
  banner.timer = setTimeout(() => {
    node.hidden = true;
  }, 1600);
}

/**
 * Send `form`'s submissions to `handler` once `ready` (the page's start) has settled: a
 * press while the page is still loading its language or its data is neither lost nor
 * sent as a plain form that reloads the page. Register it before the page's first await.
 */
export function submitWhenReady(form, ready, handler) {
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    ready.then(() => handler(event));
  });
}
