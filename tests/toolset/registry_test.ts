import assert from "node:assert/strict";
import { z } from "zod";
import { toolIdOf } from "../../src/protocol/canonical.ts";
import type { JsonObject } from "../../src/protocol/json.ts";
import { defineTool, type Tool } from "../../src/tool/define.ts";
import type { LoadedTool } from "../../src/toolset/discovery.ts";
import { RegistryError, ToolRegistry } from "../../src/toolset/registry.ts";
import { RESERVED_TOOL_NAMES } from "../../src/tool/reserved_names.ts";
import { BUILTIN_TOOL_NAMES } from "../../src/reference_backend/client_tools/builtins.ts";

function tool(name: string, input: z.ZodObject = z.object({ text: z.string() }), extra = {}): Tool {
  return defineTool({
    name,
    description: `The ${name} tool.`,
    input,
    effect: "read",
    run: () => "",
    ...extra,
  });
}

function loaded(...tools: Tool[]): LoadedTool[] {
  return tools.map((entry) => ({
    tool: entry,
    file: `tools/${entry.name}.ts`,
    url: `file:///tools/${entry.name}.ts`,
  }));
}

function registryError(fn: () => unknown): RegistryError {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof RegistryError, String(error));
    return error;
  }
  assert.fail("expected a RegistryError");
}

Deno.test("ToolRegistry.fromLoaded() builds wire definitions in load order", () => {
  const registry = ToolRegistry.fromLoaded(
    loaded(tool("b_tool", undefined, { timeoutMs: 2_000, effect: "write" }), tool("a_tool")),
  );
  assert.deepEqual(registry.definitions(), [
    {
      name: "b_tool",
      description: "The b_tool tool.",
      input_schema: {
        type: "object",
        properties: { text: { type: "string" } },
        required: ["text"],
      },
      effect: "write",
      timeout_ms: 2_000,
    },
    {
      name: "a_tool",
      description: "The a_tool tool.",
      input_schema: {
        type: "object",
        properties: { text: { type: "string" } },
        required: ["text"],
      },
      effect: "read",
    },
  ]);
  assert.equal(registry.get("a_tool")?.file, "tools/a_tool.ts");
  assert.equal(registry.get("missing"), undefined);
});

Deno.test("ToolRegistry uses the input side of the schema: defaults are optional", () => {
  const registry = ToolRegistry.fromLoaded(
    loaded(tool("paged", z.strictObject({ path: z.string(), offset: z.int().default(0) }))),
  );
  const schema = registry.definitions()[0]!.input_schema;
  assert.deepEqual(schema["required"], ["path"]);
  assert.equal(schema["additionalProperties"], false);
  assert.equal("$schema" in schema, false);
});

Deno.test("ToolRegistry tool_id is toolIdOf(definition) and definitionBytes its JSON size", () => {
  const registry = ToolRegistry.fromLoaded(loaded(tool("echo")));
  const entry = registry.tools[0]!;
  assert.equal(entry.toolId, toolIdOf(entry.definition as JsonObject));
  assert.match(entry.toolId, /^[0-9a-f]{64}$/);
  assert.equal(
    entry.definitionBytes,
    new TextEncoder().encode(JSON.stringify(entry.definition)).length,
  );
});

const unconvertible: [string, z.ZodObject, RegExp][] = [
  ["a bigint", z.object({ n: z.bigint() }), /BigInt cannot be represented/],
  ["a date", z.object({ when: z.date() }), /Date cannot be represented/],
  ["a custom type", z.object({ x: z.custom<string>() }), /Custom types cannot be represented/],
];
for (const [what, input, reason] of unconvertible) {
  Deno.test(`ToolRegistry.fromLoaded() fails loudly on a schema with ${what}, naming tool and file`, () => {
    const error = registryError(() =>
      ToolRegistry.fromLoaded(loaded(tool("ok"), tool("bad", input)))
    );
    assert.match(
      error.message,
      /^Tool input schema cannot be converted to JSON Schema: bad \(tools\/bad\.ts\): /,
    );
    assert.match(error.message, reason);
  });
}

Deno.test("ToolRegistry.fromLoaded() lists every field zod cannot convert, not only the first", () => {
  const input = z.object({
    ok: z.string(),
    when: z.date(),
    count: z.bigint().optional(),
    nested: z.object({ at: z.date(), fine: z.number() }),
    tags: z.array(z.bigint()),
  });
  const error = registryError(() => ToolRegistry.fromLoaded(loaded(tool("bad", input))));
  assert.equal(
    error.message,
    "Tool input schema cannot be converted to JSON Schema: bad (tools/bad.ts): " +
      "when: Date cannot be represented in JSON Schema; " +
      "count: BigInt cannot be represented in JSON Schema; " +
      "nested.at: Date cannot be represented in JSON Schema; " +
      "tags[]: BigInt cannot be represented in JSON Schema",
  );
});

