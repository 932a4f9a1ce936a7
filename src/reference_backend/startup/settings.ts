/**
 * Settings of the reference backend: global `$MC_HOME/settings.json` and exact-cwd project
 * `<cwd>/.magi-code/settings.json`, both JSONC, project keys overriding global ones.
 *
 * Supported keys (others are ignored, as a newer settings file may carry them):
 * - `provider`: string, default `"scripted"`.
 * - `model`: string, default `"scripted-1"` for the scripted provider; required otherwise.
 * - `scenario`: path of a scenario file, relative to the settings file's directory.
 * - `providers`: object of per-provider objects; `providers.<name>.api_key_env` renames the
 *   credential variable of that provider and `providers.<name>.refresh_source` names the local
 *   file `model.refresh` reads (relative to `MC_HOME`). `providers.catalog.enabled` is the
 *   list of admitted catalog choices, each `"<provider>/<model>"` or `"<provider>/*"`.
 * - `mcp.servers`: object of server objects; any server not `"enabled": false` fails startup
 *   with `mcp_unavailable` (this backend does not support MCP).
 *
 * @module
 */

import { parse, type ParseError } from "jsonc-parser";
import { jsonPath, reportConfigError, syntaxReason } from "./config_errors.ts";
import { utf8ByteLength } from "../../protocol/utf8.ts";
import { hasC0OrDel } from "../../text/control.ts";

/** The admitted settings snapshot. */
export interface Settings {
  /** Selected provider. */
  provider: string;
  /** Selected model, or null when settings name none. */
  model: string | null;
  /** Absolute scenario path, or null. */
  scenario: string | null;
  /** Per-provider settings objects. */
  providers: Record<string, Record<string, unknown>>;
  /** Names of MCP servers that settings enable. */
  enabledMcpServers: string[];
}

/** Settings loading outcome. */
export type SettingsResult =
  | { ok: true; settings: Settings }
  | {
    ok: false;
    code: "configuration_invalid";
    /** `settings <file>: <JSON path>: <why>`, for the one stderr line (never the wire). */
    reason: string;
  };

/** Largest settings file read, bytes. */
export const SETTINGS_FILE_BYTES = 1_048_576;
/** Largest provider/model name, bytes. */
const NAME_BYTES = 256;

type Layer = {
  dir: string;
  value: Record<string, unknown>;
  /** The settings file, for error reasons; default `<dir>/settings.json`. */
  file?: string;
};

/** Parse one JSONC settings text into an object, or null when malformed. */
export function parseSettingsText(text: string): Record<string, unknown> | null {
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0 || !isObject(value)) return null;
  return value;
}

/**
 * Load, merge and validate global then project settings. Missing files count
 * as empty. A rejection's `reason` (file, JSON path, why) is passed to
 * `report` (default: one line on stderr).
 */
export async function loadSettings(
  paths: { global: string; project: string },
  report: (line: string) => void = reportConfigError,
): Promise<SettingsResult> {
  const layers: Layer[] = [];
  for (const path of [paths.global, paths.project]) {
    const layer = await readLayer(path);
    if (typeof layer === "string") {
      const reason = `settings ${path}: ${layer}`;
      report(reason);
      return { ok: false, code: "configuration_invalid", reason };
    }
    if (layer !== null) layers.push({ ...layer, file: path });
  }
  const merged = mergeLayers(layers);
  if (!merged.ok) report(merged.reason);
  return merged;
}

