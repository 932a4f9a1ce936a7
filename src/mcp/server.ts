/**
 * `magi-tools mcp`'s core: the host's registered tools as an MCP server (the
 * SDK's low-level `Server`), every call run by the same {@link ToolExecutor}
 * as `client.tools` calls: validation, deadlines, the per-tool sandbox and
 * hard kill, result bounds.
 *
 * - `tools/list`: each tool's name, description, input JSON Schema (the
 *   `client.tools` definition's, with `$schema` draft 2020-12 for module tools)
 *   and annotations (`readOnlyHint: true`
 *   for `read` tools, `false` for `write` tools).
 * - `tools/call`: text content; a result that is a JSON object also as
 *   `structuredContent`; a failure is an `isError` result with the same text
 *   the `client.tools` path sends (`error (code): ` is not added); an unknown
 *   tool is a JSON-RPC `-32602` error, as the MCP spec asks.
 * - `notifications/cancelled` aborts the call's signal, like `client.tool.cancel`; so does
 *   {@link McpServerOptions.stop} (stdio: the end of stdin) and, over HTTP, the client dropping
 *   the call's connection or its session ending (`http.ts`).
 * - Calls take one of the shared {@link FairSlots} before the executor runs them: no client can
 *   hold every slot, and waiting calls are served round-robin between clients.
 * - Progress (a module tool's `ctx.progress`, an MCP server's) goes to the caller when it sent a
 *   `progressToken`.
 * - With {@link McpServerOptions.current} (`mcp --watch`) each request uses the tool set of the
 *   moment, and `tools.listChanged: true` is advertised (the caller sends
 *   `notifications/tools/list_changed` when the set changed).
 * - Keys a known client adds on its own (`wait_for_previous`, `client_keys.ts`) are dropped
 *   when the tool's schema does not declare them.
 * - A `write` tool runs only as the approval policy says (`approval.ts`: `--approve`,
 *   elicitation when asking).
 *
 * @module
 */

import { sourceName } from "../call/approval_rules.ts";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  Server,
} from "./_sdk.ts";
import {
  type ApprovalContext,
  approvalFor,
  approveWrite,
  DEFAULT_APPROVAL,
  type McpApproval,
} from "./write_policy.ts";
import { dropClientKeys } from "./client_keys.ts";
import { FairSlots } from "./_fair_slots.ts";
import { stopped } from "../tool/answers.ts";
import { PACKAGE_VERSION } from "../host/version.ts";
import { CLIENT_TOOLS_LIMITS } from "../protocol/limits.ts";
import type { ToolExecutor } from "../call/executor.ts";
import type { ToolProgress } from "../tool/external.ts";
import type { ToolRegistry } from "../toolset/registry.ts";
import {
  endApprovalSpan,
  incomingTraceparent,
  startApprovalSpan,
  TELEMETRY,
} from "../telemetry/mod.ts";

/** The JSON Schema dialect of module tools' input schemas. */
export const JSON_SCHEMA_2020_12 = "https://json-schema.org/draft/2020-12/schema";

/** What one MCP `tools/list` entry holds. */
export interface McpToolEntry {
  readonly name: string;
  readonly title?: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
  /** The tool's `output` schema (module tools that declare one). */
  readonly outputSchema?: Record<string, unknown>;
  /** The full set: the author's, the rest derived from `effect` (docs/tools.md). */
  readonly annotations: {
    readonly readOnlyHint: boolean;
    readonly destructiveHint: boolean;
    readonly idempotentHint: boolean;
    readonly openWorldHint: boolean;
  };
}

/** The `tools/list` entries of `registry`, in registration order. */
export function mcpToolList(registry: ToolRegistry): McpToolEntry[] {
  return registry.tools.map((entry) => ({
    name: entry.definition.name,
    ...(entry.title === undefined ? {} : { title: entry.title }),
    description: entry.definition.description,
    // A module's schema is zod's draft 2020-12 conversion: say so (MCP's default dialect is
    // 2020-12 too). An MCP server's own schema may be another draft: sent as it came.
    inputSchema: entry.source.kind === "module"
      ? { $schema: JSON_SCHEMA_2020_12, ...entry.definition.input_schema }
      : { ...entry.definition.input_schema },
    ...(entry.outputSchema === undefined
      ? {}
      : { outputSchema: { $schema: JSON_SCHEMA_2020_12, ...entry.outputSchema } }),
    annotations: { ...entry.annotations },
  }));
}

/** Progress routing from the executor to the MCP request that started the call. */
export class ProgressRoutes {
  readonly #routes = new Map<string, (progress: ToolProgress) => void>();

  /** Route progress of call `callId` to `send` until the returned function is called. */
  add(callId: string, send: (progress: ToolProgress) => void): () => void {
    this.#routes.set(callId, send);
    return () => this.#routes.delete(callId);
  }

