// Lists kept fresh in place: a list that is refreshed every few seconds (the lobby's tables,
// "Your games") is not rebuilt but patched, row by row, so that the keyboard's focus (a
// row's link), the screen reader's place and any selection stay where they were.
//
//   syncList(list, rows)   // rows: fresh <li>s, each with data-key (unique in the list)

/** Make `node` look like `fresh` (same tag): attributes, then children, recursively.
 * Event listeners are not carried over: rows patched this way hold links, not handlers. */
export function morph(node, fresh) {
  if (node.nodeType !== fresh.nodeType || node.nodeName !== fresh.nodeName) {
    node.replaceWith(fresh);
    return fresh;
  }
  if (node.nodeType === Node.TEXT_NODE) {
    if (node.data !== fresh.data) node.data = fresh.data;
    return node;
  }
  for (const { name } of [...node.attributes]) if (!fresh.hasAttribute(name)) node.removeAttribute(name);
  for (const { name, value } of fresh.attributes) if (node.getAttribute(name) !== value) node.setAttribute(name, value);
  const olds = [...node.childNodes];
  const news = [...fresh.childNodes];
  news.forEach((child, i) => {
    if (i < olds.length) morph(olds[i], child);
    else node.append(child);
  });
  for (const extra of olds.slice(news.length)) extra.remove();
  return node;
}

/**
 * Give `list` the children `rows` (each with a data-key): a row whose key is there
 * already is patched in place (morph), new ones are put in, gone ones taken out. The
 * order is mended by moving the other rows round the one that holds the focus.
 */
export function syncList(list, rows) {
  const byKey = new Map([...list.children].map((child) => [child.dataset.key, child]));
  const wanted = rows.map((row) => {
    const old = row.dataset.key !== undefined ? byKey.get(row.dataset.key) : undefined;
    if (old) byKey.delete(row.dataset.key);
    return old ? morph(old, row) : row;
  });
  for (const gone of byKey.values()) gone.remove();
  const focused = wanted.find((row) => row.contains(document.activeElement));
  const at = focused ? wanted.indexOf(focused) : -1;
  // Before the focused row: each in front of the next one; after it: each after the last one.
  for (let i = at - 1; i >= 0; i--) if (wanted[i].nextSibling !== wanted[i + 1]) list.insertBefore(wanted[i], wanted[i + 1]);
  for (let i = at + 1; i < wanted.length; i++) {
    const before = i === 0 ? list.firstChild : wanted[i - 1].nextSibling;
    if (before !== wanted[i]) list.insertBefore(wanted[i], before);
  }
  return list;
}
