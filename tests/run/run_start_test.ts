/**
 * Starting a connection (`BackendRun.start`, `src/run/run_start.ts`) on its failure paths,
 * without spawning: a backend that could not be started is reported on the writer (exit 3)
 * and the sources are closed; a source failure (exit 2) discards the started backend (EOF,
 * no signal) and the backend is reaped.
 */

import assert from "node:assert/strict";
import { z } from "zod";
import { defineTool } from "../../src/tool/define.ts";
import { ToolRegistry } from "../../src/toolset/registry.ts";
import { SpawnError } from "../../src/runtime/mod.ts";
import { EXIT, exitCode } from "../../src/run/exit_codes.ts";
import { isReported, reported } from "../../src/errors/mod.ts";
import { BackendRun, REQUIRED_CAPABILITIES } from "../../src/run/backend_run.ts";
import { SummaryWriter } from "../../src/summary/writer.ts";
import { fakeBackend as scriptedBackend, memoryChild, NO_SPAWN } from "../_kit/mod.ts";

const registry = ToolRegistry.fromLoaded([{
  tool: defineTool({
    name: "noop",
    description: "Do nothing.",
    input: z.strictObject({}),
    effect: "read",
    isolation: "inline",
    run: () => "ok",
  }),
  file: "noop.ts",
  url: import.meta.url,
}], { requiredCapabilities: REQUIRED_CAPABILITIES });

function recordingWriter() {
  const records: Record<string, unknown>[] = [];
  const decoder = new TextDecoder();
  const writer = new SummaryWriter((bytes) => {
    for (const line of decoder.decode(bytes).split("\n")) {
      if (line !== "") records.push(JSON.parse(line));
    }
    return Promise.resolve();
  }, { selfCheck: true });
  return { records, writer };
}

const AGENT = {
  command: "/nonexistent/magi-code",
  args: ["serve", "--stdio"],
  source: "flag" as const,
  label: "magi-code",
};

Deno.test({
  name:
    "BackendRun.start(): a backend that could not be started is exit 3 with backend_unavailable; the sources close",
  permissions: NO_SPAWN,
  fn: async () => {
    const { records, writer } = recordingWriter();
    let closed = 0;
    const host = await BackendRun.start({
      toolDirs: [],
      registry,
      agent: AGENT,
      cwd: Deno.cwd(),
      kernelSandbox: "off",
      writer,
      backend: { error: new SpawnError(AGENT.command) },
      sources: Promise.resolve({ tools: [], close: () => Promise.resolve(void closed++) }),
    });
    assert.ok(isReported(host));
    assert.equal(host.code, "backend_unavailable");
    assert.equal(exitCode(host.code), EXIT.startup);
    assert.equal(closed, 1);
    await writer.flush();
    assert.deepEqual(records.map((r) => [r.type, r.code, r.exit_code, r.message]), [[
      "host.error",
      "backend_unavailable",
      EXIT.startup,
      // Only the basename on stdout (the command line may hold secrets).
      "Cannot start the backend command: magi-code: not found",
    ]]);
  },
});

Deno.test({
  name:
    "BackendRun.start(): a failed source (already reported) is exit 2 and the started backend is discarded with EOF",
  permissions: NO_SPAWN,
  fn: async () => {
    const { records, writer } = recordingWriter();
    const child = memoryChild(scriptedBackend());
    const host = await BackendRun.start({
      toolDirs: [],
      registry,
      agent: AGENT,
      cwd: Deno.cwd(),
      kernelSandbox: "off",
      writer,
      backend: { child },
      sources: Promise.resolve(reported("config")),
    });
    assert.deepEqual(host, reported("config"));
    assert.equal(exitCode(host.code), EXIT.usage);
    assert.ok(child.stdinClosed);
    assert.deepEqual(child.signals, []);
    assert.deepEqual(await child.exited, { code: 0, signal: null });
    await writer.flush();
    assert.deepEqual(records, [], "the source's failure was reported by whoever started it");
  },
});
