/**
 * OpenTelemetry end to end (docs/telemetry.md): the CLI with `OTEL_DENO=true` exports to a real
 * OTLP/HTTP receiver on loopback, and the spans' parent/child structure, attributes and the
 * propagated `traceparent` (process tool context, OpenAPI header, MCP `_meta`) are checked.
 * Also: `mcp` call IDs differ between server processes.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ofType, one, ROOT, runCli } from "../e2e/_cli.ts";
import { mcpArgs } from "../mcp/_stdio.ts";
import { json, serve } from "../openapi/_fixtures.ts";
import { eventually } from "../_wait.ts";
import { type ReceivedSpan, startOtlpReceiver } from "./_otlp.ts";

const TOOLS = `${ROOT}tests/telemetry/fixtures/tools`;
/** An argument value that must never appear in telemetry. */
const SECRET_ARG = "argument-text-9f3b";

/** A loopback API with one operation (`getThing`) and a config file naming it. */
async function thingsApi() {
  const api = serve((req) => json({ id: req.url.pathname.split("/").pop(), ok: true }));
  const dir = await Deno.makeTempDir({ prefix: "magi-tools-otel-" });
  const spec = join(dir, "things.json");
  await Deno.writeTextFile(
    spec,
    JSON.stringify({
      openapi: "3.0.3",
      info: { title: "Things", version: "1.0.0" },
      paths: {
        "/things/{id}": {
          get: {
            operationId: "getThing",
            parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
            responses: { "200": { description: "ok" } },
          },
        },
      },
    }),
  );
  const config = join(dir, "magi-tools.jsonc");
  await Deno.writeTextFile(
    config,
    JSON.stringify({ openapi: { things: { spec, baseUrl: api.url.href } } }),
  );
  return {
    api,
    config,
    async close() {
      await api.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

function named(spans: ReceivedSpan[], name: string): ReceivedSpan {
  const found = spans.filter((span) => span.name === name);
  assert.equal(found.length, 1, `one span ${name}: ${spans.map((s) => s.name).join(", ")}`);
  return found[0]!;
}

function traceparentOf(span: ReceivedSpan): string {
  return `00-${span.traceId}-${span.spanId}-01`;
}

function assertChild(child: ReceivedSpan, parent: ReceivedSpan): void {
  assert.equal(child.traceId, parent.traceId, `${child.name} is in ${parent.name}'s trace`);
  assert.equal(child.parentSpanId, parent.spanId, `${child.name} is a child of ${parent.name}`);
}

function assertNoArguments(spans: ReceivedSpan[]): void {
  for (const span of spans) {
    for (const [key, value] of Object.entries(span.attributes)) {
      assert.ok(!String(value).includes(SECRET_ARG), `${span.name} ${key} holds an argument`);
    }
  }
}

Deno.test("run with OTEL_DENO: turn → tool call / approval spans, OpenAPI request span and header, traceparent in a process tool", async () => {
  const receiver = startOtlpReceiver();
  const things = await thingsApi();
  try {
    const prompt =
      `trace_probe then note {"text":"${SECRET_ARG}"} then getThing {"id":"${SECRET_ARG}"}`;
    const result = await runCli(
      ["run", "--config", things.config, "--tools", TOOLS, "--approve", "allow", prompt],
      { env: receiver.env },
    );
    assert.equal(result.code, 0, result.stderr);
    const spans = receiver.spans.filter((span) => span.service === "magi-tools-test");
    const turn = named(spans, "magi.turn");
    assert.equal(turn.parentSpanId, "");
    const started = one(result.records, "turn.started");
    assert.equal(turn.attributes["magi.run.id"], started["run_id"]);
    assert.equal(turn.attributes["magi.turn.outcome"], "completed");
    assert.equal(turn.attributes["magi.turn.exit_code"], 0);

    const probe = named(spans, "execute_tool trace_probe");
    const note = named(spans, "execute_tool note");
    const thing = named(spans, "execute_tool getThing");
    for (const call of [probe, note, thing]) assertChild(call, turn);
    const calls = ofType(result.records, "tool.call");
    assert.equal(
      probe.attributes["gen_ai.tool.call.id"],
      calls.find((c) => c["name"] === "trace_probe")?.["call_id"],
    );
    assert.deepEqual(
      [probe, note, thing].map((s) => [
        s.attributes["gen_ai.tool.name"],
        s.attributes["magi.tool.source"],
        s.attributes["magi.tool.effect"],
        s.attributes["magi.tool.isolation"],
        s.attributes["magi.tool.outcome"],
      ]),
      [
        ["trace_probe", "module", "read", "process", "success"],
        ["note", "module", "write", "process", "success"],
        ["getThing", "openapi", "read", "external", "success"],
      ],
    );
    assert.equal(thing.attributes["magi.tool.source.name"], "things");
    assert.equal(typeof note.attributes["magi.tool.result_bytes"], "number");
    assert.equal(note.attributes["magi.tool.result_bytes"], `noted ${SECRET_ARG.length}`.length);

    const approval = named(spans, "magi.approval");
    assertChild(approval, turn);
    assert.equal(approval.attributes["magi.approval.decision"], "allow");
    assert.equal(approval.attributes["magi.approval.decided_by"], "flag");

    // The OpenAPI request: a client span under the call, its traceparent sent as a header.
    const request = named(spans, "HTTP GET");
    assertChild(request, thing);
    assert.equal(request.kind, 3, "SPAN_KIND_CLIENT");
    assert.equal(request.attributes["http.request.method"], "GET");
    assert.equal(request.attributes["server.address"], "127.0.0.1");
    assert.equal(things.api.seen.length, 1);
    assert.equal(things.api.seen[0]!.headers.get("traceparent"), traceparentOf(request));

    // The process tool got its call span's traceparent in ctx.
    const message = String(one(result.records, "message")["text"]);
    const reported = /trace_probe → (\{.*\})/.exec(message)?.[1];
    assert.ok(reported !== undefined, message);
    assert.equal(JSON.parse(reported).traceparent, traceparentOf(probe));

    assertNoArguments(spans);
    // Counters and a duration histogram per tool.
    const counted = receiver.points.filter((p) => p.metric === "magi_tools.tool.calls");
    const timed = receiver.points.filter((p) => p.metric === "magi_tools.tool.duration");
    for (const tool of ["trace_probe", "note", "getThing"]) {
      const count = counted.find((p) => p.attributes["gen_ai.tool.name"] === tool);
      assert.equal(count?.kind, "sum", `a counter for ${tool}`);
      assert.equal(count?.value, 1);
      assert.equal(count?.attributes["magi.tool.outcome"], "success");
      const duration = timed.find((p) => p.attributes["gen_ai.tool.name"] === tool);
      assert.equal(duration?.kind, "histogram", `a duration histogram for ${tool}`);
      assert.equal(duration?.value, 1);
    }
  } finally {
    await things.close();
    await receiver.close();
  }
});

Deno.test("call of an OpenAPI tool with OTEL_DENO: the request span is the call's child and its traceparent the header", async () => {
  const receiver = startOtlpReceiver();
  const things = await thingsApi();
  try {
    const result = await runCli(
      ["call", "--config", things.config, "--tools", TOOLS, "getThing", '{"id":"7"}'],
      { env: receiver.env, raw: true },
    );
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /"ok":true/);
    const spans = receiver.spans.filter((span) => span.service === "magi-tools-test");
    const call = named(spans, "execute_tool getThing");
    assert.equal(call.parentSpanId, "", "no turn: the call is the root");
    const request = named(spans, "HTTP GET");
    assertChild(request, call);
    assert.equal(things.api.seen[0]?.headers.get("traceparent"), traceparentOf(request));
  } finally {
    await things.close();
    await receiver.close();
  }
});

Deno.test("telemetry off: no traceparent header, none in the tool context", async () => {
  const things = await thingsApi();
  try {
    const api = await runCli(
      ["call", "--config", things.config, "--tools", TOOLS, "getThing", '{"id":"7"}'],
      { raw: true },
    );
    assert.equal(api.code, 0, api.stderr);
    assert.equal(things.api.seen[0]?.headers.get("traceparent"), null);
    const probe = await runCli(["call", "--tools", TOOLS, "trace_probe", "{}"], { raw: true });
    assert.equal(probe.code, 0, probe.stderr);
    assert.equal(JSON.parse(probe.stdout).traceparent, "none");
  } finally {
    await things.close();
  }
});

/** Start `mcp` over stdio with `env`, connect the SDK client. */
async function mcpClient(env: Record<string, string>, extra: string[] = []) {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: mcpArgs(TOOLS, extra),
    cwd: ROOT,
    env: { PATH: Deno.env.get("PATH") ?? "", NO_COLOR: "1", ...env },
    stderr: "pipe",
  });
  const client = new Client({ name: "otel-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

function textOf(result: unknown): string {
  const content = (result as { content: { type: string; text: string }[] }).content;
  return content.map((part) => part.text).join("");
}

Deno.test("mcp with OTEL_DENO: a call under an incoming _meta.traceparent is its child; approval wait too", async () => {
  const receiver = startOtlpReceiver();
  const traceId = "0af7651916cd43dd8448eb211c80319c";
  const parentId = "b7ad6b7169203331";
  const incoming = `00-${traceId}-${parentId}-01`;
  let probeText = "";
  const client = await mcpClient(receiver.env, ["--approve", "allow"]);
  try {
    probeText = textOf(
      await client.callTool({
        name: "trace_probe",
        arguments: {},
        _meta: { traceparent: incoming },
      }),
    );
    const noted = await client.callTool({
      name: "note",
      arguments: { text: SECRET_ARG },
      _meta: { traceparent: incoming },
    });
    assert.equal(textOf(noted), `noted ${SECRET_ARG.length}`);
    // A malformed trace context is ignored: the call runs, its span is a root.
    const bogus = await client.callTool({
      name: "trace_probe",
      arguments: {},
      _meta: { traceparent: "00-not-a-trace-context" },
    });
    assert.equal((bogus as { isError?: boolean }).isError ?? false, false);
  } finally {
    await client.close();
  }
  try {
    // The server exports its spans as it exits (stdin closed): all three end the wait.
    assert.ok(
      await eventually(() =>
        receiver.spans.some((s) => s.name === "execute_tool note") &&
        receiver.spans.filter((s) => s.name === "execute_tool trace_probe").length === 2
      ),
      "the mcp server exported its spans",
    );
    const spans = receiver.spans.filter((span) => span.service === "magi-tools-test");
    const probes = spans.filter((span) => span.name === "execute_tool trace_probe");
    assert.equal(probes.length, 2);
    const probe = probes.find((span) => span.parentSpanId === parentId)!;
    const root = probes.find((span) => span !== probe)!;
    assert.equal(root.parentSpanId, "");
    assert.notEqual(root.traceId, traceId);
    const note = named(spans, "execute_tool note");
    const approval = named(spans, "magi.approval");
    for (const span of [probe, note, approval]) {
      assert.equal(span.traceId, traceId);
      assert.equal(span.parentSpanId, parentId);
    }
    assert.equal(note.attributes["magi.approval.decision"], "allow");
    assert.equal(approval.attributes["magi.approval.decision"], "allow");
    const reported = JSON.parse(probeText);
    assert.equal(reported.traceparent, traceparentOf(probe));
    assert.match(String(probe.attributes["gen_ai.tool.call.id"]), /^mcp-[0-9a-f]{8}-1$/);
    assertNoArguments(spans);
  } finally {
    await receiver.close();
  }
});

Deno.test("mcp: call IDs differ between server processes", async () => {
  const ids: string[] = [];
  for (let i = 0; i < 2; i++) {
    const client = await mcpClient({});
    try {
      const reported = JSON.parse(
        textOf(await client.callTool({ name: "trace_probe", arguments: {} })),
      );
      assert.equal(reported.traceparent, "none");
      ids.push(reported.call_id);
    } finally {
      await client.close();
    }
  }
  assert.notEqual(ids[0], ids[1], `call IDs of two mcp processes: ${ids.join(", ")}`);
  for (const id of ids) assert.match(id, /^mcp-[0-9a-f]{8}-1$/);
});

Deno.test("call of an MCP server's tool with OTEL_DENO: the request span carries _meta.traceparent, the server's call span is its child", async () => {
  const receiver = startOtlpReceiver();
  const dir = await Deno.makeTempDir({ prefix: "magi-tools-otel-mcp-" });
  try {
    const config = join(dir, "magi-tools.jsonc");
    await Deno.mkdir(join(dir, "tools"));
    // The upstream server is `magi-tools mcp` itself, exporting to the same receiver.
    await Deno.writeTextFile(
      config,
      JSON.stringify({
        mcpServers: {
          up: {
            command: Deno.execPath(),
            args: mcpArgs(TOOLS),
            env: { ...receiver.env, OTEL_SERVICE_NAME: "upstream" },
          },
        },
      }),
    );
    const result = await runCli(
      ["call", "--config", config, "--tools", join(dir, "tools"), "up_trace_probe", "{}"],
      { env: receiver.env, raw: true },
    );
    assert.equal(result.code, 0, result.stderr);
    const reported = JSON.parse(result.stdout);
    assert.ok(
      await eventually(() => receiver.spans.some((s) => s.service === "upstream")),
      "the upstream server exported its spans",
    );
    const ours = receiver.spans.filter((span) => span.service === "magi-tools-test");
    const theirs = receiver.spans.filter((span) => span.service === "upstream");
    const call = named(ours, "execute_tool up_trace_probe");
    assert.equal(call.attributes["magi.tool.source"], "mcp");
    assert.equal(call.attributes["magi.tool.source.name"], "up");
    const request = named(ours, "tools/call trace_probe");
    assertChild(request, call);
    assert.equal(request.attributes["magi.mcp.server"], "up");
    const upstream = named(theirs, "execute_tool trace_probe");
    assertChild(upstream, request);
    assert.equal(reported.traceparent, traceparentOf(upstream));
  } finally {
    await Deno.remove(dir, { recursive: true });
    await receiver.close();
  }
});
