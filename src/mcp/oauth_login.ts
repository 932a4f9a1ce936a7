/**
 * Interactive sign-in to an HTTP MCP server (`oauth` of an `mcpServers`
 * entry): the MCP SDK's client auth (`auth()`: protected resource metadata,
 * authorization server metadata, dynamic client registration, authorization
 * code + PKCE, resource indicator, refresh) with an {@link OAuthClientProvider}
 * that keeps each server's client registration and tokens in the user's
 * sign-in store, `oauth-sessions.json` in `userDir("state")` — never in a
 * project, directory `0700`, file `0600`, written through a temporary file
 * and a rename — keyed by the server's URL.
 *
 * `magi-tools login NAME` runs the browser part (`commands/login.ts`); a
 * source start only sends the stored token, refreshing it first when fewer
 * than {@link REFRESH_MARGIN_MS} are left. Where a sign-in would be needed
 * (no tokens, refresh refused), {@link SignInRequiredError} says to run
 * `login NAME`: a tool host never opens a browser by itself.
 *
 * @module
 */

import { chmod, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { userDir } from "../runtime/mod.ts";
import type { McpServerConfig } from "../config/mod.ts";
import { signInRequiredMessage } from "../tool/external.ts";
import { auth } from "./_sdk.ts";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthTokens,
} from "./_sdk.ts";

/** File name of the sign-in store inside `userDir("state")`. */
export const SIGN_IN_STORE_FILE = "oauth-sessions.json";

/** A stored token with fewer ms than this left is refreshed before a source starts. */
export const REFRESH_MARGIN_MS = 60_000;

/** One server's sign-in. */
interface StoredSignIn {
  /** The client registration (dynamic registration's answer). */
  client?: OAuthClientInformationMixed;
  /** The tokens (access, refresh). */
  tokens?: OAuthTokens;
  /** When the access token expires, ms since the epoch (absent: unknown). */
  expiresAt?: number | undefined;
}

/** A start or call that needs `magi-tools login NAME` first. */
export class SignInRequiredError extends Error {
  /** `server`: the `mcpServers` key; `reason`: why (no sign-in yet, refresh refused…). */
  constructor(server: string, reason: string) {
    super(signInRequiredMessage(server, reason));
    this.name = "SignInRequiredError";
  }
}

/** The sign-in store file, or null when the per-user state directory cannot be known. */
export function signInStorePath(): string | null {
  const dir = userDir("state");
  return dir === null ? null : join(dir, SIGN_IN_STORE_FILE);
}

async function readStore(file: string): Promise<Record<string, StoredSignIn>> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as { code?: unknown }).code === "ENOENT") return {};
    throw error;
  }
  const value: unknown = JSON.parse(text);
  const servers = typeof value === "object" && value !== null
    ? (value as Record<string, unknown>)["servers"]
    : undefined;
  if (typeof servers !== "object" || servers === null || Array.isArray(servers)) {
    throw new Error(`not a sign-in store: ${file}`);
  }
  return servers as Record<string, StoredSignIn>;
}

async function writeStore(file: string, servers: Record<string, StoredSignIn>): Promise<void> {
  const dir = dirname(file);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700).catch(() => {});
  const temp = `${file}.${crypto.randomUUID()}.tmp`;
  await writeFile(temp, JSON.stringify({ version: 1, servers }, null, 2) + "\n", {
    mode: 0o600,
    flag: "wx",
  });
  await rename(temp, file).catch(async (error) => {
    await rm(temp, { force: true }).catch(() => {});
    throw error;
  });
}

/** Forget the sign-in of `serverUrl`; whether there was one. */
export async function forgetSignIn(file: string, serverUrl: string): Promise<boolean> {
  const servers = await readStore(file);
  if (servers[serverUrl] === undefined) return false;
  delete servers[serverUrl];
  await writeStore(file, servers);
  return true;
}

/** Options of {@link StoredOAuthProvider}. */
export interface StoredProviderOptions {
  /** The `mcpServers` key (for messages). */
  readonly server: string;
  /** The server's URL: the store key. */
  readonly serverUrl: string;
  /** The store file. */
  readonly storePath: string;
  /** Scopes to ask for (none: the server's metadata decides). */
  readonly scopes: readonly string[];
  /** `login`: the loopback redirect URL, and where to send the authorization URL. */
  readonly login?: {
    readonly redirectUrl: string;
    readonly open: (url: URL) => void | Promise<void>;
  };
  /** `login`: the `state` sent with the authorization request. */
  readonly state?: string;
}

/** An {@link OAuthClientProvider} over the sign-in store. */
export class StoredOAuthProvider implements OAuthClientProvider {
  readonly #options: StoredProviderOptions;
  #verifier: string | undefined;

  /** The provider of one server. */
  constructor(options: StoredProviderOptions) {
    this.#options = options;
  }

  /** The `state` of `login`'s authorization request. */
  state(): string {
    return this.#options.state ?? crypto.randomUUID();
  }

  /**
   * The loopback redirect of `login`; elsewhere a placeholder, never visited: the SDK refreshes
   * only for a provider with a redirect URL (without one it takes a machine-to-machine flow),
   * and where it would redirect, {@link redirectToAuthorization} throws.
   */
  get redirectUrl(): string {
    return this.#options.login?.redirectUrl ?? "http://127.0.0.1/callback";
  }

