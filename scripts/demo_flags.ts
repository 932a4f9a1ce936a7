/**
 * Prints the least-privilege permission flags of `deno task demo` (see docs/cli.md, `demo`):
 *
 * - `--allow-read=tools`: the example tools (plus `setsid` and the Deno executable when
 *   `setsid` exists, so the children can be started through it in their own session);
 * - `--allow-run=<deno>`: the reference backend, the tool describe child and the tool processes
 *   (plus `setsid` when it exists, and `unshare`/`setpriv` when they exist: each tool process
 *   then runs in its own PID namespace, so nothing it starts outlives it; docs/tools.md);
 * - `--allow-write=<TMPDIR or /tmp>`: the demo's temporary `MC_HOME`.
 *
 * The task runs this file first and splices its output into the `deno run` of `cli.ts demo`
 * (`--allow-env=TICKETS_API_URL,NO_COLOR,FORCE_COLOR` and `--allow-net=127.0.0.1` are written in the
 * task itself).
 * The paths are computed here, not written in deno.json, so the task works however `deno` was
 * started (`npx --yes deno@2.9.6 task demo`) and whatever `TMPDIR` is.
 *
 * Run as `deno run --no-prompt --allow-read --allow-env=TMPDIR scripts/demo_flags.ts`.
 *
 * @module
 */

/** Where `setsid` may be installed, in order of preference. */
export const SETSID_CANDIDATES: readonly string[] = ["/usr/bin/setsid", "/bin/setsid"];

/** Where `unshare` and `setpriv` may be installed (the tool processes' containment). */
export const CONTAINMENT_CANDIDATES: readonly (readonly string[])[] = [
  ["/usr/bin/unshare", "/bin/unshare"],
  ["/usr/bin/setpriv", "/bin/setpriv"],
];

/** What the demo's flags depend on. */
export interface DemoHost {
  /** The Deno executable (`Deno.execPath()`). */
  deno: string;
  /** The first `setsid` that exists, or null. */
  setsid: string | null;
  /** `unshare` and `setpriv` where both exist (else empty: no PID namespace). */
  containment?: readonly string[];
  /** `TMPDIR` (empty or unset: `/tmp`). */
  tmpdir: string | undefined;
}

/**
 * The `--allow-read`, `--allow-run` and `--allow-write` flags of the demo for `host`.
 *
 * @example
 * ```ts
 * import { demoFlags } from "./demo_flags.ts";
 * const flags = demoFlags({ deno: "/bin/deno", setsid: null, tmpdir: undefined });
 * console.assert(flags.join(" ") === "--allow-read=tools --allow-run=/bin/deno --allow-write=/tmp");
 * ```
 */
export function demoFlags(host: DemoHost): string[] {
  const setsid = host.setsid === null ? [] : [host.setsid];
  const programs = [...setsid, ...(host.containment ?? [])];
  const read = ["tools", ...programs, ...(programs.length > 0 ? [host.deno] : [])];
  return [
    `--allow-read=${read.join(",")}`,
    `--allow-run=${[host.deno, ...programs].join(",")}`,
    `--allow-write=${host.tmpdir || "/tmp"}`,
  ];
}

function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

function containmentPrograms(): string[] {
  const found = CONTAINMENT_CANDIDATES.map((candidates) => candidates.find(isFile));
  return found.every((path) => path !== undefined) ? found as string[] : [];
}

if (import.meta.main) {
  const flags = demoFlags({
    deno: Deno.execPath(),
    setsid: SETSID_CANDIDATES.find(isFile) ?? null,
    containment: containmentPrograms(),
    tmpdir: Deno.env.get("TMPDIR"),
  });
  console.log(flags.join(" "));
}
