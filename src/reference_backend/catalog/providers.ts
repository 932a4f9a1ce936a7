/**
 * The providers the reference backend knows and how their names are shown: the scripted
 * provider (ready without credentials) and its model, the credential variable of each known
 * non-scripted provider, and {@link safeName}, which keeps a name that may be a credential out
 * of `status` and catalog caches. Imports nothing, so startup, the catalog and the status object
 * can all use it without importing each other.
 *
 * @module
 */

import { hasControl } from "../../text/control.ts";

/** Credential variables of the known non-scripted providers. */
export const PROVIDER_KEYS: Readonly<Record<string, string>> = {
  openai: "OPENAI_API_KEY",
  anthropic: "ANTHROPIC_API_KEY",
  gemini: "GEMINI_API_KEY",
};
/** Provider that is ready without credentials. */
export const SCRIPTED_PROVIDER = "scripted";
/** Default model of the scripted provider. */
export const SCRIPTED_MODEL = "scripted-1";

/**
 * `name`, or null when it carries a control character (C0, DEL or C1, e.g. U+0085), is not
 * well-formed UTF-16, is empty, or looks like a secret (a key prefix or word, or a long
 * unbroken token) — status and selection never echo something that may be a credential or
 * that the wire's name grammar rejects (as the catalog side does).
 *
 * @example
 * ```ts
 * import { safeName } from "./providers.ts";
 * console.assert(safeName("scripted-1") === "scripted-1");
 * console.assert(safeName("model\u0085") === null);
 * console.assert(safeName("sk-live-123") === null);
 * ```
 */
export function safeName(name: string): string | null {
  if (name === "" || hasControl(name) || !name.isWellFormed()) {
    return null;
  }
  if (/(^sk-|api[_-]?key|secret|token|bearer|password)/i.test(name)) return null;
  if (/[A-Za-z0-9+/=_]{40,}/.test(name)) return null;
  return name;
}
