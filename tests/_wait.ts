/**
 * Waiting for a condition that has no event to subscribe to (a process gone from a pool, a
 * file with the wanted text): looked at every few milliseconds under a generous overall
 * deadline. The interval is how often to look, not how long something takes: a test that
 * uses it passes as soon as the condition holds, however loaded the machine is.
 *
 * @module
 */

/** Interval between looks, ms. */
const EVERY_MS = 10;

/**
 * Resolve true once `check()` holds, false when it still does not after `ms` (default 30 s).
 * `check` may be async; it is called again only after the previous call settled. `everyMs`
 * (default 10) is the interval between looks; 0 looks once per turn of the event loop (for a
 * condition in this process that promise reactions bring about).
 */
export async function eventually(
  check: () => boolean | Promise<boolean>,
  ms = 30_000,
  everyMs = EVERY_MS,
): Promise<boolean> {
  const end = performance.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (performance.now() > end) return false;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** The text of `path` once it is `want`, or what it held when `ms` (default 30 s) ran out. */
export async function fileBecomes(path: string, want: string, ms = 30_000): Promise<string> {
  let text = "";
  await eventually(async () => (text = await Deno.readTextFile(path).catch(() => "")) === want, ms);
  return text;
}