Deno.test("ToolRegistry.fromLoaded() rejects a backend built-in's name, with the reserved list", () => {
  const error = registryError(() => ToolRegistry.fromLoaded(loaded(tool("ok"), tool("shell"))));
  assert.equal(
    error.message,
    "Tool name shell is reserved for a backend built-in tool: tools/shell.ts; rename the tool " +
      "(reserved names: shell, edit, apply_patch, builtin_search)",
  );
  // Another backend's list: the option replaces the default.
  const registry = ToolRegistry.fromLoaded(loaded(tool("shell")), { reservedNames: ["other"] });
  assert.equal(registry.tools.length, 1);
});

Deno.test("RESERVED_TOOL_NAMES are the reference backend's built-in tool names", () => {
  assert.deepEqual([...RESERVED_TOOL_NAMES].sort(), [...BUILTIN_TOOL_NAMES].sort());
});

Deno.test("ToolRegistry.fromLoaded() rejects a schema whose root is not an object", () => {
  const input = z.object({}).meta({ type: "string" } as never);
  const error = registryError(() => ToolRegistry.fromLoaded(loaded(tool("stringy", input))));
  assert.equal(
    error.message,
    'Tool input schema root must be "type":"object": stringy (tools/stringy.ts)',
  );
});

Deno.test("ToolRegistry.fromLoaded() rejects a schema over 16384 bytes", () => {
  const input = z.object({ text: z.string().describe("d".repeat(16_400)) });
  const error = registryError(() => ToolRegistry.fromLoaded(loaded(tool("huge", input))));
  assert.match(
    error.message,
    /^Tool input schema is too large: huge \(tools\/huge\.ts\): \d+ bytes exceeds the limit of 16384$/,
  );
});

Deno.test("ToolRegistry.fromLoaded() rejects a schema nested deeper than 16 containers", () => {
  let input: z.ZodObject = z.object({ leaf: z.string() });
  for (let level = 0; level < 8; level++) input = z.object({ inner: input });
  const error = registryError(() => ToolRegistry.fromLoaded(loaded(tool("deep", input))));
  assert.equal(
    error.message,
    "Tool input schema is too deep: deep (tools/deep.ts): more than 16 nested containers",
  );
});

Deno.test("ToolRegistry.fromLoaded() registers 32 tools directly, 33 through the catalog, and rejects 1001", () => {
  const many = (count: number) => loaded(...Array.from({ length: count }, (_, i) => tool(`t${i}`)));
  const direct = ToolRegistry.fromLoaded(many(32));
  assert.equal(direct.tools.length, 32);
  assert.equal(direct.hasCatalog, false);
  assert.deepEqual(direct.definitions(), direct.tools.map((entry) => entry.definition));
  const catalog = ToolRegistry.fromLoaded(many(33));
  assert.equal(catalog.tools.length, 33);
  assert.equal(catalog.hasCatalog, true);
  assert.deepEqual(
    catalog.definitions().map((d) => d.name),
    [...Array.from({ length: 29 }, (_, i) => `t${i}`), "tool_search", "tool_call"],
  );
  const error = registryError(() => ToolRegistry.fromLoaded(many(1_001)));
  assert.match(error.message, /^Too many tools: 1001 exceeds the limit of 1000: tools\/t0\.ts, /);
});

Deno.test("ToolRegistry.fromLoaded() rejects a duplicate name, naming both files", () => {
  const twin = tool("twin");
  const error = registryError(() =>
    ToolRegistry.fromLoaded([
      { tool: twin, file: "a/twin.ts", url: "file:///a/twin.ts" },
      { tool: twin, file: "b/twin.ts", url: "file:///b/twin.ts" },
    ])
  );
  assert.equal(error.message, "Duplicate tool name: twin in a/twin.ts and b/twin.ts");
});

Deno.test("ToolRegistry.fromLoaded() checks required capabilities", () => {
  assert.match(
    registryError(() => ToolRegistry.fromLoaded([], { requiredCapabilities: ["shutdown"] }))
      .message,
    /^Required capabilities must include client\.tools$/,
  );
  const nineteen = ["client.tools", ...Array.from({ length: 18 }, (_, i) => `c${i}`)];
  assert.match(
    registryError(() => ToolRegistry.fromLoaded([], { requiredCapabilities: nineteen })).message,
    /^Too many required capabilities: 19 exceeds the limit of 18$/,
  );
});

