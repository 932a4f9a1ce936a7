/**
 * Headless Chromium for the report tests, driven by its command line only (no npm
 * package): `--dump-dom` prints the DOM after the page's scripts ran, `--screenshot`
 * writes a PNG. Debian's `chromium` at /usr/bin/chromium, or `$CHROMIUM`.
 */

/** The browser executable, or null when none is installed. */
export function chromiumPath(): string | null {
  const candidates = [Deno.env.get("CHROMIUM"), "/usr/bin/chromium", "/usr/bin/chromium-browser"];
  for (const path of candidates) {
    if (path === undefined || path === "") continue;
    try {
      if (Deno.statSync(path).isFile) return path;
    } catch { /* Not here. */ }
  }
  return null;
}

const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--hide-scrollbars",
];

/** Run Chromium on `url` with `extra` flags and a fresh profile; resolves with stdout. */
async function chromium(url: string, extra: string[], timeoutMs = 90_000): Promise<string> {
  const path = chromiumPath();
  if (path === null) throw new Error("Chromium is not installed (set CHROMIUM)");
  const profile = await Deno.makeTempDir({ prefix: "magi-chromium-" });
  try {
    const child = new Deno.Command(path, {
      args: [...FLAGS, `--user-data-dir=${profile}`, ...extra, url],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    const [status, stdout, stderr] = await Promise.all([
      child.status,
      new Response(child.stdout).text(),
      new Response(child.stderr).text(),
    ]);
    clearTimeout(timer);
    if (!status.success) throw new Error(`Chromium exited ${status.code}: ${stderr.slice(-2000)}`);
    return stdout;
  } finally {
    await Deno.remove(profile, { recursive: true }).catch(() => {});
  }
}

/** The DOM of `url` after its scripts ran (`--dump-dom`). */
export function dumpDom(url: string): Promise<string> {
  return chromium(url, ["--dump-dom", "--virtual-time-budget=5000"]);
}

/** A PNG screenshot of `url` at `width` × `height` into `file`. */
export async function screenshot(url: string, file: string, width = 1150, height = 1700) {
  await chromium(url, [`--screenshot=${file}`, `--window-size=${width},${height}`]);
}
