/**
 * What `magi-tools login` (src/cli/commands/login.ts) and the inspector's sign-in button
 * (src/inspect/sign_in.ts) use of this folder, declared without the MCP SDK: both load
 * `src/mcp/` through `loadFeature("mcp")` (src/sources/features.ts) and type it with
 * {@link McpLoginModule}, so no type-only import pulls the SDK into their module graph.
 * `mod.ts` provides it (`oauth_login.ts`, `login_flow.ts`).
 *
 * @module
 */

/** How long a sign-in waits for the browser's redirect, ms (10 minutes). */
export const LOGIN_TIMEOUT_MS = 600_000;

/** What {@link McpLoginModule.signIn} needs (`SignInOptions` of `login_flow.ts`). */
export interface SignInRequest {
  /** The `mcpServers` key. */
  readonly server: string;
  /** The server's URL. */
  readonly serverUrl: string;
  /** The sign-in store. */
  readonly storePath: string;
  /** Scopes to ask for. */
  readonly scopes: readonly string[];
  /** Show the authorization URL (print it, open a browser, hand it to a page). */
  readonly open: (url: URL) => void | Promise<void>;
  /** Give up waiting for the browser after this long, ms. */
  readonly timeoutMs: number;
  /** Stops the sign-in: its requests, and the wait for the redirect (the listener closes). */
  readonly signal?: AbortSignal;
}

/** The sign-in part of `src/mcp/mod.ts`. */
export interface McpLoginModule {
  /** The per-user sign-in store file, or null when it cannot be known. */
  signInStorePath(): string | null;
  /** Forget the sign-in to `serverUrl`; whether there was one. */
  forgetSignIn(file: string, serverUrl: string): Promise<boolean>;
  /** Sign in in a browser (authorization code + PKCE); resolves when the tokens are stored. */
  signIn(options: SignInRequest): Promise<void>;
}