Deno.test("ToolRegistry.budget() measures the whole initialize request", () => {
  const capabilities = ["client.tools", "session.create", "turn.start", "shutdown"];
  const registry = ToolRegistry.fromLoaded(loaded(tool("echo")), {
    requiredCapabilities: capabilities,
  });
  const budget = registry.budget();
  const frame = {
    protocol: "magi-code.local-agent",
    version: 1,
    id: "x".repeat(64),
    method: "initialize",
    params: { required_capabilities: capabilities, client_tools: registry.definitions() },
  };
  assert.equal(budget.usedBytes, new TextEncoder().encode(JSON.stringify(frame)).length);
  assert.equal(budget.frameBytes, 65_536);
  assert.equal(budget.remainingBytes, 65_536 - budget.usedBytes);
  assert.deepEqual(budget.perTool, [{
    name: "echo",
    file: "tools/echo.ts",
    bytes: registry.tools[0]!.definitionBytes,
  }]);
});

Deno.test("ToolRegistry.fromLoaded() rejects tools over the initialize frame, saying by how much and what each costs", () => {
  // 32 tools, each with a 1024-byte description and a ~1000-byte schema: ~67 KB.
  const tools = Array.from({ length: 32 }, (_, i) =>
    defineTool({
      name: `big_${String(i).padStart(2, "0")}`,
      description: "d".repeat(1_024),
      input: z.object({ text: z.string().describe("s".repeat(1_000 + i)) }),
      effect: "read",
      run: () => "",
    }));
  const capabilities = ["client.tools"];
  const error = registryError(() =>
    ToolRegistry.fromLoaded(loaded(...tools), { requiredCapabilities: capabilities })
  );
  const used = Number(
    /^Tool definitions do not fit in the initialize request: (\d+) bytes/.exec(error.message)?.[1],
  );
  assert.ok(used > 65_536);
  assert.ok(
    error.message.includes(`exceeds the limit of 65536 by ${used - 65_536} bytes`),
    error.message,
  );
  // Costs are listed largest first: big_31 has the longest schema.
  const costs = error.message.slice(error.message.indexOf("cost per tool, largest first: "));
  assert.match(
    costs,
    /^cost per tool, largest first: big_31 \(tools\/big_31\.ts\) \d+ bytes, big_30 /,
  );
  assert.equal(costs.match(/ bytes/g)?.length, 32);
  // The last tools in load order are the ones that do not fit.
  assert.match(error.message, /tools that do not fit: [^;]*big_31;/);
  assert.doesNotMatch(error.message, /tools that do not fit: [^;]*big_00[,;]/);

  // Fewer of the same tools fit.
  const fits = ToolRegistry.fromLoaded(loaded(...tools.slice(0, 28)), {
    requiredCapabilities: capabilities,
  });
  assert.ok(fits.budget().remainingBytes >= 0);
});

Deno.test("ToolRegistry.verifyDescriptor() accepts the same names and tool_ids in order", () => {
  const registry = ToolRegistry.fromLoaded(loaded(tool("a"), tool("b")));
  registry.verifyDescriptor({
    tools: registry.tools.map((entry) => ({
      name: entry.tool.name,
      tool_id: toolIdOf(entry.definition as JsonObject),
    })),
  });
});

Deno.test("ToolRegistry.verifyDescriptor() fails closed on any difference", () => {
  const registry = ToolRegistry.fromLoaded(loaded(tool("a"), tool("b")));
  const [a, b] = registry.tools.map((entry) => ({ name: entry.tool.name, tool_id: entry.toolId }));
  const cases: [string, { name: string; tool_id: string }[], RegExp][] = [
    [
      "a changed tool_id",
      [a!, { ...b!, tool_id: "0".repeat(64) }],
      /^Backend registered a different definition: b: tool_id mismatch$/,
    ],
    ["swapped order", [b!, a!], /^Backend registered a different tool at position 0: expected a$/],
    ["a missing tool", [a!], /^Backend registered 1 tools, expected 2$/],
    [
      "an extra tool",
      [a!, b!, { name: "c", tool_id: "1".repeat(64) }],
      /^Backend registered 3 tools, expected 2$/,
    ],
  ];
  for (const [what, tools, message] of cases) {
    const error = registryError(() => registry.verifyDescriptor({ tools }));
    assert.match(error.message, message, what);
  }
});
