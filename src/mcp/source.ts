/**
 * One `mcpServers` entry as a tool source: connect with the SDK `Client`
 * (stdio: a child process in its own process group; `url`: Streamable HTTP),
 * list its tools, and turn each kept one into an {@link ExternalTool}.
 *
 * - Names: `<prefix><tool>` made to fit the host grammar (`names.ts`); two
 *   tools of one server mapping to one name fail naming both.
 * - Effect: the config's `effects` entry, else `read` only when the server
 *   annotates `readOnlyHint: true`, else `write` (approval by default).
 * - Arguments are checked against the tool's `inputSchema` (the SDK's Ajv
 *   validator) before anything reaches the server.
 * - A call runs with the executor's signal (cancel, deadline, shutdown →
 *   the SDK sends `notifications/cancelled`) and a timeout at the call's
 *   deadline; progress notifications become `ctx.progress`.
 * - A server that exits mid-run: its calls answer `tool_unavailable` from
 *   then on (no restart), and `onExit` is called once.
 * - `notifications/tools/list_changed` from the server: its tools are listed again and
 *   `onToolsChanged` is called (a front door that reloads, `mcp --watch`, rebuilds its
 *   registry); a new list that cannot be used keeps the old tools (`onListFailed`).
 *
 * @module
 */

import { HostError } from "../errors/mod.ts";
import {
  AjvJsonSchemaValidator,
  Client,
  ErrorCode,
  McpError,
  StreamableHTTPClientTransport,
  type Tool as McpTool,
  ToolListChangedNotificationSchema,
  UnauthorizedError,
} from "./_sdk.ts";
import type { McpSource, McpSourceOptions } from "../tool/source.ts";
import type { McpServerConfig } from "../config/mod.ts";
import {
  defineExternalTool,
  type ExternalTool,
  type ExternalToolContext,
  ExternalToolError,
  SIGN_IN_REQUIRED,
  signInRequiredMessage,
} from "../tool/external.ts";
import { PACKAGE_VERSION } from "../host/version.ts";
import { hostToolName, selected, TOOL_NAME } from "./names.ts";
import { clientCredentialsFetch } from "./client_credentials.ts";
import { signedInProvider, SignInRequiredError, type StoredOAuthProvider } from "./oauth_login.ts";
import { type McpCallResult, resultText, richResultOf } from "./results.ts";
import type { RichResult } from "../tool/content.ts";
import { ChildStdioTransport } from "./stdio_transport.ts";
import { argumentReason, exitText, startFailure } from "./_source_texts.ts";
import { endMcpSpan, startMcpSpan, TELEMETRY } from "../telemetry/mod.ts";

/**
 * A server could not start or list its tools; the message names it and why. A `HostError`
 * with the code `source_start`.
 */
export class McpSourceError extends HostError<"source_start"> {
  /** The `mcpServers` key. */
  readonly server: string;
  /** Whether the server needs `magi-tools login NAME` (the message says so). */
  readonly signIn: boolean;
  /** Message as given. */
  constructor(server: string, message: string, signIn = false) {
    super("source_start", message);
    this.name = "McpSourceError";
    this.server = server;
    this.signIn = signIn;
  }
}

export type { McpSource, McpSourceOptions } from "../tool/source.ts";

const DEFAULT_START_TIMEOUT_MS = 60_000;

/**
 * Start `config`'s server and list its tools.
 *
 * @throws {McpSourceError} naming the server and the reason (with its stderr tail).
 */
