/**
 * `initialize`, `status` and `shutdown` before and around initialization, and the
 * `client.tools` negotiation rules (preflight failures allow a corrected initialize).
 */

import assert from "node:assert/strict";
import { REFERENCE } from "./_command.ts";
import { type Backend, withBackend } from "./_harness.ts";
import {
  BASE_CAPABILITIES,
  initialize,
  PART1_CAPABILITIES,
  readTool,
  type ToolDefinition,
  writeTool,
} from "./_fixtures.ts";
import { expectedToolId } from "./_canonical.ts";
import { CLIENT_TOOLS_LIMITS, LIMITS } from "../../src/protocol/limits.ts";

const STATUS_FIELDS = [
  "context_id",
  "model",
  "provider",
  "readiness",
  "run_id",
  "selection",
  "session_id",
  "state",
];

/** Send initialize with `params` and expect `code`, with no startup side effects. */
async function expectPreflightError(b: Backend, params: unknown, code: string): Promise<void> {
  const res = await b.request("initialize", params);
  assert.deepEqual(res.error, { code }, `initialize ${JSON.stringify(params).slice(0, 200)}`);
  assert.equal(await b.workspace.exists(b.workspace.mcHome), false, "no startup side effects");
}

Deno.test("initialize returns exactly capabilities, limits and status", async () => {
  await withBackend({}, async (b) => {
    const result = await initialize(b);
    assert.deepEqual(Object.keys(result).sort(), ["capabilities", "limits", "status"]);
    assert.deepEqual(result.capabilities, BASE_CAPABILITIES, "sixteen base names in spec order");
    assert.deepEqual(result.limits, { ...LIMITS }, "every bound with its version-1 value");
    const status = result.status as Record<string, unknown>;
    assert.deepEqual(Object.keys(status).sort(), STATUS_FIELDS);
    assert.equal(status.state, "idle");
    assert.equal(status.readiness, "ready");
    assert.match(String(status.context_id), /^[0-9a-f]{64}$/);
    assert.equal(status.session_id, null);
    assert.equal(status.run_id, null);
    assert.ok(status.provider === null || typeof status.provider === "string");
    assert.ok(status.model === null || typeof status.model === "string");
    const selection = status.selection as Record<string, unknown> | null;
    if (selection !== null) {
      assert.deepEqual(Object.keys(selection).sort(), [
        "effective_effort",
        "effort_support",
        "model",
        "permitted_efforts",
        "provider",
        "requested_effort",
        "revision",
      ]);
      assert.ok(["supported", "unsupported", "unknown"].includes(String(selection.effort_support)));
    }
  });
});

Deno.test("status after initialize matches the initialize status", async () => {
  await withBackend({}, async (b) => {
    const result = await initialize(b);
    const status = await b.call("status");
    assert.deepEqual(status, result.status);
  });
});

Deno.test("initialize with client.tools adds the capability and a descriptor with tool IDs", async () => {
  const tools: ToolDefinition[] = [
    {
      name: "lookup_ticket",
      description: "Fetch one ticket by id.\n\tTabs and \u00e9 are fine.",
      input_schema: {
        type: "object",
        required: ["id"],
        properties: { id: { type: "string", maxLength: 10 }, "\u00e9": { type: "number" } },
        additionalProperties: false,
      },
      effect: "read",
      timeout_ms: 1_000,
    },
    { ...writeTool("Save-note_2"), timeout_ms: 600_000 },
    readTool("a"),
  ];
  await withBackend({}, async (b) => {
    const result = await initialize(b, tools);
    assert.deepEqual(Object.keys(result).sort(), [
      "capabilities",
      "descriptors",
      "limits",
      "status",
    ]);
    assert.deepEqual(result.capabilities, [...BASE_CAPABILITIES, "client.tools"]);
    assert.deepEqual(result.limits, { ...LIMITS });
    assert.deepEqual(result.descriptors, {
      "client.tools": {
        version: 1,
        tools: tools.map((t) => ({ name: t.name, tool_id: expectedToolId(t) })),
        limits: { ...CLIENT_TOOLS_LIMITS },
      },
    });
  });
});

