/**
 * Issue 31 item 6: when process-isolated tools run without the kernel layer (Landlock), every
 * front door says so once on stderr, and `run` and `batch` also write a `host.warning` record
 * (`kernel_sandbox_unavailable`). "No Landlock" is made real for the CLI and everything it
 * starts by `fixtures/no_landlock.py`, a seccomp filter that answers ENOSYS to the Landlock
 * system calls (as a kernel without Landlock does).
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { REFERENCE_AGENT, ROOT, scenario, tempDir } from "./_scopes.ts";
import { startInspector } from "../inspect/_inspector.ts";

const TOOLS = join(ROOT, "tests/security/fixtures/env_tools");
const NO_LANDLOCK = join(ROOT, "tests/security/fixtures/no_landlock.py");
const NOTICE = /kernel sandbox unavailable: the kernel has no Landlock/g;

interface Ran {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** The CLI (`-A`), under the no-Landlock filter unless `landlock`; `input` on stdin. */
async function cli(
  args: readonly string[],
  options: { cwd: string; env?: Record<string, string>; input?: string; landlock?: boolean },
): Promise<Ran> {
  const deno = [
    Deno.execPath(),
    "run",
    "--config",
    join(ROOT, "deno.json"),
    `--lock=${join(ROOT, "deno.full.lock")}`,
    "-A",
    join(ROOT, "cli.ts"),
    ...args,
  ];
  const command = options.landlock === true ? deno : ["python3", NO_LANDLOCK, ...deno];
  const child = new Deno.Command(command[0]!, {
    args: command.slice(1),
    cwd: options.cwd,
    stdin: options.input === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
    env: {
      NO_COLOR: "1",
      DENO_NO_UPDATE_CHECK: "1",
      MAGI_CODE_AGENT: REFERENCE_AGENT,
      ...options.env,
    },
    signal: AbortSignal.timeout(90_000),
  }).spawn();
  if (options.input !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(options.input));
    await writer.close();
  }
  const output = await child.output();
  const decoder = new TextDecoder();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
}

function records(text: string): Record<string, unknown>[] {
  return text.split("\n").filter((line) => line.trim() !== "").map((line) => JSON.parse(line));
}

function warnings(text: string): Record<string, unknown>[] {
  return records(text).filter((r) =>
    r.type === "host.warning" && r.code === "kernel_sandbox_unavailable"
  );
}

Deno.test("run says once on stderr and in a host.warning record that the kernel layer is missing", async () => {
  const base = await tempDir("magi-tools-sec-kernel-");
  try {
    const env = { MAGI_SCENARIO: await scenario(base.path, [{ say: "hi" }]) };
    const run = await cli(["run", "--tools", TOOLS, "GO"], { cwd: base.path, env });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stderr.match(NOTICE)?.length, 1, run.stderr);
    const ready = records(run.stdout).find((r) => r.type === "host.ready")!;
    assert.equal((ready.tools as { sandbox: string }[])[0]!.sandbox, "deno");
    const [warning, ...more] = warnings(run.stdout);
    assert.equal(more.length, 0, run.stdout);
    assert.match(
      String(warning?.message),
      /^kernel sandbox unavailable: the kernel has no Landlock/,
    );
    // After host.ready (this run has no sources, so no other warning comes between).
    const types = records(run.stdout).map((r) => r.type);
    assert.equal(types[types.indexOf("host.ready") + 1], "host.warning");
  } finally {
    await base.remove();
  }
});

Deno.test("batch says it once on stderr and in the item's records", async () => {
  const base = await tempDir("magi-tools-sec-kernel-");
  try {
    const env = { MAGI_SCENARIO: await scenario(base.path, [{ say: "hi" }]) };
    const input = join(base.path, "items.jsonl");
    await Deno.writeTextFile(
      input,
      [{ id: "one", prompt: "GO" }, { id: "two", prompt: "GO" }].map((item) => JSON.stringify(item))
        .join("\n") + "\n",
    );
    const out = join(base.path, "out");
    const batch = await cli(
      ["batch", input, "--out", out, "--tools", TOOLS, "--progress", "never"],
      {
        cwd: base.path,
        env,
      },
    );
    assert.equal(batch.code, 0, batch.stderr);
    assert.equal(batch.stderr.match(NOTICE)?.length, 1, batch.stderr);
    const first = await Deno.readTextFile(join(out, "items", "one.ndjson"));
    assert.equal(warnings(first).length, 1, first);
  } finally {
    await base.remove();
  }
});

Deno.test("call says it once on stderr", async () => {
  const base = await tempDir("magi-tools-sec-kernel-");
  try {
    const call = await cli(["call", "show_env", "{}", "--tools", TOOLS, "--json"], {
      cwd: base.path,
    });
    assert.equal(call.code, 0, call.stderr);
    assert.equal(call.stderr.match(NOTICE)?.length, 1, call.stderr);
  } finally {
    await base.remove();
  }
});

Deno.test("mcp says it once on stderr (stdio, on its first tool process)", async () => {
  const base = await tempDir("magi-tools-sec-kernel-");
  try {
    const lines = [
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "t", version: "1" },
        },
      },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "show_env", arguments: {} } },
      { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "show_env", arguments: {} } },
    ];
    // stdin's end waits for the calls in flight (the server answers them, then exits).
    const mcp = await cli(["mcp", "--tools", TOOLS], {
      cwd: base.path,
      input: lines.map((line) => JSON.stringify(line)).join("\n") + "\n",
    });
    const answered = records(mcp.stdout).filter((r) => r.id === 2 || r.id === 3);
    assert.equal(answered.length, 2, `${mcp.stdout}\n${mcp.stderr}`);
    assert.equal(mcp.stderr.match(NOTICE)?.length, 1, mcp.stderr);
  } finally {
    await base.remove();
  }
});

Deno.test("inspect says it once on stderr (on its first tool process)", async () => {
  const inspector = await startInspector({ wrapper: ["python3", NO_LANDLOCK] });
  try {
    for (const ms of [1, 2]) {
      const response = await fetch(`${inspector.base}/api/call`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${inspector.token}` },
        body: JSON.stringify({ name: "slow", arguments: { ms } }),
      });
      const record = await response.json() as Record<string, unknown>;
      assert.equal(record.outcome, "success", JSON.stringify(record));
    }
  } finally {
    await inspector.stop();
  }
  assert.equal(inspector.stderr().match(NOTICE)?.length, 1, inspector.stderr());
});

Deno.test("with the kernel layer there, run says nothing of it", async () => {
  const base = await tempDir("magi-tools-sec-kernel-");
  try {
    const listing = await cli(["tools", "--tools", TOOLS], { cwd: base.path, landlock: true });
    if (!/\tkernel\+deno$/m.test(listing.stdout)) return; // This machine has no Landlock.
    const env = { MAGI_SCENARIO: await scenario(base.path, [{ say: "hi" }]) };
    const run = await cli(["run", "--tools", TOOLS, "GO"], { cwd: base.path, env, landlock: true });
    assert.equal(run.code, 0, run.stderr);
    assert.doesNotMatch(run.stderr, /kernel sandbox unavailable/);
    assert.equal(warnings(run.stdout).length, 0, run.stdout);
  } finally {
    await base.remove();
  }
});