export async function startMcpSource(
  config: McpServerConfig,
  options: McpSourceOptions,
): Promise<McpSource> {
  let authProvider: StoredOAuthProvider | undefined;
  try {
    authProvider = await signedInProvider(config);
  } catch (error) {
    if (error instanceof SignInRequiredError) {
      throw new McpSourceError(config.name, error.message, true);
    }
    throw error;
  }
  const transport = config.transport.kind === "stdio"
    ? new ChildStdioTransport({
      command: config.transport.command,
      args: config.transport.args,
      env: config.transport.env,
      cwd: config.transport.cwd ?? options.cwd,
    })
    : new StreamableHTTPClientTransport(new URL(config.transport.url), {
      requestInit: { headers: { ...config.transport.headers } },
      ...(config.transport.clientCredentials === undefined
        ? {}
        : { fetch: clientCredentialsFetch(config.transport.clientCredentials) }),
      ...(authProvider === undefined ? {} : { authProvider }),
    });
  const client = new Client(
    { name: "magi-tools", version: PACKAGE_VERSION },
    { capabilities: {}, jsonSchemaValidator: new AjvJsonSchemaValidator() },
  );
  const state = { dead: null as string | null, closing: false };
  const timeout = options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS;
  const requestOptions = {
    timeout,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  };
  let listed: McpTool[];
  try {
    await client.connect(transport, requestOptions);
    listed = await listAll(client, requestOptions);
  } catch (error) {
    state.closing = true;
    await client.close().catch(() => {});
    if (error instanceof SignInRequiredError || error instanceof UnauthorizedError) {
      // The server refused the stored sign-in (revoked, or another account's).
      const reason = error instanceof SignInRequiredError
        ? error.message
        : new SignInRequiredError(config.name, "the server refused the token").message;
      throw new McpSourceError(config.name, reason, true);
    }
    throw new McpSourceError(config.name, startFailure(config, transport, error));
  }
  client.onclose = () => {
    if (state.closing) return;
    state.dead = exitText(config.name, transport);
    options.onExit?.(config.name, state.dead);
  };
  let tools: ExternalTool[];
  try {
    tools = toolsOf(config, listed, client, state);
  } catch (error) {
    state.closing = true;
    await client.close().catch(() => {});
    throw error;
  }
  // One relisting at a time; a notification during one asks for one more after it.
  let relisting: Promise<void> = Promise.resolve();
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    relisting = relisting.then(async () => {
      if (state.closing || state.dead !== null) return;
      try {
        tools = toolsOf(config, await listAll(client, { timeout }), client, state);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        options.onListFailed?.(
          config.name,
          `MCP server ${config.name} changed its tools, and they cannot be used (the old ones stay): ${reason}`,
        );
        return;
      }
      options.onToolsChanged?.(config.name);
    });
  });
  return {
    name: config.name,
    get tools() {
      return tools;
    },
    close: async () => {
      state.closing = true;
      await client.close().catch(() => {});
      if (transport instanceof ChildStdioTransport) await transport.close().catch(() => {});
    },
  };
}

/** Every page of the server's `tools/list` (at most 10,000 tools). */
async function listAll(
  client: Client,
  options: { timeout: number; signal?: AbortSignal },
): Promise<McpTool[]> {
  const listed: McpTool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor === undefined ? {} : { cursor }, options);
    listed.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined && listed.length < 10_000);
  return listed;
}

function toolsOf(
  config: McpServerConfig,
  listed: readonly McpTool[],
  client: Client,
  state: { dead: string | null },
): ExternalTool[] {
  const names = new Set(listed.map((tool) => tool.name));
  for (
    const [key, what] of [["effects", config.effects], [
      "descriptions",
      config.descriptions,
    ]] as const
  ) {
    for (const tool of Object.keys(what)) {
      if (!names.has(tool)) {
        throw new McpSourceError(
          config.name,
          `mcpServers.${config.name}.${key}.${tool}: MCP server ${config.name} has no tool ${tool} (it has: ${
            [...names].join(", ")
          })`,
        );
      }
    }
  }
  const validator = new AjvJsonSchemaValidator();
  const byHostName = new Map<string, string>();
  const tools: ExternalTool[] = [];
  for (const tool of listed) {
    if (!selected(tool.name, config.include, config.exclude)) continue;
    const name = hostToolName(config.prefix, tool.name);
    const earlier = byHostName.get(name);
    if (earlier !== undefined || !TOOL_NAME.test(name)) {
      throw new McpSourceError(
        config.name,
        earlier === undefined
          ? `MCP server ${config.name}: tool ${tool.name} has no usable name: ${name}`
          : `MCP server ${config.name}: tools ${earlier} and ${tool.name} both map to the name ${name}; exclude one, or set "prefix"`,
      );
    }
    byHostName.set(name, tool.name);
    const inputSchema: Record<string, unknown> = { ...tool.inputSchema };
    delete inputSchema["$schema"];
    let check: (args: unknown) => string | null;
    try {
      const validate = validator.getValidator(inputSchema as never);
      check = (args) => {
        const verdict = validate(args);
        return verdict.valid ? null : argumentReason(verdict.errorMessage);
      };
    } catch (error) {
      throw new McpSourceError(
        config.name,
        `MCP server ${config.name}: tool ${tool.name} has an input schema that cannot be compiled: ${
          (error as Error).message
        }; exclude it in mcpServers.${config.name}.exclude`,
      );
    }
    const effect = config.effects[tool.name] ??
      (tool.annotations?.readOnlyHint === true ? "read" : "write");
    const description = config.descriptions[tool.name] ?? tool.description ?? tool.title ??
      `${tool.name} (MCP server ${config.name})`;
    const serverTool = tool.name;
    tools.push(defineExternalTool({
      name,
      description: description.trim() === ""
        ? `${tool.name} (MCP server ${config.name})`
        : description,
      inputSchema,
      effect,
      ...(config.timeoutMs === undefined ? {} : { timeoutMs: config.timeoutMs }),
      ...(config.maxResultBytes === undefined ? {} : { maxResultBytes: config.maxResultBytes }),
      ...(config.overflow === undefined ? {} : { overflow: config.overflow }),
      source: { kind: "mcp", name: config.name },
      validate: check,
      run: (args, ctx) =>
        TELEMETRY
          ? tracedCallTool(client, state, { server: config.name, tool: serverTool }, args, ctx)
          : callTool(client, state, { server: config.name, tool: serverTool }, args, ctx),
    }));
  }
  return tools;
}

