// The replay page's upload (/replay): the chosen game record sent to POST /api/replay;
// what the server refused, and why (which action), shown under the form.

import { errorText, t } from "../lib/i18n.js";

const $ = (id) => document.getElementById(id);

/** Send the chosen file: {data: the replay, name: the file's} or null (the error shown). */
export async function sendRecord() {
  const error = $("upload-error");
  error.hidden = true;
  $("upload-reason").hidden = true;
  const file = $("record-file").files[0];
  if (!file) {
    error.textContent = t("replay.no_file");
    error.hidden = false;
    return null;
  }
  let response;
  try {
    const text = await file.text();
    response = await fetch("/api/replay", { method: "POST", headers: { "Content-Type": "application/json" }, body: text });
  } catch {
    error.textContent = t("error.network");
    error.hidden = false;
    return null;
  }
  const data = await response.json().catch(() => null);
  if (!response.ok || !data) {
    const problem = data?.error ?? { code: "http", message: `HTTP ${response.status}` };
    error.textContent = errorText(problem);
    error.hidden = false;
    // What exactly is wrong, in the server's words: which action, and why.
    const reason = $("upload-reason");
    reason.textContent = problem.message ?? "";
    reason.hidden = !problem.message || problem.message === error.textContent;
    return null;
  }
  return { data, name: file.name };
}