  /** The executor's `onProgress`. */
  readonly deliver = (callId: string, _name: string, progress: ToolProgress): void => {
    this.#routes.get(callId)?.(progress);
  };
}

/** A tool set as served: the registry and what runs its calls. */
export interface ServedTools {
  /** The registered tools. */
  readonly registry: ToolRegistry;
  /** Runs the calls (shared by every session). */
  readonly executor: Pick<ToolExecutor, "execute">;
}

const listCache = new WeakMap<ToolRegistry, McpToolEntry[]>();

/** {@link mcpToolList}, computed once per registry. */
function cachedList(registry: ToolRegistry): McpToolEntry[] {
  let list = listCache.get(registry);
  if (list === undefined) {
    list = mcpToolList(registry);
    listCache.set(registry, list);
  }
  return list;
}

/** Options of {@link createMcpServer}. */
export interface McpServerOptions extends ServedTools {
  /**
   * The tool set of the moment, when it can change (`mcp --watch`; then `registry` and
   * `executor` are unused, and `tools.listChanged: true` is advertised).
   */
  readonly current?: () => ServedTools;
  /** Per-call deadline when the tool declares no `timeoutMs`, ms. */
  readonly callTimeoutMs: number;
  /** Where the executor's progress goes (its `onProgress` must be `routes.deliver`). */
  readonly routes: ProgressRoutes;
  /** What write tools do (default: ask through elicitation, {@link DEFAULT_APPROVAL}). */
  readonly approval?: McpApproval;
  /**
   * The call slots every session shares (default: this server's own, as many as the
   * executor's `concurrent_calls`, all of them open to its one client).
   */
  readonly slots?: FairSlots;
  /** Fires when every call of this server is to stop (stdio: stdin ended), like a cancel. */
  readonly stop?: AbortSignal;
}

let nextCall = 0;
/**
 * This process's call-ID prefix: `mcp-<8 hex>-<n>`, so calls of different `mcp` processes
 * (sessions, clients) are told apart in records and traces.
 */
const CALL_PREFIX = `mcp-${crypto.randomUUID().slice(0, 8)}`;

// The SDK's handler types reach this checker untyped: the fields used, named.
interface CallRequest {
  readonly params: {
    readonly name: string;
    readonly arguments?: Record<string, unknown>;
    readonly _meta?: { readonly progressToken?: string | number; readonly traceparent?: unknown };
  };
}
interface CallExtra {
  readonly signal: AbortSignal;
  readonly sessionId?: string;
  sendNotification(
    notification: { method: string; params: Record<string, unknown> },
  ): Promise<void>;
  sendRequest: ApprovalContext["sendRequest"];
}

/** An MCP server (not connected) serving `options.registry`'s tools through `options.executor`. */
export function createMcpServer(options: McpServerOptions): Server {
  const served = options.current ?? (() => options);
  const concurrent = CLIENT_TOOLS_LIMITS.concurrent_calls;
  const server = new Server(
    { name: "magi-tools", version: PACKAGE_VERSION },
    { capabilities: { tools: { listChanged: options.current !== undefined } } },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: cachedList(served().registry),
  }));
  const serving: Serving = {
    options,
    served,
    approval: options.approval ?? DEFAULT_APPROVAL,
    slots: options.slots ?? new FairSlots({ capacity: concurrent, perClient: concurrent }),
    server,
  };
  server.setRequestHandler(
    CallToolRequestSchema,
    (request: CallRequest, extra: CallExtra) => callTool(serving, request, extra),
  );
  return server;
}

/** What every `tools/call` of one server shares. */
interface Serving {
  readonly options: McpServerOptions;
  /** The tool set of the moment. */
  readonly served: () => ServedTools;
  readonly approval: McpApproval;
  readonly slots: FairSlots;
  readonly server: Server;
}

type Entry = NonNullable<ReturnType<ToolRegistry["get"]>>;
type CallResult = Awaited<ReturnType<ServedTools["executor"]["execute"]>>;
// The SDK's result type reaches this checker untyped: what a `tools/call` answers.
type McpCallResult = Record<string, unknown>;

/**
 * One `tools/call`: the tool of the moment, its approval when it writes, a call slot (waiting
 * counts against the deadline), the run, the result as MCP content.
 */
