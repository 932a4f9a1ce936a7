/**
 * The host ends when the process that started it dies: SIGKILL of `deno task start batch …` (or of
 * a shell running `run`, `mcp`, `inspect`) must not leave the real `cli.ts` running under PID 1.
 * Linux only (the process tree is read from /proc). Every wait is for an event (a process, a file,
 * a line) under a generous deadline, never a fixed sleep.
 */
import assert from "node:assert/strict";
import { BatchStore } from "../../src/batch/store.ts";
import { FIXTURE_TOOLS, REFERENCE_AGENT, ROOT, SCENARIO } from "../e2e/_cli.ts";
import { BATCH_SCENARIO } from "../batch/_batch.ts";
import { eventually } from "../_kit/mod.ts";
import { alive, processes } from "../_kit/proc.ts";

const LINUX = Deno.build.os === "linux";
/** How long the orphaned host may take to notice and stop (poll 0.5 s, grace 5 s, a loaded machine). */
const GONE_DEADLINE_MS = 25_000;

/** Once `check` returns a value other than undefined (the kit's `eventually`), or fail after `ms`. */
async function waitFor<T>(what: string, ms: number, check: () => T | undefined): Promise<T> {
  let value: T | undefined;
  if (!await eventually(() => (value = check()) !== undefined, ms)) {
    throw new Error(`Timed out waiting for ${what}`);
  }
  return value!;
}

/** The `cli.ts`/`mod.ts` process whose parent is `parent`. */
function hostUnder(parent: number): number | undefined {
  return processes().find((p) => p.ppid === parent && /(cli|mod)\.ts /.test(p.cmdline))?.pid;
}

/** Every descendant of `pid`. */
function descendants(pid: number): number[] {
  const all = processes();
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const next = queue.shift()!;
    for (const p of all) {
      if (p.ppid === next) {
        found.push(p.pid);
        queue.push(p.pid);
      }
    }
  }
  return found;
}

/** Collect a stream's text in the background. */
function collect(stream: ReadableStream<Uint8Array>): { text: () => string; done: Promise<void> } {
  let text = "";
  const decoder = new TextDecoder();
  const done = (async () => {
    for await (const chunk of stream) text += decoder.decode(chunk, { stream: true });
  })().catch(() => {});
  return { text: () => text, done };
}

interface Orphaned {
  /** The host's stdout and stderr until it (and whatever else held them) ended. */
  stdout: string;
  stderr: string;
}

/**
 * Start `argv` (a parent process that starts the host), wait for `ready`, SIGKILL the parent and
 * wait until the host and everything it started are gone.
 */
async function killParent(
  argv: string[],
  env: Record<string, string>,
  ready: (host: number, stdout: string) => boolean,
  input = "",
): Promise<Orphaned> {
  const parent = new Deno.Command(argv[0]!, {
    args: argv.slice(1),
    cwd: ROOT,
    stdin: "piped", // kept open: `mcp` on stdio must not end by EOF here
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", ...env },
  }).spawn();
  const writer = parent.stdin.getWriter();
  if (input !== "") await writer.write(new TextEncoder().encode(input));
  const stdout = collect(parent.stdout);
  const stderr = collect(parent.stderr);
  let host: number | undefined;
  let family: number[] = [];
  try {
    host = await waitFor("the host process", 60_000, () => hostUnder(parent.pid));
    await waitFor("the host to be ready", 60_000, () => ready(host!, stdout.text()) || undefined);
    family = [host, ...descendants(host)];
    parent.kill("SIGKILL");
    await parent.status;
    await waitFor(
      `the host (pid ${host}) to end after its parent was killed; stderr:\n${stderr.text()}`,
      GONE_DEADLINE_MS,
      () => family.every((pid) => !alive(pid)) || undefined,
    );
  } finally {
    for (const pid of family.filter(alive)) {
      try {
        Deno.kill(pid, "SIGKILL");
      } catch { /* gone */ }
    }
    try {
      parent.kill("SIGKILL");
    } catch { /* gone */ }
    await parent.status;
    await writer.close().catch(() => {});
  }
  await Promise.all([stdout.done, stderr.done]);
  return { stdout: stdout.text(), stderr: stderr.text() };
}

