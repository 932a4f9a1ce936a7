/**
 * Processes a tool starts do not outlive the host (issue 23 item 10): background grandchildren
 * (`(sleep 417… &)`, `setsid sleep 418… &`) of a tool process are gone once the host stopped —
 * at its normal end, on SIGTERM and SIGINT, and (best effort) when the host is SIGKILLed —
 * while the tool's ordinary subprocess still runs and answers. Through the CLI under the
 * `start` task's flags. Linux only (elsewhere `tools` says that such processes may outlive it).
 */
import assert from "node:assert/strict";
import { callTool, eventually, PROCS_TOOLS, ROOT, startFlags } from "./_procs_cli.ts";
import { processes } from "../_kit/proc.ts";

const linux = Deno.build.os === "linux";
const GONE_WITHIN_MS = 15_000;

/** PIDs of live processes whose command line is exactly `sleep <seconds>`. */
function sleepers(seconds: string): number[] {
  return processes()
    .filter((p) => p.cmdline === `sleep ${seconds} ` && p.state !== "Z")
    .map((p) => p.pid);
}

/** A tag no other run uses: the sleepers are `sleep 417<tag>` and `sleep 418<tag>`. */
function freshTag(): string {
  return String(100_000 + Math.floor(Math.random() * 900_000));
}

/** Assert both sleepers of `tag` disappear; kill any that did not (never leave them). */
async function assertGone(tag: string, when: string): Promise<void> {
  const names = [`417${tag}`, `418${tag}`];
  const gone = await eventually(
    () => names.every((name) => sleepers(name).length === 0),
    GONE_WITHIN_MS,
  );
  const left = names.flatMap((name) => sleepers(name));
  for (const pid of left) {
    try {
      Deno.kill(pid, "SIGKILL");
    } catch { /* gone */ }
  }
  assert.ok(gone, `${when}: processes the tool started outlived the host: ${left.join(", ")}`);
}

Deno.test({
  name:
    "orphans: a tool's background grandchildren end with the host's normal end; its subprocess ran",
  ignore: !linux,
  fn: async () => {
    const tag = freshTag();
    const { record, output } = await callTool("spawner", { tag });
    assert.equal(record.outcome, "success", output.stdout + output.stderr);
    assert.equal(record.text, "subprocess ran");
    await assertGone(tag, "after the call ended");
  },
});

Deno.test({
  name: "orphans: under exactly the flags tools --deno-flags prints, the grandchildren end too",
  ignore: !linux,
  fn: async () => {
    const printed = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        ...startFlags(),
        `${ROOT}cli.ts`,
        "tools",
        "--tools",
        PROCS_TOOLS,
        "--deno-flags",
      ],
      cwd: ROOT,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).output();
    assert.equal(printed.code, 0, new TextDecoder().decode(printed.stderr));
    const flags = new TextDecoder().decode(printed.stdout).trim().split(" ");
    assert.ok(!flags.includes("--allow-run"), flags.join(" "));
    const tag = freshTag();
    const { record, output } = await callTool("spawner", { tag }, { flags });
    assert.equal(record.outcome, "success", output.stdout + output.stderr);
    assert.equal(record.text, "subprocess ran");
    await assertGone(tag, "under the printed flags, after the call ended");
  },
});

/** Start `call spawner` waiting for its stop; once both sleepers run, send the host `signal`. */
async function stopHostWith(signal: Deno.Signal): Promise<{ tag: string; code: number }> {
  const tag = freshTag();
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      ...startFlags(),
      `${ROOT}cli.ts`,
      "call",
      "spawner",
      JSON.stringify({ tag, wait: true }),
      "--tools",
      PROCS_TOOLS,
    ],
    cwd: ROOT,
    stdin: "null",
    stdout: "null",
    stderr: "null",
    env: { NO_COLOR: "1" },
  }).spawn();
  try {
    const started = await eventually(
      () => sleepers(`418${tag}`).length > 0 && sleepers(`417${tag}`).length > 0,
      60_000,
    );
    assert.ok(started, "the tool never started its background processes");
    child.kill(signal);
    const status = await child.status;
    return { tag, code: status.code };
  } finally {
    try {
      child.kill("SIGKILL");
    } catch { /* exited */ }
    await child.status;
  }
}

for (const signal of ["SIGTERM", "SIGINT", "SIGKILL"] as const) {
  Deno.test({
    name: `orphans: a tool's background grandchildren end when the host gets ${signal}`,
    ignore: !linux,
    fn: async () => {
      const { tag } = await stopHostWith(signal);
      await assertGone(tag, `after ${signal} of the host`);
    },
  });
}

Deno.test({
  name: "orphans: without a PID namespace (unshare not allowed) the tools listing says so",
  ignore: !linux,
  fn: async () => {
    // The start task's flags, but --allow-run only for Deno: the host may not run unshare.
    const flags = startFlags().map((flag) =>
      flag === "--allow-run" ? `--allow-run=${Deno.execPath()}` : flag
    );
    assert.ok(flags.some((flag) => flag.startsWith("--allow-run=")), flags.join(" "));
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["run", ...flags, `${ROOT}cli.ts`, "tools", "--tools", PROCS_TOOLS],
      cwd: ROOT,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).output();
    const stdout = new TextDecoder().decode(output.stdout);
    assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
    assert.match(
      stdout,
      /^processes a tool starts may outlive it: no PID namespace: unshare\(1\) is missing or not allowed by the host's --allow-run/m,
    );
  },
});
