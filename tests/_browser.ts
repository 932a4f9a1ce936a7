/**
 * The shared headless Chromium launcher of the browser tests (the system
 * `chromium`, driven by `npm:playwright-core`). {@link findChromium} looks
 * for the executable (`CHROMIUM_PATH`, then the usual paths and `PATH`);
 * when there is none, browser tests are skipped with a loud message on
 * stderr ({@link browserTestIgnored}); CI installs Debian's `chromium` first
 * (`.ci/run`). Screenshots go to the git-ignored {@link ARTIFACTS} folder.
 */
import { type Browser, chromium } from "playwright-core";

/** Flags for a quiet, offline, sandbox-less headless Chromium. */
export const CHROMIUM_FLAGS: readonly string[] = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Git-ignored folder for test artifacts (screenshots). */
export const ARTIFACTS = new URL("./.artifacts/", import.meta.url).pathname;

const CANDIDATES = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
  "/usr/bin/google-chrome-stable",
];

function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/** The Chromium executable, or null when none is installed. */
export function findChromium(): string | null {
  const fromEnv = Deno.env.get("CHROMIUM_PATH");
  if (fromEnv !== undefined && fromEnv !== "") return isFile(fromEnv) ? fromEnv : null;
  for (const path of CANDIDATES) if (isFile(path)) return path;
  for (const dir of (Deno.env.get("PATH") ?? "").split(":")) {
    for (const name of ["chromium", "chromium-browser", "google-chrome"]) {
      if (dir !== "" && isFile(`${dir}/${name}`)) return `${dir}/${name}`;
    }
  }
  return null;
}

/** The executable found once per test module. */
export const CHROMIUM: string | null = findChromium();

/**
 * Whether browser tests must be skipped (no Chromium); says so loudly once.
 * Use as `Deno.test({ ignore: browserTestIgnored("what"), ... })`.
 */
export function browserTestIgnored(what: string): boolean {
  if (CHROMIUM !== null) return false;
  console.error(
    `\n!!! SKIPPING BROWSER TESTS (${what}): no Chromium found (set CHROMIUM_PATH or ` +
      `apt-get install chromium). CI installs it; these tests must not be skipped there. !!!\n`,
  );
  return true;
}

/** Launch headless Chromium with a fresh profile (playwright makes a new user-data-dir). */
export async function launchBrowser(): Promise<Browser> {
  if (CHROMIUM === null) throw new Error("No Chromium executable found");
  return await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [...CHROMIUM_FLAGS],
    timeout: 60_000,
  });
}

/** Run `body` with a browser, always closing it (and its processes). */
export async function withBrowser<T>(body: (browser: Browser) => Promise<T>): Promise<T> {
  const browser = await launchBrowser();
  try {
    return await body(browser);
  } finally {
    await browser.close();
  }
}
