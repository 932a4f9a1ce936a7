/**
 * The inspector's sign-in button, server side: an HTTP MCP server of the
 * config (`oauth`) that needed a sign-in when the inspector started can be
 * signed in from the page (`POST /api/sign-in`), with the flow of
 * `magi-tools login` (`src/mcp/login_flow.ts`: loopback redirect listener,
 * authorization code + PKCE, tokens in the per-user store). Once the tokens
 * are stored the server is started like the others and its tools join the
 * tool set, without a restart.
 *
 * - Only the servers this object was built with (the loaded, trusted
 *   config's entries that needed a sign-in) can be signed in; any other name
 *   is refused ({@link SignInRefusal}, 404; 409 once signed in).
 * - One flow per server at a time: a second request while one waits for the
 *   browser gets the same authorization URL (no second listener). A failed
 *   flow (denied, wrong `state`, no answer within {@link LOGIN_TIMEOUT_MS},
 *   no authorization URL within {@link URL_TIMEOUT_MS}) leaves the reason in
 *   {@link SignIns.view} and may be started again.
 * - The authorization URL is the one the flow discovered (the server's own
 *   authorization server); only an `http:`/`https:` URL is handed out.
 * - Nothing of the tokens leaves `src/mcp/`: this module sees only the URL
 *   and the outcome.
 *
 * @module
 */

import { loadFeature, loadMcp, type McpSource } from "../sources/features.ts";
import type { McpServerConfig } from "../config/mod.ts";
import type { ExternalTool } from "../tool/external.ts";
import { LOGIN_TIMEOUT_MS, type McpLoginModule } from "../mcp/login_api.ts";
import { writeStderrLine } from "../runtime/mod.ts";

/** How long a sign-in may take to produce its authorization URL (discovery, registration), ms. */
export const URL_TIMEOUT_MS = 30_000;

/** One server that needs a sign-in, as the page shows it (`sign_ins` of the tool set view). */
export interface SignInView {
  /** The `mcpServers` key (its load error's `file` is `mcp:<server>`). */
  readonly server: string;
  /** `needed` (no flow yet), `pending` (waiting for the browser), `failed` (see `message`). */
  readonly state: "needed" | "pending" | "failed";
  /** Why the last flow failed, or null. */
  readonly message: string | null;
}

/** What `POST /api/sign-in` answers. */
export type SignInAnswer =
  | { readonly status: "pending"; readonly authorization_url: string }
  | { readonly status: "signed_in" };

/** A sign-in the request may not start: `status` 404 (no such server) or 409 (signed in). */
export class SignInRefusal extends Error {
  /** HTTP status. */
  readonly status: 404 | 409;
  /** `status` and the reason. */
  constructor(status: 404 | 409, message: string) {
    super(message);
    this.name = "SignInRefusal";
    this.status = status;
  }
}

/** Options of {@link SignIns}. */
export interface SignInsOptions {
  /** The config's HTTP servers with `oauth` that need a sign-in (left out at the start). */
  readonly servers: readonly McpServerConfig[];
  /** Working directory (as for the other sources). */
  readonly cwd: string;
  /** `--start-timeout`, ms (the server's start after the sign-in). */
  readonly startTimeoutMs?: number | undefined;
  /** A server signed in and started: add its tools (`mcp:<server>`) to the tool set. */
  readonly onSignedIn: (source: string, tools: readonly ExternalTool[]) => Promise<void>;
  /** {@link SignIns.view} changed. */
  readonly onChange: () => void;
}

interface Entry {
  readonly config: McpServerConfig;
  /** The server's URL and the scopes of its `oauth`. */
  readonly url: string;
  readonly scopes: readonly string[];
  state: SignInView["state"];
  message: string | null;
  /** The flow waiting for the browser: its answer and how to stop it. */
  flow: { readonly answer: Promise<SignInAnswer>; readonly stop: AbortController } | null;
}

/** The sign-ins the page can start, and the servers they started. */
export class SignIns {
  readonly #options: SignInsOptions;
  readonly #entries = new Map<string, Entry>();
  readonly #signedIn = new Set<string>();
  readonly #started: McpSource[] = [];
  readonly #running = new Set<Promise<void>>();
  /** Aborted by {@link SignIns.close}: stops a server's start after its sign-in. */
  readonly #closing = new AbortController();
  #closed = false;