Deno.test("initialize with client.tools and an empty tool list is accepted", async () => {
  await withBackend({}, async (b) => {
    const result = await initialize(b, []);
    assert.deepEqual(
      (result.descriptors as Record<string, { tools: unknown }>)["client.tools"]?.tools,
      [],
    );
  });
});

Deno.test("an unsupported required capability is rejected with no startup side effects", async () => {
  await withBackend({}, async (b) => {
    await expectPreflightError(
      b,
      { required_capabilities: ["status", "no.such.thing"] },
      "unsupported_capability",
    );
    await initialize(b);
  });
});

Deno.test("more than 16 required capabilities without client.tools are invalid_params", async () => {
  await withBackend({}, async (b) => {
    await expectPreflightError(
      b,
      { required_capabilities: [...BASE_CAPABILITIES, "status"] },
      "invalid_params",
    );
    const all = await b.call("initialize", { required_capabilities: [...BASE_CAPABILITIES] });
    assert.deepEqual(all.capabilities, BASE_CAPABILITIES, "exactly 16 names are accepted");
  });
});

Deno.test("more than 18 required capabilities with client.tools are invalid_params", async () => {
  await withBackend({}, async (b) => {
    await expectPreflightError(b, {
      required_capabilities: [...BASE_CAPABILITIES, "client.tools", "status", "shutdown"],
      client_tools: [],
    }, "invalid_params");
    b.allowClientTools();
    await b.call("initialize", {
      required_capabilities: [...BASE_CAPABILITIES, "client.tools"],
      client_tools: [],
    });
  });
});

const BAD_PARAMS: ReadonlyArray<readonly [string, unknown]> = [
  ["no required_capabilities", {}],
  ["an unknown field", { required_capabilities: ["status"], extra: true }],
  ["required_capabilities not an array", { required_capabilities: "status" }],
  ["a non-string capability", { required_capabilities: ["status", 3] }],
  ["a capability outside the name grammar", { required_capabilities: ["bad name"] }],
  ["client_tools without client.tools", { required_capabilities: ["status"], client_tools: [] }],
  ["client.tools without client_tools", { required_capabilities: ["status", "client.tools"] }],
  ["client_tools not an array", {
    required_capabilities: ["client.tools"],
    client_tools: { lookup: readTool() },
  }],
];
for (const [name, params] of BAD_PARAMS) {
  Deno.test(`initialize with ${name} is invalid_params and a corrected initialize works`, async () => {
    await withBackend({}, async (b) => {
      await expectPreflightError(b, params, "invalid_params");
      await initialize(b, [readTool()]);
    });
  });
}

function withField(field: string, value: unknown): Record<string, unknown> {
  return { ...readTool(), [field]: value };
}
function deepSchema(depth: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: "object" };
  for (let i = 1; i < depth; i++) schema = { type: "object", properties: { p: schema } };
  return schema;
}

