import assert from "node:assert/strict";
import {
  entryLevel,
  kernelForTools,
  kernelRequirementError,
  type KernelSandboxMode,
  NOT_PROBED_REASON,
} from "../../src/run/kernel_sandbox.ts";
import type { KernelSupport } from "../../src/sandbox/kernel_policy.ts";

const AVAILABLE: KernelSupport = { abi: 6, available: true, reason: null };

function countingProbe(): {
  probe: (mode: KernelSandboxMode) => Promise<KernelSupport>;
  modes: string[];
} {
  const modes: string[] = [];
  return {
    modes,
    probe: (mode) => {
      modes.push(mode);
      return Promise.resolve(AVAILABLE);
    },
  };
}

const inline = { tool: { name: "inline_tool", isolation: "inline" } };
const processTool = { tool: { name: "process_tool", isolation: "process" } };
const defaultTool = { tool: { name: "default_tool" } };
const mcpTool = { tool: { name: "mcp_tool" }, source: { kind: "mcp" as const } };
const openapiTool = { tool: { name: "api_tool" }, source: { kind: "openapi" as const } };

Deno.test("kernelForTools() starts no probe when no tool module runs in its own process", async () => {
  const { probe, modes } = countingProbe();
  const tools = [inline, mcpTool, openapiTool];
  const kernel = await kernelForTools(tools, "auto", probe);
  assert.deepEqual(modes, []);
  assert.equal(kernel.available, false);
  assert.equal(kernel.reason, NOT_PROBED_REASON);
  // Same levels and the same --require-kernel-sandbox verdict as with a probed kernel.
  for (const entry of tools) assert.equal(entryLevel(entry, kernel), entryLevel(entry, AVAILABLE));
  assert.equal(kernelRequirementError(tools, kernel), kernelRequirementError(tools, AVAILABLE));
  assert.deepEqual(await kernelForTools([], "require", probe), kernel);
  assert.deepEqual(modes, []);
});

Deno.test("kernelForTools() probes once, with the mode, when a tool module runs in its own process", async () => {
  for (const tools of [[inline, processTool], [defaultTool], [mcpTool, defaultTool]]) {
    const { probe, modes } = countingProbe();
    const kernel = await kernelForTools(tools, "require", probe);
    assert.deepEqual(modes, ["require"]);
    assert.equal(kernel, AVAILABLE);
  }
});
