/**
 * Keys that a known MCP client adds to every tool call on its own, dropped at the `mcp` front
 * door before validation when the tool's input schema does not declare them.
 *
 * | Key                 | Client     | Why                                                                |
 * | ------------------- | ---------- | ------------------------------------------------------------------ |
 * | `wait_for_previous` | Gemini CLI | adds it (boolean) to every schema it shows the model, then sends it |
 *
 * Only these exact keys, only at the MCP entry (`server.ts`): every other undeclared key still
 * fails the tool's strict schema, and `client.tools` calls (`run`, `batch`, `call`) are validated
 * unchanged. A tool that declares the key receives it as sent.
 *
 * @example
 * ```ts
 * import { dropClientKeys } from "./client_keys.ts";
 * const schema = { type: "object", properties: { path: { type: "string" } } };
 * const args = dropClientKeys({ path: "a", wait_for_previous: true }, schema);
 * if (JSON.stringify(args) !== '{"path":"a"}') throw new Error(JSON.stringify(args));
 * ```
 *
 * @module
 */

/** The keys dropped when undeclared (see the table above). */
export const CLIENT_ADDED_KEYS: readonly string[] = ["wait_for_previous"];

/** `args` without the {@link CLIENT_ADDED_KEYS} that `inputSchema`'s `properties` do not declare. */
export function dropClientKeys(
  args: Record<string, unknown>,
  inputSchema: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const properties = inputSchema["properties"];
  const declared = typeof properties === "object" && properties !== null
    ? Object.hasOwn.bind(null, properties)
    : () => false;
  const drop = CLIENT_ADDED_KEYS.filter((key) => Object.hasOwn(args, key) && !declared(key));
  if (drop.length === 0) return args;
  const kept = { ...args };
  for (const key of drop) delete kept[key];
  return kept;
}
