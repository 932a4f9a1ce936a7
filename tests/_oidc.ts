/**
 * A real OAuth 2 / OpenID Connect authorization server for the OAuth tests: npm `oidc-provider`
 * (pinned in dev/oauth/package.json + package-lock.json), installed on first use into
 * `.tools/oauth/` (git-ignored) and run by node (dev/oauth/oidc_server.mjs) on a loopback port
 * with throwaway clients. When it cannot be installed or run, {@link oidcUnavailable} says why and
 * the tests are ignored with that reason (loudly, on stderr): never a silent pass.
 *
 * @module
 */

import { withInstallLock } from "./_kit/install_lock.ts";
import { root as ROOT } from "./_kit/root.ts";
const SOURCE = `${ROOT}dev/oauth/`;
const INSTALL_DIR = `${ROOT}.tools/oauth/`;
const STAMP = `${INSTALL_DIR}installed-lock.json`;

/** oidc-provider client metadata (snake_case, as its docs have it). */
export type ClientMetadata = Record<string, unknown>;

/** How to start the server. */
export interface OidcOptions {
  /** Registered clients. */
  readonly clients: readonly ClientMetadata[];
  /** Access token lifetime, seconds (default 3600). */
  readonly accessTokenTTL?: number;
  /** Resource indicators it issues tokens for, each with the scope granted. */
  readonly resources: Readonly<Record<string, string>>;
  /** The scope granted for any other resource (default: none is issued). */
  readonly anyResourceScope?: string;
}

/** One line the server printed. */
export interface OidcEvent {
  readonly event: string;
  readonly [key: string]: unknown;
}

/** A running server. */
export interface OidcServer {
  /** Its issuer URL (`http://127.0.0.1:<port>`). */
  readonly issuer: string;
  /** Its token endpoint. */
  readonly tokenUrl: string;
  /** Everything it printed so far, in order. */
  readonly events: OidcEvent[];
  /** The token requests so far. */
  tokenRequests(): OidcEvent[];
  /** Stop it and wait for its exit. */
  close(): Promise<void>;
}

let installed: Promise<string | null> | undefined;

/** Null when oidc-provider is installed and node can run it; else why not (install once). */
export function oidcUnavailable(): Promise<string | null> {
  installed ??= withInstallLock(INSTALL_DIR, install);
  return installed;
}

async function install(): Promise<string | null> {
  let node: string;
  try {
    const out = await new Deno.Command("node", { args: ["--version"], stdout: "piped" }).output();
    node = new TextDecoder().decode(out.stdout).trim();
  } catch {
    return "node is not on PATH (oidc-provider runs under node)";
  }
  if (Number(/^v(\d+)/.exec(node)?.[1] ?? "0") < 20) return `node ${node} is older than 20`;
  const lock = await Deno.readTextFile(`${SOURCE}package-lock.json`);
  await Deno.mkdir(INSTALL_DIR, { recursive: true });
  for (const script of ["oidc_server.mjs", "mcp_server.mjs"]) {
    // Rewritten only when changed: another test module may be starting it right now.
    const text = await Deno.readTextFile(`${SOURCE}${script}`);
    const current = await Deno.readTextFile(`${INSTALL_DIR}${script}`).catch(() => null);
    if (current !== text) {
      const temp = `${INSTALL_DIR}${script}.${crypto.randomUUID()}`;
      await Deno.writeTextFile(temp, text);
      await Deno.rename(temp, `${INSTALL_DIR}${script}`); // Whole or not at all to a reader.
    }
  }
  if (await Deno.readTextFile(STAMP).catch(() => null) === lock) return null;
  await Deno.copyFile(`${SOURCE}package.json`, `${INSTALL_DIR}package.json`);
  await Deno.writeTextFile(`${INSTALL_DIR}package-lock.json`, lock);
  console.error(`tests/_oidc.ts: installing oidc-provider into ${INSTALL_DIR} (npm ci)`);
  try {
    const { code } = await new Deno.Command("npm", {
      args: ["ci", "--no-audit", "--no-fund", "--loglevel=error"],
      cwd: INSTALL_DIR,
      stdin: "null",
      stdout: "inherit",
      stderr: "inherit",
    }).output();
    if (code !== 0) return `npm ci in ${INSTALL_DIR} exited with code ${code}`;
  } catch (error) {
    return `npm could not run: ${error instanceof Error ? error.message : String(error)}`;
  }
  await Deno.writeTextFile(STAMP, lock);
  return null;
}