  /** Sign-ins for `options.servers` (other entries are ignored: they need none). */
  constructor(options: SignInsOptions) {
    this.#options = options;
    for (const config of options.servers) {
      const { transport } = config;
      if (transport.kind !== "http" || transport.oauth === undefined) continue;
      this.#entries.set(config.name, {
        config,
        url: transport.url,
        scopes: transport.oauth.scopes,
        state: "needed",
        message: null,
        flow: null,
      });
    }
  }

  /** The servers that still need a sign-in, in config order. */
  view(): SignInView[] {
    return [...this.#entries.values()].map((entry) => ({
      server: entry.config.name,
      state: entry.state,
      message: entry.message,
    }));
  }

  /**
   * Start (or join) the sign-in to `server`: resolves with its authorization URL once the flow
   * has one (or `signed_in` when the store already had valid tokens).
   *
   * @throws {SignInRefusal} for a name that is not waiting for a sign-in.
   * @throws {Error} when the flow failed before it had a URL (discovery, registration).
   */
  start(server: string): Promise<SignInAnswer> {
    const entry = this.#closed ? undefined : this.#entries.get(server);
    if (entry === undefined) {
      if (this.#signedIn.has(server)) {
        return Promise.reject(new SignInRefusal(409, `Already signed in to ${server}`));
      }
      return Promise.reject(
        new SignInRefusal(404, `No MCP server of the config needs a sign-in: ${server}`),
      );
    }
    if (entry.flow !== null) return entry.flow.answer;
    return this.#begin(entry);
  }

  async #begin(entry: Entry): Promise<SignInAnswer> {
    const stop = new AbortController();
    let found: (url: string) => void = () => {};
    const url = new Promise<string>((resolve) => found = resolve);
    const urlTimer = setTimeout(
      () => stop.abort(new Error(`no authorization URL within ${URL_TIMEOUT_MS} ms`)),
      URL_TIMEOUT_MS,
    );
    const flow = this.#flow(entry, stop.signal, (href) => {
      clearTimeout(urlTimer);
      found(href);
    }).finally(() => clearTimeout(urlTimer));
    const answer = Promise.race([
      url.then((href): SignInAnswer => ({ status: "pending", authorization_url: href })),
      flow.then((): SignInAnswer => ({ status: "signed_in" })),
    ]);
    entry.flow = { answer, stop };
    entry.state = "pending";
    entry.message = null;
    this.#options.onChange();
    const done = flow.then(
      () => this.#connect(entry),
      (error) => this.#fail(entry, error),
    ).finally(() => this.#running.delete(done));
    this.#running.add(done);
    return await answer;
  }

  /** The flow of `login`, handing out the authorization URL only when it is http(s). */
  async #flow(entry: Entry, signal: AbortSignal, found: (href: string) => void): Promise<void> {
    const login = await loadFeature("mcp") as McpLoginModule;
    const storePath = login.signInStorePath();
    if (storePath === null) {
      throw new Error(
        "cannot find the sign-in store: the host may not read HOME or XDG_STATE_HOME",
      );
    }
    const { config } = entry;
    await login.signIn({
      server: config.name,
      serverUrl: entry.url,
      storePath,
      scopes: entry.scopes,
      timeoutMs: LOGIN_TIMEOUT_MS,
      signal,
      open: (url) => {
        if (url.protocol !== "https:" && url.protocol !== "http:") {
          throw new Error(`the authorization URL is not http(s): ${url.protocol}`);
        }
        writeStderrLine(`magi-tools: signing in to ${config.name} in the browser (inspector page)`);
        found(url.href);
      },
    });
  }

  /** The tokens are stored: start the server and hand its tools to the tool set. */
  async #connect(entry: Entry): Promise<void> {
    const name = entry.config.name;
    let source: McpSource;
    try {
      const { startMcpSource } = await loadMcp();
      source = await startMcpSource(entry.config, {
        cwd: this.#options.cwd,
        signal: this.#closing.signal,
        ...(this.#options.startTimeoutMs === undefined
          ? {}
          : { startTimeoutMs: this.#options.startTimeoutMs }),
        onExit: (_server, message) => writeStderrLine(`magi-tools: warning: ${message}`),
        onListFailed: (_server, message) => writeStderrLine(`magi-tools: ${message}`),
      });
    } catch (error) {
      this.#fail(entry, error);
      return;
    }
    if (this.#closed) {
      await source.close();
      return;
    }
    this.#started.push(source);
    this.#entries.delete(name);
    this.#signedIn.add(name);
    await this.#options.onSignedIn(`mcp:${name}`, source.tools);
    writeStderrLine(`magi-tools: signed in to ${name}; its tools are loaded`);
    this.#options.onChange();
  }

  #fail(entry: Entry, error: unknown): void {
    entry.flow = null;
    if (this.#closed) return;
    entry.state = "failed";
    entry.message = error instanceof Error ? error.message : String(error);
    writeStderrLine(`magi-tools: sign-in to ${entry.config.name} failed: ${entry.message}`);
    this.#options.onChange();
  }

  /** Stop every waiting flow (its listener closes) and every server started here. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#closing.abort();
    for (const entry of this.#entries.values()) {
      entry.flow?.stop.abort(new Error("the inspector stopped"));
    }
    await Promise.all([...this.#running]);
    await Promise.all(this.#started.splice(0).map((source) => source.close().catch(() => {})));
  }
}
