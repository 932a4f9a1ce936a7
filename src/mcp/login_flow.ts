/**
 * The browser part of `magi-tools login NAME` and of the inspector's sign-in
 * button (`src/inspect/sign_in.ts`): a loopback redirect listener
 * on `127.0.0.1` (a free port, path `/callback`), the MCP SDK's `auth()`
 * (discovery, dynamic registration, authorization code + PKCE with a `state`
 * checked on return), the authorization URL handed to `open` (which prints
 * it, and opens a browser where there is one), then the code exchanged and
 * the tokens stored (`oauth_login.ts`). Nothing of the tokens is printed.
 * An abort of `signal` stops the SDK's requests and the wait, and closes the
 * listener.
 *
 * @module
 */

import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { auth } from "./_sdk.ts";
import type { SignInRequest } from "./login_api.ts";
import { StoredOAuthProvider } from "./oauth_login.ts";

/** What {@link signIn} needs (declared without the SDK in `login_api.ts`). */
export type SignInOptions = SignInRequest;

/**
 * Sign in to one server; resolves when its tokens are stored.
 *
 * @throws {Error} saying why (the authorization server's `error`, a wrong `state`, no answer in
 * time, `options.signal`'s reason).
 */
export async function signIn(options: SignInOptions): Promise<void> {
  const { signal } = options;
  signal?.throwIfAborted();
  const state = crypto.randomUUID();
  let settle: { resolve: (code: string) => void; reject: (error: Error) => void } | undefined;
  const code = new Promise<string>((resolve, reject) => settle = { resolve, reject });
  // A redirect, the timeout or an abort may come before the code is awaited: never unhandled.
  code.catch(() => {});
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
      page(400, "Sign-in failed; magi-tools says why (in the terminal, or on the inspector page).");
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
  const onAbort = () => settle?.reject(abortReason(signal!));
  signal?.addEventListener("abort", onAbort, { once: true });
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
    const fetchFn = signal === undefined ? {} : { fetchFn: abortableFetch(signal) };
    const first = await auth(provider, { serverUrl: options.serverUrl, ...fetchFn });
    if (first === "AUTHORIZED") return;
    const authorizationCode = await code;
    const second = await auth(provider, {
      serverUrl: options.serverUrl,
      authorizationCode,
      ...fetchFn,
    });
    if (second !== "AUTHORIZED") throw new Error("the authorization server gave no tokens");
  } finally {
    signal?.removeEventListener("abort", onAbort);
    clearTimeout(timer);
    listener.closeAllConnections();
    await new Promise<void>((resolve) => listener.close(() => resolve()));
  }
}

/** `signal`'s reason as an error (an abort without a reason says the sign-in was cancelled). */
function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error("the sign-in was cancelled");
}

/** `fetch` that also stops when `signal` aborts (the SDK's discovery, registration, token calls). */
function abortableFetch(signal: AbortSignal) {
  return (url: string | URL, init?: RequestInit): Promise<Response> =>
    fetch(url, {
      ...init,
      signal: init?.signal == null ? signal : AbortSignal.any([init.signal, signal]),
    });
}
