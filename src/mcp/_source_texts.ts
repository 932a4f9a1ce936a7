/**
 * The texts of an MCP source's failures (internal to `source.ts`): a server that did not start,
 * one that went away mid-run, and arguments that do not match a tool's input schema. A URL in
 * them loses its user info and query (they may hold secrets).
 *
 * @module
 */

import type { McpServerConfig } from "../config/mod.ts";
import { ChildStdioTransport } from "./stdio_transport.ts";

/** Ajv's `data/x must be string` as `x: must be string`. */
export function argumentReason(message: string | undefined): string {
  if (message === undefined || message === "") return "arguments do not match the input schema";
  return message.split(", ").map((part) => {
    const match = /^data(\S*) (.*)$/.exec(part);
    if (match === null) return part;
    const path = match[1]!.replace(/^\//, "").replaceAll("/", ".");
    return path === "" ? match[2]! : `${path}: ${match[2]}`;
  }).join("; ");
}

/**
 * Why `config`'s server did not start: its command or (redacted) URL, the reason, the exit code
 * of a process that exited, and the last 10 lines of its stderr.
 */
export function startFailure(config: McpServerConfig, transport: unknown, error: unknown): string {
  const where = config.transport.kind === "stdio"
    ? `command ${config.transport.command}`
    : `URL ${redactUrl(config.transport.url)}`;
  let reason = error instanceof Error ? error.message : String(error);
  if (transport instanceof ChildStdioTransport && transport.exit !== undefined) {
    reason = `the process exited with code ${transport.exit.code} (${reason})`;
  }
  const tail = transport instanceof ChildStdioTransport ? transport.stderrTail() : "";
  return `MCP server ${config.name} failed to start (${where}): ${reason}${
    tail === "" ? "" : `; stderr: ${tail.split("\n").slice(-10).join("\n")}`
  }`;
}

/** The text of the calls of a server that exited or closed the connection mid-run. */
export function exitText(server: string, transport: unknown): string {
  if (transport instanceof ChildStdioTransport && transport.exit !== undefined) {
    const { code, signal } = transport.exit;
    return `MCP server ${server} exited (${
      signal ?? `code ${code}`
    }); its tools are unavailable for the rest of this run`;
  }
  return `MCP server ${server} closed the connection; its tools are unavailable for the rest of this run`;
}

/** A URL without user info or query (they may hold secrets). */
function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return "(invalid URL)";
  }
}