/** A node script of dev/oauth/ running, with what it printed. */
interface Running {
  readonly listening: OidcEvent;
  readonly events: OidcEvent[];
  close(): Promise<void>;
}

/** Run `script` (installed by {@link oidcUnavailable}) and wait for its `listening` line. */
async function runScript(script: string, options: unknown): Promise<Running> {
  const child = new Deno.Command("node", {
    args: [`${INSTALL_DIR}${script}`, JSON.stringify(options)],
    cwd: INSTALL_DIR,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stderr = new Response(child.stderr).text();
  const events: OidcEvent[] = [];
  const reader = lineReader(child.stdout);
  let listening: OidcEvent | undefined;
  while (listening === undefined) {
    const line = await reader.read();
    if (line.done) {
      await child.status;
      throw new Error(`${script} did not start:\n${await stderr}`);
    }
    if (line.value.startsWith("{")) listening = JSON.parse(line.value) as OidcEvent;
  }
  const pump = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      // oidc-provider's own notices go to stdout too.
      events.push(
        value.startsWith("{") ? JSON.parse(value) as OidcEvent : { event: "log", text: value },
      );
    }
  })();
  return {
    listening,
    events,
    async close() {
      await child.stdin.close().catch(() => {});
      await child.status;
      await pump;
      await stderr;
    },
  };
}

/** Start the authorization server (after {@link oidcUnavailable} said null). */
export async function startOidc(options: OidcOptions): Promise<OidcServer> {
  const running = await runScript("oidc_server.mjs", options);
  const issuer = String(running.listening["issuer"]);
  return {
    issuer,
    tokenUrl: `${issuer}/token`,
    events: running.events,
    tokenRequests: () => running.events.filter((event) => event.event === "token"),
    close: () => running.close(),
  };
}

/** A running OAuth-protected MCP server (dev/oauth/mcp_server.mjs). */
export interface ProtectedMcpServer {
  /** Its Streamable HTTP endpoint (also the resource its tokens must be for). */
  readonly url: string;
  /** The HTTP status of each request it answered, in order. */
  statuses(): number[];
  close(): Promise<void>;
}

/**
 * Start the MCP server (official SDK, Streamable HTTP, `requireBearerAuth`) whose tokens are
 * introspected at `oidc` as the client `id`:`secret`, and must be for its own URL. Its `whoami`
 * with `note: "hook"` POSTs to `hook` and answers only after the hook did.
 */
export async function startProtectedMcp(
  oidc: OidcServer,
  id: string,
  secret: string,
  hook?: string,
): Promise<ProtectedMcpServer> {
  const running = await runScript("mcp_server.mjs", {
    issuer: oidc.issuer,
    introspectionClient: [id, secret],
    ...(hook === undefined ? {} : { hook }),
  });
  return {
    url: String(running.listening["url"]),
    statuses: () =>
      running.events.filter((event) => event.event === "call").map((event) =>
        Number(event["status"])
      ),
    close: () => running.close(),
  };
}

/**
 * Ask `server`'s introspection endpoint about `token` as the client `id`:`secret` (the API's
 * own credentials): the answer's `active`, `aud`, `client_id`, `scope`.
 */
export async function introspect(
  server: OidcServer,
  token: string,
  id: string,
  secret: string,
): Promise<Record<string, unknown>> {
  const response = await fetch(`${server.issuer}/token/introspection`, {
    method: "POST",
    headers: {
      authorization: `Basic ${btoa(`${id}:${secret}`)}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({ token }).toString(),
  });
  return await response.json() as Record<string, unknown>;
}

/** The lines of `stream`, one per read. */
function lineReader(stream: ReadableStream<Uint8Array>) {
  const chunks = stream.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  return {
    async read(): Promise<{ done: true; value?: undefined } | { done: false; value: string }> {
      for (;;) {
        const lf = buffer.indexOf("\n");
        if (lf >= 0) {
          const value = buffer.slice(0, lf);
          buffer = buffer.slice(lf + 1);
          return { done: false, value };
        }
        const { done, value } = await chunks.read();
        if (done) return { done: true };
        buffer += value;
      }
    },
  };
}
