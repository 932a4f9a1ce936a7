/**
 * Test fixtures for the OpenAPI source: files of the pinned npm packages
 * that ship real OpenAPI documents (`@readme/oas-examples` 8.2.2: the Swagger
 * Petstore and other 3.0/3.1 examples; `@octokit/openapi` 23.0.2: GitHub's
 * REST description), a loopback HTTP server that records what it receives,
 * and a tool context.
 *
 * @module
 */

import { join } from "node:path";
import type { ExternalToolContext } from "../../src/tool/external.ts";

let npmCache: Promise<string> | undefined;

async function npmCacheDir(): Promise<string> {
  npmCache ??= (async () => {
    const out = await new Deno.Command(Deno.execPath(), { args: ["info", "--json"] }).output();
    return (JSON.parse(new TextDecoder().decode(out.stdout)) as { npmCache: string }).npmCache;
  })();
  return await npmCache;
}

/** Path of `file` in the Petstore package (downloaded on first use through the import map). */
export async function oasExample(file: string): Promise<string> {
  await import("@readme/oas-examples/package.json", { with: { type: "json" } });
  return await packageFile("@readme/oas-examples", "8.2.2", file);
}

/** Path of `file` in `@octokit/openapi` (downloaded on first use through the import map). */
export async function octokitFile(file: string): Promise<string> {
  await import("@octokit/openapi/package.json", { with: { type: "json" } });
  return await packageFile("@octokit/openapi", "23.0.2", file);
}

async function packageFile(name: string, version: string, file: string): Promise<string> {
  const path = join(await npmCacheDir(), "registry.npmjs.org", name, version, file);
  await Deno.stat(path); // a clear NotFound naming the path when the layout differs
  return path;
}

/** One request as the loopback server saw it. */
export interface SeenRequest {
  readonly method: string;
  readonly url: URL;
  readonly headers: Headers;
  readonly body: string;
}

/** A loopback server on 127.0.0.1 with a random port. */
export interface LoopbackServer {
  readonly url: URL;
  readonly port: number;
  readonly seen: SeenRequest[];
  close(): Promise<void>;
}

/**
 * Serve `handler` on 127.0.0.1; every request is recorded in `seen`. `signal()`
 * is the request's signal (fires when the client goes away; read it only
 * where needed: Deno warns about its legacy behaviour on first use).
 */
export function serve(
  handler: (request: SeenRequest, signal: () => AbortSignal) => Response | Promise<Response>,
): LoopbackServer {
  const seen: SeenRequest[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const entry = {
      method: req.method,
      url: new URL(req.url),
      headers: req.headers,
      body: await req.text(),
    };
    seen.push(entry);
    return await handler(entry, () => req.signal);
  });
  const port = server.addr.port;
  return {
    url: new URL(`http://127.0.0.1:${port}`),
    port,
    seen,
    close: () => server.shutdown(),
  };
}

/** A tool context for one call. */
export function context(signal: AbortSignal = new AbortController().signal): ExternalToolContext {
  return {
    progress: () => {},
    signal,
    callId: "call-1",
    sessionId: "session-1",
    runId: "run-1",
    deadline: Date.now() + 60_000,
    cwd: Deno.cwd(),
    attempt: 1,
  };
}

/** A JSON response. */
export function json(value: unknown, status = 200): Response {
  return new Response(JSON.stringify(value), {
    status,
    headers: { "content-type": "application/json" },
  });
}
