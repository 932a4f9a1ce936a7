/**
 * One mapped OpenAPI operation as a callable tool (internal to `source.ts`):
 * validate the arguments (`invalid_arguments`), build the request under the
 * base URL, run the exchange in the API's sandboxed child (once more with a new
 * access token after a `401` under client credentials), and answer the body or
 * an {@link ExternalToolError}, with the API's secret redacted from every text.
 *
 * @module
 */

import {
  defineExternalTool,
  type ExternalTool,
  type ExternalToolContext,
  ExternalToolError,
} from "../tool/external.ts";
import { bearer, headerAuth } from "./auth.ts";
import type { OpenApiConfig } from "./config.ts";
import type { HttpExchange } from "./http.ts";
import type { ClientCredentialsTokens } from "./oauth.ts";
import type { OperationPlan } from "./operations.ts";
import { SecretRedactor } from "./redact.ts";
import { buildRequest, type HttpRequestSpec } from "./request.ts";
import type { ExchangeSandbox, ExchangeTransport } from "./transport.ts";

/** What a tool of one API shares with the API's other tools, and its validator. */
export interface ToolWiring {
  readonly base: URL;
  readonly sandbox: ExchangeSandbox;
  readonly transport: ExchangeTransport;
  readonly validate: (args: unknown) => string | null;
  readonly maxBytes: number;
  /** With client credentials: the API's access tokens. */
  readonly tokens: ClientCredentialsTokens | undefined;
}

/** The tool of operation `plan` of `api`. */
export function makeTool(
  api: OpenApiConfig,
  plan: OperationPlan,
  wiring: ToolWiring,
): ExternalTool {
  const { base, sandbox, transport, validate, maxBytes, tokens } = wiring;
  /**
   * One exchange in the sandbox. The child redacts already; the host does again, over every
   * text that reaches the model or the summaries, the sandbox's own failure messages included.
   */
  const exchangeOnce = async (
    request: HttpRequestSpec,
    auth: HttpExchange["auth"],
    ctx: ExternalToolContext,
  ) => {
    const left = Math.max(1, Math.floor(Math.min(api.timeoutMs, ctx.deadline - Date.now())));
    const exchange: HttpExchange = {
      ...request,
      baseUrl: base.href,
      timeoutMs: left,
      maxBytes,
      ...(auth === undefined ? {} : { auth }),
    };
    const redactor = new SecretRedactor(auth?.secret);
    try {
      return await transport.exchange(sandbox, exchange, ctx);
    } catch (error) {
      if (error instanceof ExternalToolError) {
        throw new ExternalToolError(error.code, redactor.redact(error.message));
      }
      if (error instanceof Error && !ctx.signal.aborted) {
        error.message = redactor.redact(error.message);
        if (error.stack !== undefined) error.stack = redactor.redact(error.stack);
      }
      throw error;
    }
  };
  return defineExternalTool({
    name: plan.name,
    description: plan.description,
    inputSchema: plan.inputSchema,
    effect: plan.effect,
    timeoutMs: api.timeoutMs,
    ...(api.maxResultBytes === undefined ? {} : { maxResultBytes: api.maxResultBytes }),
    ...(api.overflow === undefined ? {} : { overflow: api.overflow }),
    source: { kind: "openapi", name: api.name },
    validate,
    async run(args, ctx) {
      const invalid = validate(args);
      if (invalid !== null) {
        throw new ExternalToolError("invalid_arguments", `Invalid arguments: ${invalid}`);
      }
      const request = buildRequest(plan, args, base);
      let auth = tokens === undefined ? headerAuth(api) : await bearer(tokens);
      let outcome = await exchangeOnce(request, auth, ctx);
      if (tokens !== undefined && !outcome.ok && outcome.code === "http_401") {
        // The token expired early or was revoked: one more try with a new one.
        tokens.invalidate(auth!.secret);
        auth = await bearer(tokens);
        outcome = await exchangeOnce(request, auth, ctx);
      }
      const redactor = new SecretRedactor(auth?.secret);
      if (!outcome.ok) {
        throw new ExternalToolError(outcome.code, redactor.redact(outcome.message));
      }
      return redactor.redact(outcome.text);
    },
  });
}
