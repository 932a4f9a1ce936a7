/**
 * Arguments → one HTTP request, following an {@link OperationPlan}: path
 * parameters percent-encoded (a `.`/`..` segment or an absolute URL is
 * refused), query parameters serialized by their `style`/`explode`, header
 * parameters checked for line breaks, the body encoded by its media type.
 * The final URL must stay under the base URL (same origin, path prefix).
 * Anything wrong is an `invalid_arguments` {@link ExternalToolError}.
 *
 * @module
 */

import { ExternalToolError } from "../tool/external.ts";
import type { OperationPlan, ParameterPlan } from "./operations.ts";
import { hasHeaderBreak } from "../text/control.ts";

/** A request ready for `http.ts` (plain data, sent to the sandboxed child). */
export interface HttpRequestSpec {
  /** Upper-case method. */
  readonly method: string;
  /** Absolute URL under the base URL. */
  readonly url: string;
  /** Header name/value pairs (never the auth header: the child adds it). */
  readonly headers: readonly (readonly [string, string])[];
  /** Request body text, if any. */
  readonly body?: string;
}

function invalid(reason: string): ExternalToolError {
  return new ExternalToolError("invalid_arguments", `Invalid arguments: ${reason}`);
}

/** `scheme://…`, `//host…` or `\\host…`: a value that names another server. */
const ABSOLUTE_URL = /^(?:[A-Za-z][A-Za-z0-9+.-]*:\/\/|\/\/|\\\\)/;

/** Whether `url` is `base` or below it: same origin, and its path starts with base's path. */
export function isUnderBase(url: URL, base: URL): boolean {
  if (url.origin !== base.origin) return false;
  const prefix = base.pathname.replace(/\/+$/, "");
  return prefix === "" || url.pathname === prefix || url.pathname.startsWith(`${prefix}/`);
}

/**
 * The request for `args` (already valid against the tool's schema).
 *
 * @example
 * ```ts
 * import { buildRequest } from "./request.ts";
 * const plan = {
 *   method: "get", path: "/pets/{id}",
 *   parameters: [
 *     { name: "id", in: "path", style: "simple", explode: false, json: false },
 *     { name: "tag", in: "query", style: "form", explode: true, json: false },
 *   ],
 * } as const;
 * const request = buildRequest(plan, { id: "a b", tag: ["x", "y"] }, new URL("http://127.0.0.1:8080/api"));
 * console.assert(request.url === "http://127.0.0.1:8080/api/pets/a%20b?tag=x&tag=y");
 * ```
 */
export function buildRequest(
  plan: Pick<OperationPlan, "method" | "path" | "parameters" | "body">,
  args: Record<string, unknown>,
  base: URL,
): HttpRequestSpec {
  let path = plan.path;
  const query: string[] = [];
  const headers: [string, string][] = [];
  for (const param of plan.parameters) {
    const value = args[param.name];
    if (value === undefined || value === null) {
      if (param.in === "path") throw invalid(`${param.name}: required`);
      continue;
    }
    if (param.in === "path") {
      path = path.replaceAll(`{${param.name}}`, pathValue(param, value));
    } else if (param.in === "query") query.push(...queryPairs(param, value));
    else headers.push([param.name, headerValue(param, value)]);
  }
  const prefix = base.pathname.replace(/\/+$/, "");
  const url = new URL(
    `${base.origin}${prefix}${path}${query.length > 0 ? `?${query.join("&")}` : ""}`,
  );
  if (!isUnderBase(url, base)) {
    throw invalid(`the request URL would leave the base URL ${base.href}`);
  }
  let body: string | undefined;
  if (plan.body !== undefined && args["body"] !== undefined) {
    const value = args["body"];
    if (plan.body.kind === "json") body = JSON.stringify(value);
    else if (plan.body.kind === "text") body = String(value);
    else body = formBody(value);
    headers.push(["content-type", plan.body.mediaType]);
  }
  return {
    method: plan.method.toUpperCase(),
    url: url.href,
    headers,
    ...(body === undefined ? {} : { body }),
  };
}

const encode = encodeURIComponent;

function scalar(value: unknown): string {
  return typeof value === "object" && value !== null ? JSON.stringify(value) : String(value);
}

function pathValue(param: ParameterPlan, value: unknown): string {
  const check = (text: string) => {
    if (text === "" || text === "." || text === "..") {
      throw invalid(`${param.name}: a path parameter cannot be "${text}"`);
    }
    if (ABSOLUTE_URL.test(text)) {
      throw invalid(`${param.name}: a path parameter cannot be an absolute URL`);
    }
    return encode(text);
  };
  if (param.json) return check(JSON.stringify(value));
  const prefix = param.style === "label"
    ? "."
    : param.style === "matrix"
    ? `;${encode(param.name)}=`
    : "";
  if (Array.isArray(value)) {
    const sep = param.style === "label" && param.explode ? "." : ",";
    return prefix + value.map((item) => check(scalar(item))).join(sep);
  }
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>);
    return prefix +
      (param.explode
        ? entries.map(([k, v]) => `${encode(k)}=${check(scalar(v))}`).join(",")
        : entries.flatMap(([k, v]) => [encode(k), check(scalar(v))]).join(","));
  }
  return prefix + check(String(value));
}

function queryPairs(param: ParameterPlan, value: unknown): string[] {
  const name = encode(param.name);
  if (param.json) return [`${name}=${encode(JSON.stringify(value))}`];
  if (Array.isArray(value)) {
    const items = value.map((item) => encode(scalar(item)));
    if (param.style === "form" && param.explode) return items.map((item) => `${name}=${item}`);
    const sep = param.style === "spaceDelimited"
      ? "%20"
      : param.style === "pipeDelimited"
      ? "%7C"
      : ",";
    return [`${name}=${items.join(sep)}`];
  }
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>);
    if (param.style === "deepObject") {
      return entries.map(([k, v]) => `${encode(`${param.name}[${k}]`)}=${encode(scalar(v))}`);
    }
    if (param.explode) return entries.map(([k, v]) => `${encode(k)}=${encode(scalar(v))}`);
    return [`${name}=${entries.flatMap(([k, v]) => [encode(k), encode(scalar(v))]).join(",")}`];
  }
  return [`${name}=${encode(String(value))}`];
}

function headerValue(param: ParameterPlan, value: unknown): string {
  let text: string;
  if (param.json) text = JSON.stringify(value);
  else if (Array.isArray(value)) text = value.map(scalar).join(",");
  else if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>);
    text = param.explode
      ? entries.map(([k, v]) => `${k}=${scalar(v)}`).join(",")
      : entries.flatMap(([k, v]) => [k, scalar(v)]).join(",");
  } else text = String(value);
  if (hasHeaderBreak(text)) {
    throw invalid(`${param.name}: a header value cannot hold CR, LF or NUL`);
  }
  return text;
}

function formBody(value: unknown): string {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw invalid("body: a form body must be an object");
  }
  const form = new URLSearchParams();
  for (const [key, item] of Object.entries(value)) {
    if (Array.isArray(item)) { for (const one of item) form.append(key, scalar(one)); }
    else if (item !== undefined && item !== null) form.append(key, scalar(item));
  }
  return form.toString();
}
