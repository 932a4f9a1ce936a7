/**
 * Where an OpenAPI call's HTTP exchange runs: in a sandboxed Deno child per
 * API, through the host's {@link ProcessRunner} (warm processes, cancel then
 * SIGKILL after a grace period, reaped on close), with `--allow-net` set to
 * exactly the base URL's `host:port` and no other permission. Where processes cannot be isolated (Node.js), the exchange runs
 * inline with the same rules.
 *
 * @module
 */

import type { ToolContext, ToolInfo } from "../tool/define.ts";
import { ExternalToolError } from "../tool/external.ts";
import { LogBuffer } from "../sandbox/log_buffer.ts";
import type { ProcessRunner } from "../sandbox/process_runner.ts";
import { currentDir, supportsProcessIsolation } from "../runtime/mod.ts";
import { type HttpExchange, type HttpOutcome, performExchange } from "./http.ts";
import { endHttpSpan, startHttpSpan, TELEMETRY } from "../telemetry/mod.ts";

/** The child module that performs one exchange. */
const HTTP_TOOL_URL = new URL("./_http_tool.ts", import.meta.url);

/** Grace after a cancel before the exchange's process is killed, ms. */
export const EXCHANGE_GRACE_MS = 1_000;

/** Bytes the child may answer with (the body, JSON-escaped, inside an envelope). */
const ENVELOPE_BYTES = 7 * 1_048_576;

/** One API's sandbox: its pool name and network grant. */
export interface ExchangeSandbox {
  /** Pool name in the runner (a tool name: `openapi_<api>`). */
  readonly name: string;
  /** `host:port` of the base URL. */
  readonly net: string;
}

/** The `host:port` of `url`, with the scheme's default port made explicit. */
export function hostPortOf(url: URL): string {
  const port = url.port !== "" ? url.port : url.protocol === "https:" ? "443" : "80";
  return `${url.hostname}:${port}`;
}

/** Options of {@link ExchangeTransport}. */
export interface ExchangeTransportOptions {
  /** Working directory of the child processes (default the host's). */
  readonly cwd?: string;
  /** The `deno` executable (default: the running one, `runtimeExecutable()`). */
  readonly denoPath?: string;
  /** Run exchanges inline even where processes can be isolated (default: isolate when possible). */
  readonly inline?: boolean;
}

/** Runs exchanges for the tools of one or more APIs. */
export class ExchangeTransport {
  readonly #options: ExchangeTransportOptions;
  #runner: Promise<ProcessRunner | null> | undefined;
  #closed = false;

  /** A transport; starts no process until the first call. */
  constructor(options: ExchangeTransportOptions = {}) {
    this.#options = options;
  }

  /** The tool info of `sandbox`'s child (what its runner checks the module against). */
  static toolInfo(sandbox: ExchangeSandbox): ToolInfo {
    return {
      name: sandbox.name,
      description: "One HTTP exchange of an OpenAPI tool (internal).",
      effect: "read",
      isolation: "process",
      permissions: { net: [sandbox.net] },
    };
  }

  /** The module URL of `sandbox`'s child: its settings travel in the query. */
  static moduleUrl(sandbox: ExchangeSandbox): string {
    const url = new URL(HTTP_TOOL_URL);
    url.searchParams.set("name", sandbox.name);
    url.searchParams.set("net", sandbox.net);
    return url.href;
  }

  /**
   * Run one exchange for `ctx`'s call. Resolves to the outcome; rejects with
   * the signal's reason when `ctx.signal` aborts, or an {@link ExternalToolError}
   * when the child fails.
   */
  async exchange(
    sandbox: ExchangeSandbox,
    exchange: HttpExchange,
    ctx: Omit<ToolContext, "progress">,
  ): Promise<HttpOutcome> {
    // Telemetry on: a client span, its `traceparent` sent as a header (src/telemetry).
    const span = TELEMETRY ? startHttpSpan(exchange, ctx.traceparent) : undefined;
    if (span === undefined) return await this.#exchange(sandbox, exchange, ctx);
    const traced = {
      ...exchange,
      headers: [
        ...exchange.headers.filter(([name]) => !/^traceparent$/i.test(name)),
        [
          "traceparent",
          span.traceparent,
        ] as const,
      ],
    };
    let outcome: HttpOutcome | undefined;
    try {
      outcome = await this.#exchange(sandbox, traced, ctx);
      return outcome;
    } finally {
      endHttpSpan(span, outcome);
    }
  }

  async #exchange(
    sandbox: ExchangeSandbox,
    exchange: HttpExchange,
    ctx: Omit<ToolContext, "progress">,
  ): Promise<HttpOutcome> {
    const runner = await this.#processRunner();
    if (runner === null) {
      return await performExchange(exchange, ctx.signal);
    }
    const outcome = await runner.run({
      tool: ExchangeTransport.toolInfo(sandbox),
      file: ExchangeTransport.moduleUrl(sandbox),
      message: {
        args: exchange,
        callId: ctx.callId,
        sessionId: ctx.sessionId,
        runId: ctx.runId,
        deadline: ctx.deadline,
        cwd: ctx.cwd,
        resultBytes: ENVELOPE_BYTES,
      },
      signal: ctx.signal,
      graceMs: EXCHANGE_GRACE_MS,
      log: new LogBuffer(),
    });
    if (ctx.signal.aborted) throw ctx.signal.reason;
    switch (outcome.kind) {
      case "value":
        return JSON.parse(outcome.text) as HttpOutcome;
      case "too_large":
        throw new ExternalToolError("result_too_large", "The response is too large");
      case "crashed":
        throw new ExternalToolError("tool_crashed", `HTTP sandbox: ${outcome.message}`);
      case "killed":
        throw new ExternalToolError("tool_crashed", "HTTP sandbox: killed after the grace period");
      case "invalid":
      case "invalid_output":
        throw new ExternalToolError("tool_failed", `HTTP sandbox: ${outcome.text}`);
      case "content":
        throw new ExternalToolError("tool_failed", "HTTP sandbox: an unexpected answer");
      case "thrown":
        throw new ExternalToolError("tool_failed", `HTTP sandbox: ${outcome.message}`);
    }
  }

  /** Stop and reap every child process. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
    const runner = await this.#runner;
    await runner?.close();
  }

  #processRunner(): Promise<ProcessRunner | null> {
    if (this.#closed) {
      return Promise.reject(new ExternalToolError("tool_failed", "The tool host is shutting down"));
    }
    if (this.#runner === undefined) {
      const { cwd, denoPath, inline } = this.#options;
      this.#runner = inline === true || !supportsProcessIsolation()
        ? Promise.resolve(null)
        : import("../sandbox/process_runner.ts").then(({ ProcessRunner }) =>
          new ProcessRunner({
            cwd: cwd ?? currentDir(),
            ...(denoPath === undefined ? {} : { denoPath }),
          })
        );
    }
    return this.#runner;
  }
}
