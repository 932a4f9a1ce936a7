/**
 * The browser part of `magi-tools login NAME`: a loopback redirect listener
 * on `127.0.0.1` (a free port, path `/callback`), the MCP SDK's `auth()`
 * (discovery, dynamic registration, authorization code + PKCE with a `state`
 * checked on return), the authorization URL handed to `open` (which prints
 * it, and opens a browser where there is one), then the code exchanged and
 * the tokens stored (`oauth_login.ts`). Nothing of the tokens is printed.
 *
 * @module
 */

import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { auth } from "./_sdk.ts";
import { StoredOAuthProvider } from "./oauth_login.ts";

/** What {@link signIn} needs. */
export interface SignInOptions {
  /** The `mcpServers` key. */
  readonly server: string;
  /** The server's URL. */
  readonly serverUrl: string;
  /** The sign-in store. */
  readonly storePath: string;
  /** Scopes to ask for. */
  readonly scopes: readonly string[];
  /** Show the authorization URL (print it, open a browser). */
  readonly open: (url: URL) => void | Promise<void>;
  /** Give up waiting for the browser after this long, ms. */
  readonly timeoutMs: number;
}

/**
 * Sign in to one server; resolves when its tokens are stored.
 *
 * @throws {Error} saying why (the authorization server's `error`, a wrong `state`, no answer in time).
 */
export async function signIn(options: SignInOptions): Promise<void> {
  const state = crypto.randomUUID();
  let settle: { resolve: (code: string) => void; reject: (error: Error) => void } | undefined;
  const code = new Promise<string>((resolve, reject) => settle = { resolve, reject });
  const listener = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    if (url.pathname !== "/callback") {
      response.writeHead(404).end();
      return;
    }
    const error = url.searchParams.get("error");
    const given = url.searchParams.get("code");
    const page = (status: number, text: string) => {
      response.writeHead(status, { "content-type": "text/plain; charset=utf-8" }).end(text);
    };
    if (url.searchParams.get("state") !== state) {
      page(400, "Sign-in failed: the answer does not belong to this login.");
      settle?.reject(new Error("the redirect's state does not match this login"));
    } else if (error !== null || given === null) {
      const description = url.searchParams.get("error_description");
      page(400, "Sign-in failed; see the terminal.");
      settle?.reject(
        new Error(
          `the authorization server answered ${error ?? "no code"}${
            description === null ? "" : `: ${description}`
          }`,
        ),
      );
    } else {
      page(200, "Signed in to magi-tools. You can close this tab.");
      settle?.resolve(given);
    }
  });
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  const port = (listener.address() as AddressInfo).port;
  const timer = setTimeout(
    () => settle?.reject(new Error(`no answer from the browser within ${options.timeoutMs} ms`)),
    options.timeoutMs,
  );
  try {
    const provider = new StoredOAuthProvider({
      server: options.server,
      serverUrl: options.serverUrl,
      storePath: options.storePath,
      scopes: options.scopes,
      login: { redirectUrl: `http://127.0.0.1:${port}/callback`, open: options.open },
      state,
    });
    // A new registration for this redirect port; the old sign-in goes once this one succeeds.
    await provider.invalidateCredentials("client");
    const first = await auth(provider, { serverUrl: options.serverUrl });
    if (first === "AUTHORIZED") return;
    const authorizationCode = await code;
    const second = await auth(provider, { serverUrl: options.serverUrl, authorizationCode });
    if (second !== "AUTHORIZED") throw new Error("the authorization server gave no tokens");
  } finally {
    clearTimeout(timer);
    listener.closeAllConnections();
    await new Promise<void>((resolve) => listener.close(() => resolve()));
  }
}
