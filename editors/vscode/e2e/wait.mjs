// How the e2e scripts of this folder wait for VS Code and fail: one helper for all of them.
//   STEP_TIMEOUT_MS  bound for each wait (default 60000)

export const STEP = Number(process.env.STEP_TIMEOUT_MS || 60000);

/** A check that did not hold: reported by its message alone (any other error with its stack). */
export class Failure extends Error {}

export const fail = (msg) => {
  throw new Failure(msg);
};

/** Poll `fn` until it returns a truthy value or the step bound passes; the last error `fn`
 * threw is named in the failure. */
export async function waitFor(what, fn, timeout = STEP) {
  const end = Date.now() + timeout;
  let last;
  for (;;) {
    try {
      last = await fn();
      if (last) return last;
    } catch (err) {
      last = err;
    }
    if (Date.now() > end) fail(`timed out after ${timeout / 1000}s waiting for ${what}` + (last instanceof Error ? ` (${last.message})` : ''));
    await new Promise((r) => setTimeout(r, 250));
  }
}
