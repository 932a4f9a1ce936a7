/**
 * One bounded scan of the catalog caches under `$MC_HOME/catalog/`: admitted choices
 * (explicitly enabled by settings `providers.catalog.enabled`), per-provider status,
 * notices and a fingerprint of cache contents and local readiness.
 *
 * Bounds: at most 32 providers (the three built-ins and 29 others; the scripted provider is
 * not counted, see {@link countedProviders}), 2,048 cached models before
 * exclusions, 1 MiB per file, 8 MiB per scan, 1 MiB of serialized choices, 256-byte
 * identifiers and a 2,000 ms cooperative deadline, each → `catalog_limit`. A symlinked,
 * non-regular or unreadable cache, or duplicate models → `catalog_unavailable`. A missing,
 * malformed or empty cache of a relevant provider (enabled or selected) → notice
 * `provider_catalog_unavailable`; unsafe identifiers → `catalog_entries_omitted_unsafe`.
 *
 * @module
 */

import { sha256Hex } from "../../protocol/canonical.ts";
import type { ErrorCode } from "../../protocol/errors.ts";
import {
  CATALOG_FILE_BYTES,
  CATALOG_MODELS,
  CATALOG_PROVIDERS,
  CATALOG_SCAN_BYTES,
  CATALOG_SCAN_MS,
  CATALOG_SNAPSHOT_BYTES,
} from "../../protocol/limits.ts";
import { compareUtf8, type Effort, type EffortSupport } from "../../protocol/schemas/common.ts";
import { type CatalogCache, parseCatalogCache } from "./catalog_cache.ts";
import { jsonBytes } from "../paging.ts";
import { PROVIDER_KEYS, SCRIPTED_PROVIDER } from "./providers.ts";

/** One catalog choice, as on the wire. */
export interface Choice {
  selection_id: string;
  provider: string;
  model: string;
  provider_name: string | null;
  model_name: string | null;
  availability: "available" | "authentication_unavailable";
  effort_support: EffortSupport;
  permitted_efforts: Effort[];
}

/** One provider's status, as on the wire (`model.catalog.status`). */
export interface ProviderStatus {
  provider: string;
  state: "available" | "authentication_unavailable" | "catalog_unavailable" | "not_enabled";
  cached_models: number;
  reasons: string[];
}

/** A completed scan. */
export interface CatalogScan {
  choices: Choice[];
  notices: string[];
  providers: ProviderStatus[];
  fingerprint: string;
}

/** What a scan needs from the child. */
export interface CatalogContext {
  /** Canonical storage root. */
  mcHome: string;
  /** Admitted per-provider settings (including `providers.catalog.enabled`). */
  providers: Readonly<Record<string, Record<string, unknown>>>;
  /** Currently selected provider. */
  selectedProvider: string;
  /** Environment lookup for credential readiness. */
  env: (name: string) => string | undefined;
  /** Cancellation of the operation. */
  signal?: AbortSignal;
}

/**
 * How many of `names` count toward `catalog_providers` (32, "includes three built-ins": the
 * built-ins `openai`, `anthropic`, `gemini` and up to 29 others). The scripted provider is
 * the reference backend's stand-in for the model itself, not a catalog provider of the
 * real backend, so it is not counted: 29 cached providers are still accepted beside it.
 */
export function countedProviders(names: ReadonlySet<string>): number {
  return names.size - (names.has(SCRIPTED_PROVIDER) ? 1 : 0);
}

/** Providers every scan knows (the scripted one plus three built-ins). */
export const KNOWN_PROVIDERS: readonly string[] = [
  SCRIPTED_PROVIDER,
  ...Object.keys(PROVIDER_KEYS),
];

const PROVIDER_FILE = /^([A-Za-z0-9][A-Za-z0-9_-]{0,63})\.json$/;

/** The enabled selection patterns: `provider/model` or `provider/*`. */
export function enabledPatterns(context: CatalogContext): string[] {
  const list = context.providers.catalog?.enabled;
  return Array.isArray(list) ? list.filter((x): x is string => typeof x === "string") : [];
}

/** Whether `provider` has local authentication ready. */
export function providerReady(context: CatalogContext, provider: string): boolean {
  if (provider === SCRIPTED_PROVIDER) return true;
  const named = context.providers[provider]?.api_key_env;
  const key = typeof named === "string" ? named : PROVIDER_KEYS[provider];
  if (key === undefined) return false;
  const value = context.env(key);
  return value !== undefined && value !== "";
}

/** The stable selection ID of a provider/model tuple. */
export function selectionIdOf(provider: string, model: string): string {
  return sha256Hex(`selection\u0000${provider}\u0000${model}`);
}