const BAD_TOOLS: ReadonlyArray<readonly [string, unknown[]]> = [
  ["a name starting with a digit", [withField("name", "1tool")]],
  ["a name with a space", [withField("name", "my tool")]],
  ["a 65-byte name", [withField("name", "t".repeat(65))]],
  ["an empty name", [withField("name", "")]],
  ["a duplicate name", [readTool("twice"), writeTool("twice")]],
  ["an empty description", [withField("description", "")]],
  ["a 1025-byte description", [withField("description", "d".repeat(1025))]],
  ["a control character in the description", [withField("description", "bell\u0007")]],
  ["a schema whose root type is not object", [withField("input_schema", { type: "string" })]],
  ["a schema without a root type", [withField("input_schema", { properties: {} })]],
  ["a schema that is not an object", [withField("input_schema", ["type", "object"])]],
  ["a schema over 16,384 bytes", [withField("input_schema", {
    type: "object",
    description: "s".repeat(16_384),
  })]],
  ["a schema 17 containers deep", [withField("input_schema", deepSchema(9))]],
  ["an unknown effect", [withField("effect", "execute")]],
  ["timeout_ms below 1,000", [withField("timeout_ms", 999)]],
  ["timeout_ms above 600,000", [withField("timeout_ms", 600_001)]],
  ["a fractional timeout_ms", [withField("timeout_ms", 1500.5)]],
  ["an unknown definition field", [withField("version", 2)]],
  ["a missing effect", [{ name: "x", description: "x", input_schema: { type: "object" } }]],
  ["33 tools", Array.from({ length: 33 }, (_, i) => readTool(`t${i}`))],
  ["a definition that is not an object", ["lookup"]],
];
for (const [name, tools] of BAD_TOOLS) {
  Deno.test(`client_tools with ${name} is invalid_params and a corrected initialize works`, async () => {
    await withBackend({}, async (b) => {
      await expectPreflightError(b, {
        required_capabilities: [...PART1_CAPABILITIES, "client.tools"],
        client_tools: tools,
      }, "invalid_params");
      await initialize(b, [readTool()]);
    });
  });
}

Deno.test({
  name: "a client tool named like a built-in tool is invalid_params (reference built-ins)",
  ignore: !REFERENCE,
  fn: async () => {
    await withBackend({}, async (b) => {
      for (const name of ["shell", "edit", "apply_patch", "builtin_search"]) {
        await expectPreflightError(b, {
          required_capabilities: ["client.tools"],
          client_tools: [readTool(name)],
        }, "invalid_params");
      }
      await initialize(b, [readTool()]);
    });
  },
});

Deno.test("client_tools accepts 32 tools and the timeout_ms bounds 1,000 and 600,000", async () => {
  await withBackend({}, async (b) => {
    const tools = Array.from({ length: 32 }, (_, i) => ({
      ...readTool(`t${i}`),
      timeout_ms: i % 2 === 0 ? 1_000 : 600_000,
    }));
    const result = await initialize(b, tools);
    const desc = (result.descriptors as Record<string, { tools: unknown[] }>)["client.tools"];
    assert.equal(desc?.tools.length, 32);
  });
});

Deno.test("a second initialize after success is already_initialized", async () => {
  await withBackend({}, async (b) => {
    await initialize(b);
    const res = await b.request("initialize", { required_capabilities: ["status"] });
    assert.deepEqual(res.error, { code: "already_initialized" });
    assert.equal((await b.call("status")).readiness, "ready", "the first initialization stands");
  });
});

const SESSION_OPS: ReadonlyArray<readonly [string, Record<string, unknown>]> = [
  ["status", {}],
  ["session.create", {}],
  ["session.open", { session_id: "abc" }],
  ["turn.start", { session_id: "abc", prompt: "hello" }],
  ["turn.cancel", { session_id: "abc", run_id: "r" }],
  ["approval.answer", { session_id: "abc", run_id: "r", approval_id: "a", allow: true }],
];
Deno.test("status and session operations before initialize are not_initialized", async () => {
  await withBackend({}, async (b) => {
    for (const [method, params] of SESSION_OPS) {
      const res = await b.request(method, params);
      assert.deepEqual(res.error, { code: "not_initialized" }, method);
    }
    assert.equal(await b.workspace.exists(b.workspace.mcHome), false, "no startup effects");
    await initialize(b);
  });
});

Deno.test("shutdown before initialize returns stopping and the child exits 0", async () => {
  await withBackend({}, async (b) => {
    const result = await b.call("shutdown");
    assert.deepEqual(result, { state: "stopping" });
    await b.sendRequest("initialize", { required_capabilities: ["status"] });
    await b.expectExit(0);
    assert.equal(
      b.frames.filter((f) => f.type === "response").length,
      1,
      "no input is admitted after shutdown",
    );
  });
});