/** `sh -c 'CMD; :'`: the shell stays the host's parent (no exec of the last command). */
function underShell(args: string[]): string[] {
  const quoted = args.map((a) => `'${a.replaceAll("'", `'\\''`)}'`).join(" ");
  return ["sh", "-c", `${quoted}; :`];
}

const HOST = [Deno.execPath(), "run", `--lock=${ROOT}deno.full.lock`, "-A", `${ROOT}cli.ts`];

Deno.test({
  name: "parent death: SIGKILL of `deno task start batch` stops the batch (no orphan), store whole",
  ignore: !LINUX,
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "magi-parent-batch-" });
    try {
      const input = `${dir}/input.jsonl`;
      const lines = [
        { id: "quick", prompt: 'Use sleepy {"ms":10}' },
        ...["slow-1", "slow-2", "slow-3"].map((id) => ({ id, prompt: "SLOWPOKE" })),
      ];
      await Deno.writeTextFile(input, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
      const out = `${dir}/out`;
      const result = await killParent(
        [
          Deno.execPath(),
          "task",
          "--quiet",
          "start",
          "batch",
          input,
          "--out",
          out,
          "--jobs",
          "1",
          "--tools",
          FIXTURE_TOOLS,
        ],
        { MC_HOME: `${dir}/home`, MAGI_CODE_AGENT: REFERENCE_AGENT, MAGI_SCENARIO: BATCH_SCENARIO },
        // The quick item is committed: the batch runs the first 30 s item now.
        () => {
          try {
            Deno.statSync(`${out}/items/quick.ndjson`);
            return true;
          } catch {
            return false;
          }
        },
      );
      assert.match(result.stderr, /parent process \(pid \d+\) exited: stopping as on Ctrl-C/);
      const summary = JSON.parse(result.stdout.trim().split("\n").at(-1)!);
      assert.equal(summary.interrupted, true, result.stdout);
      assert.equal(summary.exit_code, 130);
      // The store is consistent: the finished item kept, the interrupted one not recorded.
      const store = await BatchStore.open(out);
      assert.deepEqual([...store.entries.keys()], ["quick"]);
      assert.equal(store.entries.get("quick")?.exit_code, 0);
      const files = [...Deno.readDirSync(`${out}/items`)].map((e) => e.name).sort();
      assert.deepEqual(files, ["quick.ndjson"]);
    } finally {
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
});

Deno.test({
  name: "parent death: SIGKILL of the shell running `run` cancels the turn and ends the host",
  ignore: !LINUX,
  fn: async () => {
    const home = await Deno.makeTempDir({ prefix: "magi-parent-run-" });
    try {
      const result = await killParent(
        underShell([...HOST, "run", "--tools", FIXTURE_TOOLS, "SLEEPY"]),
        { MC_HOME: home, MAGI_CODE_AGENT: REFERENCE_AGENT, MAGI_SCENARIO: SCENARIO },
        (_host, stdout) => stdout.includes('"tool.call"'),
      );
      const records = result.stdout.trim().split("\n").map((l) => JSON.parse(l));
      const finished = records.find((r) => r.type === "turn.finished");
      assert.equal(finished?.outcome, "cancelled", result.stdout);
      assert.equal(finished?.cancelled_by, "signal");
      assert.equal(records.find((r) => r.type === "tool.result")?.outcome, "cancelled");
    } finally {
      await Deno.remove(home, { recursive: true }).catch(() => {});
    }
  },
});

Deno.test({
  name:
    "parent death: SIGKILL of the shell running `inspect` or `mcp` (stdin still open) ends them",
  ignore: !LINUX,
  fn: async () => {
    const home = await Deno.makeTempDir({ prefix: "magi-parent-inspect-" });
    try {
      const inspect = await killParent(
        underShell([...HOST, "inspect", "--port", "0", "--tools", FIXTURE_TOOLS]),
        { MC_HOME: home, MAGI_CODE_AGENT: REFERENCE_AGENT },
        (_host, stdout) => stdout.includes("magi-tools inspect: http://127.0.0.1:"),
      );
      assert.match(inspect.stderr, /parent process \(pid \d+\) exited/);
      const mcp = await killParent(
        underShell([...HOST, "mcp", "--tools", FIXTURE_TOOLS]),
        { MC_HOME: home },
        // Ready once it answers `initialize` (a parent dying before the host has even started is
        // not noticed: the host never saw it, docs/cli.md Signals).
        (_host, stdout) => stdout.includes('"id":1'),
        `${
          JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "initialize",
            params: {
              protocolVersion: "2025-06-18",
              capabilities: {},
              clientInfo: { name: "parent-death-test", version: "1" },
            },
          })
        }\n`,
      );
      assert.match(mcp.stderr, /parent process \(pid \d+\) exited/);
    } finally {
      await Deno.remove(home, { recursive: true }).catch(() => {});
    }
  },
});
