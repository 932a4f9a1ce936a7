import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { isTool } from "../../src/tool/define.ts";
import { loadToolDirs } from "../../src/toolset/discovery.ts";
import { ToolLoadError } from "../../src/errors/mod.ts";
import { ToolExecutor } from "../../src/call/executor.ts";
import { ToolRegistry } from "../../src/toolset/registry.ts";
import { describedTool, isDescribedTool } from "../../src/sandbox/description.ts";
import type { DescribedTool } from "../../src/sandbox/description.ts";
import { CLIENT_TOOLS_LIMITS } from "../../src/protocol/limits.ts";

const LOAD_FIXTURES = fileURLToPath(new URL("./load_fixtures/", import.meta.url));
const dir = (name: string) => join(LOAD_FIXTURES, name);
const WRITE_PROBE = "/tmp/magi-tools-load-write-probe";

async function loadError(dirs: string[]): Promise<ToolLoadError> {
  const error = await loadToolDirs(dirs).then(
    () => assert.fail("expected a ToolLoadError"),
    (error: unknown) => error,
  );
  assert.ok(error instanceof ToolLoadError, String(error));
  return error;
}

function executorOf(registry: ToolRegistry): ToolExecutor {
  return new ToolExecutor(registry, {
    limits: { ...CLIENT_TOOLS_LIMITS, cancel_grace_ms: 300 },
    cwd: Deno.cwd(),
  });
}

function call(executor: ToolExecutor, registry: ToolRegistry, name: string, args: unknown) {
  return executor.execute({
    callId: "call-1",
    name,
    toolId: registry.get(name)!.toolId,
    arguments: args,
    deadlineMs: 20_000,
    sessionId: "session-1",
    runId: "run-1",
  }, new AbortController().signal);
}

for (const permission of ["read", "write", "run", "net", "env"]) {
  Deno.test(`loadToolDirs() refuses a process tool whose top-level code needs ${permission} access`, async () => {
    await Deno.remove(WRITE_PROBE).catch(() => {});
    const error = await loadError([dir(permission)]);
    const file = join(dir(permission), "tool.ts");
    assert.equal(error.file, file);
    assert.equal(
      error.message,
      `Tool module needs ${permission} access at load time, which is not allowed: ${file}`,
    );
    assert.match(error.reason, /^NotCapable: Requires /);
    assert.equal(existsSync(WRITE_PROBE), false, "nothing was written");
  });
}

Deno.test("an inline tool's top-level code also starts without permissions: it is described first", async () => {
  const error = await loadError([dir("inline_reads_at_load")]);
  const file = join(dir("inline_reads_at_load"), "tool.ts");
  assert.equal(
    error.message,
    `Tool module needs read access at load time, which is not allowed: ${file}`,
  );
});

Deno.test("loadToolDirs() names a module that ends the describe process at load, not its neighbours", async () => {
  const error = await loadError([dir("good"), dir("exit")]);
  assert.equal(error.file, join(dir("exit"), "tool.ts"));
  assert.match(error.message, /the module ended the process while loading \(exit code 0\)$/);
});

Deno.test("loadToolDirs() names a module that does not finish loading in time", async () => {
  const error = await loadToolDirs([dir("hang")], { describe: { timeoutMs: 1_000 } }).then(
    () => assert.fail("expected a ToolLoadError"),
    (error: unknown) => error,
  );
  assert.ok(error instanceof ToolLoadError, String(error));
  assert.equal(
    error.message,
    `Tool module failed to load: ${
      join(dir("hang"), "tool.ts")
    }: did not finish loading within 1000 ms`,
  );
});

Deno.test("loadToolDirs() names a module that takes the describe channel (its answer is not trusted)", async () => {
  const error = await loadError([dir("good"), dir("thief")]);
  assert.equal(error.file, join(dir("thief"), "tool.ts"));
  assert.match(error.message, /the module interfered with the describe process's channel$/);
});

Deno.test("loadToolDirs() keeps a process tool as its description only; an inline tool is imported", async () => {
  const loaded = await loadToolDirs([dir("good"), dir("inline")]);
  assert.deepEqual(loaded.map((entry) => entry.tool.name), ["good", "inline_reader"]);
  assert.equal(isDescribedTool(loaded[0]!.tool), true);
  assert.equal(isTool(loaded[0]!.tool), false);
  assert.equal(isTool(loaded[1]!.tool), true);
});

Deno.test("a described tool has the same definition and tool_id as the imported module", async () => {
  const described = ToolRegistry.fromLoaded(await loadToolDirs([dir("good")]));
  const imported = ToolRegistry.fromLoaded(await loadToolDirs([dir("good")], { describe: false }));
  assert.deepEqual(described.definitions(), imported.definitions());
  assert.equal(described.get("good")!.toolId, imported.get("good")!.toolId);
});

Deno.test("an inline tool is imported in the host and runs with the host's permissions", async () => {
  const registry = ToolRegistry.fromLoaded(await loadToolDirs([dir("inline")]));
  // Its module was evaluated in the host once (the describe child's evaluation is elsewhere).
  assert.equal((globalThis as { magiToolsInlineLoads?: number }).magiToolsInlineLoads, 1);
  const executor = executorOf(registry);
  try {
    const result = await call(executor, registry, "inline_reader", {});
    assert.equal(result.outcome, "success");
    assert.equal(result.text, "declared content\n");
  } finally {
    await executor.close();
  }
});

Deno.test("a described tool's arguments are validated in its process, answered as the host would", async () => {
  const described = ToolRegistry.fromLoaded(await loadToolDirs([dir("good")]));
  const imported = ToolRegistry.fromLoaded(await loadToolDirs([dir("good")], { describe: false }));
  const inProcess = executorOf(described);
  const inHost = executorOf(imported);
  try {
    for (const args of [{ n: "x" }, {}, { n: 1, extra: true }, null]) {
      const child = await call(inProcess, described, "good", args);
      const host = await call(inHost, imported, "good", args);
      assert.equal(child.outcome, "error");
      assert.equal(child.errorCode, "invalid_arguments");
      assert.equal(child.text, host.text, JSON.stringify(args));
    }
    const ok = await call(inProcess, described, "good", { n: 41 });
    assert.equal(ok.text, "42");
  } finally {
    await inProcess.close();
    await inHost.close();
  }
});

Deno.test("a process tool that declares no permission gets none (not the host's) at call time", async () => {
  const registry = ToolRegistry.fromLoaded(await loadToolDirs([dir("bare")]));
  const executor = executorOf(registry);
  try {
    const result = await call(executor, registry, "bare", {});
    assert.equal(result.outcome, "error");
    assert.equal(result.errorCode, "permission_denied");
    assert.equal(
      result.text,
      "Permission denied: read access to a path outside the declared list",
    );
  } finally {
    await executor.close();
  }
});

Deno.test("a tool process refuses to serve a tool whose description was altered to widen it", async () => {
  const [good] = await loadToolDirs([dir("good")]);
  const real = good!.tool as DescribedTool;
  const widened = describedTool({
    name: real.name,
    description: real.description,
    effect: real.effect,
    permissions: { net: true },
    input: real.inputSchema,
  });
  const registry = ToolRegistry.fromLoaded([{ ...good!, tool: widened }]);
  const executor = executorOf(registry);
  try {
    const result = await call(executor, registry, "good", { n: 1 });
    assert.equal(result.outcome, "error");
    assert.equal(result.errorCode, "tool_crashed");
    assert.match(result.text, /the tool's definition differs from its description: good/);
  } finally {
    await executor.close();
  }
});