/** {@link callTool} in a client span whose `traceparent` goes in the request's `_meta`. */
async function tracedCallTool(
  client: Client,
  state: { dead: string | null },
  which: { server: string; tool: string },
  args: Record<string, unknown>,
  ctx: ExternalToolContext,
): Promise<string | RichResult> {
  const span = startMcpSpan(which.server, which.tool, ctx.traceparent);
  let done = false;
  try {
    const text = await callTool(client, state, which, args, ctx, span?.traceparent);
    done = true;
    return text;
  } finally {
    if (span !== undefined) endMcpSpan(span, done);
  }
}

async function callTool(
  client: Client,
  state: { dead: string | null },
  which: { server: string; tool: string },
  args: Record<string, unknown>,
  ctx: ExternalToolContext,
  traceparent?: string,
): Promise<string | RichResult> {
  if (state.dead !== null) throw new ExternalToolError("tool_unavailable", state.dead);
  const remaining = Math.max(1, ctx.deadline - Date.now());
  const request = traceparent === undefined
    ? { name: which.tool, arguments: args }
    : { name: which.tool, arguments: args, _meta: { traceparent } };
  let result: McpCallResult;
  try {
    result = await client.callTool(request, undefined, {
      signal: ctx.signal,
      timeout: remaining,
      maxTotalTimeout: remaining,
      resetTimeoutOnProgress: true,
      onprogress: (update: { progress: number; total?: number; message?: string }) =>
        ctx.progress({
          progress: update.progress,
          ...(update.total === undefined ? {} : { total: update.total }),
          ...(update.message === undefined ? {} : { message: update.message }),
        }),
    }) as McpCallResult;
  } catch (error) {
    if (state.dead !== null) throw new ExternalToolError("tool_unavailable", state.dead);
    if (error instanceof SignInRequiredError || error instanceof UnauthorizedError) {
      // 401 mid-session and the refresh refused (tokens revoked since the start).
      throw new ExternalToolError(
        SIGN_IN_REQUIRED,
        error instanceof SignInRequiredError
          ? error.message
          : signInRequiredMessage(which.server, "the server refused the token"),
      );
    }
    if (error instanceof McpError) {
      // The SDK's error type reaches this checker untyped: name the fields used.
      const { code, message } = error as { code: number; message: string };
      if (code === ErrorCode.ConnectionClosed) {
        throw new ExternalToolError(
          "tool_unavailable",
          `MCP server ${which.server} closed the connection`,
        );
      }
      if (code === ErrorCode.RequestTimeout) {
        throw new ExternalToolError("timeout", `MCP server ${which.server} did not answer in time`);
      }
      if (code === ErrorCode.InvalidParams) {
        throw new ExternalToolError("invalid_arguments", message);
      }
    }
    throw error;
  }
  const text = resultText(result);
  if (result.isError === true) {
    throw new ExternalToolError(
      "tool_failed",
      text.trim() === "" ? `MCP tool ${which.tool} failed without a message` : text,
    );
  }
  // Images, audio and links pass through as a rich result.
  return richResultOf(result) ?? text;
}
