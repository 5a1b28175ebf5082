// The client's language without the server's list of languages (offline, the service
// worker keeps the language files but not /api/languages): src/ghostparty/web/static/js/lib/i18n.js.
// Run by `node --test tests/js/` (tests/test_js.py runs it under pytest).

import assert from "node:assert/strict";
import { test } from "node:test";

import { offlineCandidates, pickLanguage } from "../../src/ghostparty/web/static/js/lib/i18n.js";

test("the remembered language comes first, then the browser's, then English", () => {
  const codes = offlineCandidates("de", ["fr-FR", "de-AT", "en-GB"]).map((one) => one.code);
  assert.deepEqual(codes, ["de", "fr", "en"]);
});

test("without a remembered language the browser's is picked", () => {
  const candidates = offlineCandidates(null, ["de-DE", "de"]);
  assert.equal(pickLanguage(candidates, null, ["de-DE", "de"]), "de");
});

test("something that is no language code is never tried", () => {
  const codes = offlineCandidates("../x", ["", "1234", "nl"]).map((one) => one.code);
  assert.deepEqual(codes, ["nl", "en"]);
});