async function callTool(
  serving: Serving,
  request: CallRequest,
  extra: CallExtra,
): Promise<McpCallResult> {
  const { options, slots } = serving;
  const params = request.params;
  // One tool set for the whole call, even when a reload swaps it meanwhile.
  const { registry, executor } = serving.served();
  const entry = registry.get(params.name);
  if (entry === undefined) {
    throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${params.name}`);
  }
  const args = dropClientKeys(params.arguments ?? {}, entry.definition.input_schema);
  const deadlineMs = entry.definition.timeout_ms ?? options.callTimeoutMs;
  const signal = options.stop === undefined
    ? extra.signal
    : AbortSignal.any([extra.signal, options.stop]);
  // The caller's trace context (MCP `_meta.traceparent`), used only with telemetry on.
  const traceparent = TELEMETRY ? incomingTraceparent(params._meta?.traceparent) : undefined;
  if (entry.definition.effect === "write") {
    const call = { name: params.name, args, signal, deadlineMs, traceparent };
    const refused = await approveCall(serving, entry, call, extra);
    if (refused !== null) {
      return { isError: true, content: [{ type: "text", text: refused.text }] };
    }
  }
  const callId = `${CALL_PREFIX}-${++nextCall}`;
  const progress = sendProgress(options.routes, callId, params._meta?.progressToken, extra);
  // Waiting for a slot counts against the call's deadline, as in the executor's own line.
  const waitStart = performance.now();
  const release = await slots.acquire(
    extra.sessionId ?? "stdio",
    AbortSignal.any([signal, AbortSignal.timeout(deadlineMs)]),
  );
  const waited = Math.round(performance.now() - waitStart);
  if (release === null && !signal.aborted) {
    progress.unroute();
    const text = stopped({ kind: "deadline", ms: deadlineMs }, null, 0).text;
    return { isError: true, content: [{ type: "text", text }] };
  }
  try {
    const result = await executor.execute({
      callId,
      name: entry.definition.name,
      toolId: entry.toolId,
      arguments: args,
      // Without a slot (cancelled while waiting) the executor answers `cancelled` at once.
      deadlineMs: Math.max(0, deadlineMs - waited),
      sessionId: extra.sessionId ?? "stdio",
      runId: "mcp",
      ...(traceparent === undefined ? {} : { traceparent }),
      ...(TELEMETRY && entry.definition.effect === "write" ? { approval: "allow" } : {}),
    }, signal);
    progress.unroute();
    await Promise.all(progress.sent);
    return mcpResult(result);
  } finally {
    release?.();
    progress.unroute();
  }
}

/** A write call's approval as the policy says (inside an approval span with telemetry on). */
async function approveCall(
  serving: Serving,
  entry: Entry,
  call: {
    readonly name: string;
    readonly args: Record<string, unknown>;
    readonly signal: AbortSignal;
    readonly deadlineMs: number;
    readonly traceparent: ReturnType<typeof incomingTraceparent> | undefined;
  },
  extra: CallExtra,
): Promise<Awaited<ReturnType<typeof approveWrite>>> {
  const { name, args, signal, deadlineMs } = call;
  const schema = entry.definition.input_schema;
  const span = TELEMETRY ? startApprovalSpan(call.traceparent, name) : undefined;
  let refused: Awaited<ReturnType<typeof approveWrite>> | undefined;
  try {
    const own = approvalFor(serving.approval, name, sourceName(entry.source));
    refused = await approveWrite(own, { name, args, schema }, {
      capabilities: serving.server.getClientCapabilities(),
      sendRequest: extra.sendRequest,
      signal,
      deadlineMs,
    });
  } finally {
    if (span !== undefined) endApprovalSpan(span, refused);
  }
  return refused;
}

/**
 * Route call `callId`'s progress to the caller as `notifications/progress` when it sent a
 * `progressToken`: the notifications sent (awaited before the result), and the undo.
 */
function sendProgress(
  routes: ProgressRoutes,
  callId: string,
  token: string | number | undefined,
  extra: CallExtra,
): { readonly sent: Promise<void>[]; readonly unroute: () => void } {
  const sent: Promise<void>[] = [];
  const unroute = token === undefined ? () => {} : routes.add(callId, (progress) => {
    sent.push(
      extra.sendNotification({
        method: "notifications/progress",
        params: { progressToken: token, ...progress },
      }).catch(() => {}),
    );
  });
  return { sent, unroute };
}

/** The executor's result as a `tools/call` result. */
function mcpResult(result: CallResult): McpCallResult {
  if (result.outcome !== "success") {
    return { isError: true, content: [{ type: "text", text: result.text }] };
  }
  if (result.content !== undefined) {
    // A rich result: its parts as MCP content (images and audio as they are).
    return { content: result.content.map((part) => ({ ...part })) };
  }
  // A cut or spilled result is not the tool's value: no structuredContent.
  const structured = result.overflow === undefined ? jsonObject(result.text) : null;
  return {
    content: [{ type: "text", text: result.text }],
    ...(structured === null ? {} : { structuredContent: structured }),
    ...(result.overflow === undefined
      ? {}
      : { _meta: { "magi-tools/overflow": { ...result.overflow } } }),
  };
}

function jsonObject(text: string): Record<string, unknown> | null {
  if (!text.startsWith("{")) return null;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? value as Record<string, unknown>
      : null;
  } catch {
    return null;
  }
}