Deno.test("shutdown after initialize returns stopping and the child exits 0", async () => {
  await withBackend({}, async (b) => {
    await initialize(b);
    assert.deepEqual(await b.call("shutdown"), { state: "stopping" });
    await b.expectExit(0);
  });
});

Deno.test("status and shutdown params must be exactly {}", async () => {
  await withBackend({}, async (b) => {
    await initialize(b);
    assert.deepEqual((await b.request("status", { verbose: true })).error, {
      code: "invalid_params",
    });
    assert.deepEqual((await b.request("shutdown", { force: true })).error, {
      code: "invalid_params",
    });
    assert.equal((await b.call("status")).state, "idle", "still serving");
  });
});

Deno.test("opt-in operations not named at initialize are unsupported_capability", async () => {
  await withBackend({}, async (b) => {
    await initialize(b);
    const res = await b.request("operation.cancel", { operation_id: "x1" });
    assert.deepEqual(res.error, { code: "unsupported_capability" });
  });
});

Deno.test("client.tool.result without client.tools negotiation is unsupported_capability", async () => {
  await withBackend({}, async (b) => {
    await initialize(b);
    const res = await b.request("client.tool.result", {
      session_id: "s",
      run_id: "r",
      call_id: "c",
      part: 0,
      last_part: true,
      outcome: "success",
      text: "",
    });
    assert.ok(
      res.error?.code === "unsupported_capability" || res.error?.code === "unsupported_method",
      `got ${JSON.stringify(res.error)}`,
    );
  });
});

const INIT = { required_capabilities: [...PART1_CAPABILITIES] };

Deno.test("a second initialize pipelined behind the first is already_initialized", async () => {
  await withBackend({}, async (b) => {
    await b.pipeline([
      { id: "i1", method: "initialize", params: INIT },
      { id: "i2", method: "initialize", params: INIT },
    ]);
    assert.ok((await b.waitResponse("i1")).result !== undefined);
    assert.deepEqual((await b.waitResponse("i2")).error, { code: "already_initialized" });
  });
});

Deno.test("status pipelined behind initialize is starting/initializing or ready, never mixed", async () => {
  await withBackend({}, async (b) => {
    const [, status] = await b.pipeline([
      { id: "i1", method: "initialize", params: INIT },
      { id: "s1", method: "status", params: {} },
      { id: "c1", method: "session.create", params: {} },
    ]);
    const s = status?.result as Record<string, unknown>;
    assert.deepEqual(Object.keys(s).sort(), STATUS_FIELDS);
    if (s.state === "starting") {
      assert.equal(s.readiness, "initializing");
      for (const key of ["provider", "model", "context_id", "selection"]) {
        assert.equal(s[key], null, key);
      }
      const create = await b.waitResponse("c1");
      assert.ok(
        create.result !== undefined || create.error?.code === "not_initialized",
        `session.create while starting: ${JSON.stringify(create.error)}`,
      );
    } else {
      assert.equal(s.state, "idle");
      assert.equal(s.readiness, "ready");
    }
  });
});

Deno.test("shutdown pipelined behind initialize stops the child with exit 0", async () => {
  await withBackend({}, async (b) => {
    await b.send(
      [
        { id: "i1", method: "initialize", params: INIT },
        { id: "x1", method: "shutdown", params: {} },
      ].map((r) => `${JSON.stringify({ protocol: "magi-code.local-agent", version: 1, ...r })}\n`)
        .join(""),
    );
    assert.deepEqual((await b.waitResponse("x1")).result, { state: "stopping" });
    await b.expectExit(0);
    const init = b.frames.find((f) => f.type === "response" && f.id === "i1");
    if (init?.type === "response" && init.error !== undefined) {
      assert.deepEqual(init.error, { code: "startup_cancelled" });
    }
  });
});