/** Scan the caches once. */
export async function scanCatalog(
  context: CatalogContext,
): Promise<{ ok: true; scan: CatalogScan } | { ok: false; code: ErrorCode }> {
  const fail = (code: ErrorCode) => ({ ok: false as const, code });
  const deadline = Date.now() + CATALOG_SCAN_MS;
  const dir = `${context.mcHome}/catalog`;
  const patterns = enabledPatterns(context);
  const files = new Map<string, string>();
  try {
    const info = await Deno.lstat(dir);
    if (!info.isDirectory) return fail("catalog_unavailable");
    for await (const entry of Deno.readDir(dir)) {
      const match = PROVIDER_FILE.exec(entry.name);
      if (match !== null) files.set(match[1] as string, entry.name);
      if (files.size - (files.has(SCRIPTED_PROVIDER) ? 1 : 0) > CATALOG_PROVIDERS) {
        return fail("catalog_limit");
      }
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) return fail("catalog_unavailable");
  }
  const names = new Set<string>([...KNOWN_PROVIDERS, ...files.keys(), context.selectedProvider]);
  for (const pattern of patterns) names.add(pattern.slice(0, Math.max(0, pattern.indexOf("/"))));
  names.delete("");
  if (countedProviders(names) > CATALOG_PROVIDERS) return fail("catalog_limit");
  const providers = [...names].sort(compareUtf8);
  let scanned = 0;
  let models = 0;
  const prints: string[] = [];
  const caches = new Map<string, CatalogCache | null>();
  for (const provider of providers) {
    if (context.signal?.aborted) return fail("operation_cancelled");
    if (Date.now() > deadline) return fail("catalog_limit");
    const file = files.get(provider);
    const ready = providerReady(context, provider);
    if (file === undefined) {
      caches.set(provider, null);
      prints.push(`${provider}|missing|${ready}`);
      continue;
    }
    let bytes: Uint8Array;
    try {
      const info = await Deno.lstat(`${dir}/${file}`);
      if (!info.isFile) return fail("catalog_unavailable");
      if (info.size > CATALOG_FILE_BYTES) return fail("catalog_limit");
      bytes = await Deno.readFile(`${dir}/${file}`);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) {
        caches.set(provider, null);
        prints.push(`${provider}|vanished|${ready}`);
        continue;
      }
      return fail("catalog_unavailable");
    }
    if (bytes.byteLength > CATALOG_FILE_BYTES) return fail("catalog_limit");
    scanned += bytes.byteLength;
    if (scanned > CATALOG_SCAN_BYTES) return fail("catalog_limit");
    const text = new TextDecoder().decode(bytes);
    prints.push(`${provider}|${sha256Hex(text)}|${ready}`);
    const parsed = parseCatalogCache(text, provider);
    if (!parsed.ok) {
      if (parsed.problem === "overlong") return fail("catalog_limit");
      if (parsed.problem === "duplicate") return fail("catalog_unavailable");
      caches.set(provider, null);
      continue;
    }
    models += parsed.cache.models.length + parsed.cache.unsafe;
    if (models > CATALOG_MODELS) return fail("catalog_limit");
    caches.set(provider, parsed.cache);
  }
  if (Date.now() > deadline) return fail("catalog_limit");
  return { ok: true, scan: project(context, providers, caches, prints, patterns) };
}

function project(
  context: CatalogContext,
  providers: readonly string[],
  caches: ReadonlyMap<string, CatalogCache | null>,
  prints: readonly string[],
  patterns: readonly string[],
): CatalogScan {
  const enabled = (provider: string, model: string) =>
    patterns.includes(`${provider}/${model}`) || patterns.includes(`${provider}/*`);
  const relevant = (provider: string) =>
    provider === context.selectedProvider || patterns.some((p) => p.startsWith(`${provider}/`));
  const choices: Choice[] = [];
  const statuses: ProviderStatus[] = [];
  const notices = new Set<string>();
  for (const provider of providers) {
    const cache = caches.get(provider) ?? null;
    const ready = providerReady(context, provider);
    if (cache === null) {
      if (relevant(provider)) notices.add("provider_catalog_unavailable");
    } else if (cache.unsafe > 0) notices.add("catalog_entries_omitted_unsafe");
    for (const model of cache?.models ?? []) {
      if (model.retired || !enabled(provider, model.id)) continue;
      choices.push({
        selection_id: selectionIdOf(provider, model.id),
        provider,
        model: model.id,
        provider_name: cache?.providerName ?? null,
        model_name: model.name,
        availability: ready ? "available" : "authentication_unavailable",
        effort_support: model.support,
        permitted_efforts: model.permitted,
      });
    }
    statuses.push(statusOf(provider, cache, { ready, relevant: relevant(provider) }));
  }
  choices.sort((a, b) => compareUtf8(a.provider, b.provider) || compareUtf8(a.model, b.model));
  return {
    choices,
    notices: [...notices].sort(),
    providers: statuses,
    fingerprint: sha256Hex(prints.join("\n")),
  };
}

/**
 * One provider's status. `state` is the first that applies of `not_enabled`,
 * `catalog_unavailable`, `authentication_unavailable`, `available`; `reasons` lists every
 * applicable fixed code, ascending: `provider_not_enabled` alone for an unused provider,
 * else `authentication_missing` (no credential) and/or `provider_catalog_unavailable` (no
 * valid cache).
 */
function statusOf(
  provider: string,
  cache: CatalogCache | null,
  flags: { ready: boolean; relevant: boolean },
): ProviderStatus {
  const cached = cache?.models.length ?? 0;
  if (!flags.relevant) {
    return {
      provider,
      state: "not_enabled",
      cached_models: cached,
      reasons: ["provider_not_enabled"],
    };
  }
  const reasons: string[] = [];
  if (!flags.ready) reasons.push("authentication_missing");
  if (cache === null) reasons.push("provider_catalog_unavailable");
  const state = cache === null
    ? "catalog_unavailable"
    : flags.ready
    ? "available"
    : "authentication_unavailable";
  return { provider, state, cached_models: cached, reasons };
}

/** Whether the serialized choices fit the snapshot bound. */
export function withinSnapshot(choices: readonly Choice[]): boolean {
  let total = 0;
  for (const choice of choices) total += jsonBytes(choice);
  return total <= CATALOG_SNAPSHOT_BYTES;
}
