/**
 * The sandboxed side of an OpenAPI call (internal): a tool module that the
 * process runner starts as `deno run --allow-net=<host:port>
 * --preload=<this file>?name=…&net=…`, one warm pool per API. Its
 * permissions come from its own URL, and the runner checks them against the
 * host's copy (the sandbox fingerprint) before any call, so the process can
 * reach exactly the base URL's host and port, nothing else (no file, no
 * environment: the auth value comes with each call over the private channel).
 *
 * @module
 */

import { z } from "zod";
import { defineTool } from "../tool/define.ts";
import { performExchange } from "./http.ts";

const params = new URL(import.meta.url).searchParams;

const ExchangeSchema = z.strictObject({
  method: z.string(),
  url: z.string(),
  headers: z.array(z.tuple([z.string(), z.string()])),
  body: z.string().optional(),
  baseUrl: z.string(),
  timeoutMs: z.int().positive(),
  maxBytes: z.int().positive(),
  auth: z.strictObject({ header: z.string(), value: z.string(), secret: z.string() }).optional(),
});

/** The HTTP exchange tool of one API (answers an `HttpOutcome` as JSON text). */
export default defineTool({
  name: params.get("name") ?? "openapi_http",
  description: "One HTTP exchange of an OpenAPI tool (internal).",
  input: ExchangeSchema,
  effect: "read",
  permissions: { net: [params.get("net") ?? "127.0.0.1:1"] },
  async run(exchange, ctx) {
    const { body, auth, ...rest } = exchange;
    const outcome = await performExchange(
      {
        ...rest,
        ...(body === undefined ? {} : { body }),
        ...(auth === undefined ? {} : { auth }),
      },
      ctx.signal,
    );
    return JSON.stringify(outcome);
  },
});
