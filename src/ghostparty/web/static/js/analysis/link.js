// A position (FORMAT.md hugo-position/1) in an address: /analysis#p=<base64url of its
// JSON>, the analysis board's shareable link. No DOM here (tests/js/link.test.mjs).

/** The analysis board's address of a position. */
export function analysisUrl(position) {
  return `/analysis#p=${encodePosition(position)}`;
}

/** A position's JSON as base64url (RFC 4648 §5, no padding) of its UTF-8 bytes. */
export function encodePosition(position) {
  const bytes = new TextEncoder().encode(JSON.stringify(position));
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * The position an address's hash holds ("#p=…"), or null when there is none; throws a
 * SyntaxError when the hash names one that cannot be read (not base64url, not JSON, not
 * an object).
 */
export function positionFromHash(hash) {
  const params = new URLSearchParams(String(hash ?? "").replace(/^#/, ""));
  const text = params.get("p");
  if (!text) return null;
  if (!/^[A-Za-z0-9_-]+={0,2}$/.test(text)) throw new SyntaxError("the link's position is not base64url");
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/").replace(/=+$/, "");
  let binary;
  try {
    binary = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  } catch {
    throw new SyntaxError("the link's position is not base64url");
  }
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  const value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  if (!value || typeof value !== "object" || Array.isArray(value)) throw new SyntaxError("the link's position is not a JSON object");
  return value;
}