/** Merge settings layers (later wins) and validate the known keys. */
export function mergeLayers(layers: readonly Layer[]): SettingsResult {
  let file = "";
  const invalid = (path: string, why: string): SettingsResult => ({
    ok: false,
    code: "configuration_invalid",
    reason: `settings ${file}: ${path}: ${why}`,
  });
  const NAME = `a non-empty string of at most ${NAME_BYTES} bytes without control characters`;
  let provider = "scripted";
  let model: string | null = null;
  let scenario: string | null = null;
  const providers: Record<string, Record<string, unknown>> = {};
  const servers = new Map<string, boolean>();
  for (const layer of layers) {
    const { dir, value } = layer;
    file = layer.file ?? `${dir}/settings.json`;
    if ("provider" in value) {
      if (!isName(value.provider)) return invalid("$.provider", `must be ${NAME}`);
      provider = value.provider;
    }
    if ("model" in value) {
      if (!isName(value.model)) return invalid("$.model", `must be ${NAME}`);
      model = value.model;
    }
    if ("scenario" in value) {
      if (typeof value.scenario !== "string" || value.scenario === "") {
        return invalid("$.scenario", "must be a non-empty path");
      }
      scenario = resolvePath(dir, value.scenario);
    }
    if ("providers" in value) {
      if (!isObject(value.providers)) return invalid("$.providers", "must be an object");
      for (const [name, entry] of Object.entries(value.providers)) {
        const at = `$.providers${keyPath(name)}`;
        if (!isObject(entry)) return invalid(at, "must be an object");
        if ("api_key_env" in entry && typeof entry.api_key_env !== "string") {
          return invalid(`${at}.api_key_env`, "must be a string");
        }
        if ("refresh_source" in entry && !isPath(entry.refresh_source)) {
          return invalid(`${at}.refresh_source`, "must be a non-empty path");
        }
        if (name === "catalog" && "enabled" in entry && !isEnabledList(entry.enabled)) {
          return invalid(
            `${at}.enabled`,
            'must be a list of "<provider>/<model>" or "<provider>/*" strings',
          );
        }
        providers[name] = { ...providers[name], ...entry };
      }
    }
    if ("mcp" in value) {
      if (!isObject(value.mcp)) return invalid("$.mcp", "must be an object");
      const list = value.mcp.servers ?? {};
      if (!isObject(list)) return invalid("$.mcp.servers", "must be an object");
      for (const [name, server] of Object.entries(list)) {
        const at = `$.mcp.servers${keyPath(name)}`;
        if (!isObject(server)) return invalid(at, "must be an object");
        if ("enabled" in server && typeof server.enabled !== "boolean") {
          return invalid(`${at}.enabled`, "must be true or false");
        }
        servers.set(name, server.enabled !== false);
      }
    }
  }
  const enabledMcpServers = [...servers].filter(([, on]) => on).map(([name]) => name);
  return { ok: true, settings: { provider, model, scenario, providers, enabledMcpServers } };
}

/** A settings file as a layer, null when it does not exist, or why it is invalid. */
async function readLayer(path: string): Promise<Layer | null | string> {
  let bytes: Uint8Array;
  try {
    const info = await Deno.stat(path);
    if (!info.isFile) return "$: not a file";
    if (info.size > SETTINGS_FILE_BYTES) return `$: larger than ${SETTINGS_FILE_BYTES} bytes`;
    bytes = await Deno.readFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    return `$: cannot be read: ${error instanceof Error ? error.message : String(error)}`;
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return "$: not valid UTF-8";
  }
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) return `not valid JSONC: ${syntaxReason(text, errors)}`;
  if (!isObject(value)) return "$: must be an object";
  return { dir: path.slice(0, path.lastIndexOf("/")) || "/", value };
}

/** `.name` or `["odd name"]`, as a JSON path step. */
function keyPath(name: string): string {
  return jsonPath([name]).slice(1);
}

function resolvePath(dir: string, path: string): string {
  return path.startsWith("/") ? path : `${dir}/${path}`;
}

function isName(value: unknown): value is string {
  if (typeof value !== "string" || value.length === 0) return false;
  if (hasC0OrDel(value)) return false;
  return utf8ByteLength(value) <= NAME_BYTES;
}

function isPath(value: unknown): boolean {
  return typeof value === "string" && value !== "" && !value.includes("\u0000");
}

function isEnabledList(value: unknown): boolean {
  return Array.isArray(value) &&
    value.every((item) => typeof item === "string" && /^[^/]+\/[^/]+$/.test(item) && isName(item));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