  /** What dynamic registration registers: a public native client with a loopback redirect. */
  get clientMetadata(): OAuthClientMetadata {
    const redirect = this.#options.login?.redirectUrl ?? "http://127.0.0.1/callback";
    return {
      client_name: "magi-tools",
      redirect_uris: [redirect],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      application_type: "native",
      ...(this.#options.scopes.length === 0 ? {} : { scope: this.#options.scopes.join(" ") }),
    } as OAuthClientMetadata;
  }

  async #entry(): Promise<StoredSignIn | undefined> {
    return (await readStore(this.#options.storePath))[this.#options.serverUrl];
  }

  async #update(change: (entry: StoredSignIn) => StoredSignIn | undefined): Promise<void> {
    const servers = await readStore(this.#options.storePath);
    const next = change({ ...servers[this.#options.serverUrl] });
    if (next === undefined) delete servers[this.#options.serverUrl];
    else servers[this.#options.serverUrl] = next;
    await writeStore(this.#options.storePath, servers);
  }

  /** The stored registration. */
  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    return (await this.#entry())?.client;
  }

  /** Store the registration. */
  async saveClientInformation(client: OAuthClientInformationMixed): Promise<void> {
    await this.#update((entry) => ({ ...entry, client }));
  }

  /** The stored tokens. */
  async tokens(): Promise<OAuthTokens | undefined> {
    return (await this.#entry())?.tokens;
  }

  /** Whether the stored access token has fewer than {@link REFRESH_MARGIN_MS} left. */
  async expiring(): Promise<boolean> {
    const expiresAt = (await this.#entry())?.expiresAt;
    return expiresAt !== undefined && expiresAt - Date.now() < REFRESH_MARGIN_MS;
  }

  /** Store new tokens (a refresh answer without a refresh token keeps the old one). */
  async saveTokens(tokens: OAuthTokens): Promise<void> {
    const started = Date.now();
    await this.#update((entry) => ({
      ...entry,
      tokens: {
        ...tokens,
        ...(tokens.refresh_token === undefined && entry.tokens?.refresh_token !== undefined
          ? { refresh_token: entry.tokens.refresh_token }
          : {}),
      },
      ...(typeof tokens.expires_in === "number"
        ? { expiresAt: started + tokens.expires_in * 1_000 }
        : { expiresAt: undefined }),
    }));
  }

  /** `login`: hand the URL to the browser opener; elsewhere: a sign-in is needed. */
  async redirectToAuthorization(url: URL): Promise<void> {
    if (this.#options.login === undefined) {
      throw new SignInRequiredError(
        this.#options.server,
        "the stored sign-in is missing or refused",
      );
    }
    await this.#options.login.open(url);
  }

  /** Keep the PKCE verifier in memory (one `login` process). */
  saveCodeVerifier(verifier: string): void {
    this.#verifier = verifier;
  }

  /** The PKCE verifier of this `login`. */
  codeVerifier(): string {
    if (this.#verifier === undefined) throw new Error("no PKCE code verifier saved");
    return this.#verifier;
  }

  /** Drop what the server refused. */
  async invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery") {
    if (scope === "verifier" || scope === "discovery") return;
    await this.#update((entry) => {
      if (scope === "all") return undefined;
      const next = { ...entry };
      if (scope === "client") delete next.client;
      if (scope === "tokens") {
        delete next.tokens;
        delete next.expiresAt;
      }
      return next;
    });
  }
}

/**
 * The provider of an HTTP server with `oauth`, its stored token refreshed
 * first when it is about to expire; undefined for other servers.
 *
 * @throws {SignInRequiredError} when there is no sign-in, or its refresh is refused.
 */
export async function signedInProvider(
  config: McpServerConfig,
): Promise<StoredOAuthProvider | undefined> {
  if (config.transport.kind !== "http" || config.transport.oauth === undefined) return undefined;
  const storePath = signInStorePath();
  if (storePath === null) {
    throw new SignInRequiredError(
      config.name,
      "the sign-in store cannot be found: the host may not read HOME or XDG_STATE_HOME",
    );
  }
  const provider = new StoredOAuthProvider({
    server: config.name,
    serverUrl: config.transport.url,
    storePath,
    scopes: config.transport.oauth.scopes,
  });
  let tokens;
  try {
    tokens = await provider.tokens();
  } catch (error) {
    throw new SignInRequiredError(config.name, `the sign-in store: ${(error as Error).message}`);
  }
  if (tokens === undefined) throw new SignInRequiredError(config.name, "not signed in");
  if (await provider.expiring()) {
    if (tokens.refresh_token === undefined) {
      throw new SignInRequiredError(config.name, "the token expired and there is no refresh token");
    }
    try {
      await auth(provider, { serverUrl: config.transport.url });
    } catch (error) {
      if (error instanceof SignInRequiredError) {
        throw new SignInRequiredError(config.name, "the refresh token was refused");
      }
      throw new SignInRequiredError(
        config.name,
        `refreshing the token failed: ${(error as Error).message}`,
      );
    }
  }
  return provider;
}
