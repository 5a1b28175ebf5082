// Asking POST /api/analysis while the server's analyses are all taken: it answers 503
// `busy` with a short retry_after ("ask again in a moment"), and the board asks again.

import { api } from "../lib/api.js";
import { sleep } from "../lib/dom.js";

/** How many times an analysis is asked while the server says it is busy. */
export const BUSY_TRIES = 4;

/**
 * The answer of POST /api/analysis for `body`, asked again (up to BUSY_TRIES times)
 * while the server is busy, as long as `wanted()` says the answer is still wanted; any
 * other refusal is thrown as it came (lib/api.js ApiError).
 */
export async function analyse(body, wanted = () => true) {
  for (let tries = 1; ; tries++) {
    try {
      return await api.analysis(body);
    } catch (error) {
      if (error.code !== "busy" || tries >= BUSY_TRIES || !wanted()) throw error;
      await sleep(1000 * (error.retry_after ?? 1));
    }
  }
}
