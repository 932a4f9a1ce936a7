/**
 * `model.refresh`: the one deliberate catalog refresh. The reference backend has no network
 * client, so its "provider source" is a local file named by settings
 * `providers.<name>.refresh_source` (relative paths are relative to `MC_HOME`), in the cache
 * format of `catalog_cache.ts`. The validated source replaces
 * `$MC_HOME/catalog/<provider>.json` atomically (temporary file, then rename).
 *
 * @module
 */

import type { ErrorCode } from "../../protocol/errors.ts";
import { CATALOG_FILE_BYTES, CATALOG_MODELS } from "../../protocol/limits.ts";
import { parseCatalogCache } from "./catalog_cache.ts";
import { type CatalogContext, KNOWN_PROVIDERS, providerReady } from "./catalog_scan.ts";
import { randomTag } from "../paging.ts";

/** Refresh `provider`'s cache; resolves to the number of cached models. */
export async function refreshCatalog(
  provider: string,
  context: CatalogContext,
): Promise<{ ok: true; models: number } | { ok: false; code: ErrorCode }> {
  const fail = (code: ErrorCode) => ({ ok: false as const, code });
  const settings = context.providers[provider];
  const known = KNOWN_PROVIDERS.includes(provider) ||
    (settings !== undefined && provider !== "catalog");
  if (!known || !/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/.test(provider)) {
    return fail("selection_invalid");
  }
  if (!providerReady(context, provider)) return fail("provider_unavailable");
  const source = settings?.refresh_source;
  if (typeof source !== "string") return fail("catalog_unavailable");
  const path = source.startsWith("/") ? source : `${context.mcHome}/${source}`;
  let text: string;
  try {
    const info = await Deno.stat(path);
    if (!info.isFile) return fail("catalog_unavailable");
    if (info.size > CATALOG_FILE_BYTES) return fail("catalog_limit");
    const bytes = await Deno.readFile(path);
    if (bytes.byteLength > CATALOG_FILE_BYTES) return fail("catalog_limit");
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return fail("catalog_unavailable");
  }
  if (context.signal?.aborted) return fail("operation_cancelled");
  const parsed = parseCatalogCache(text, provider);
  if (!parsed.ok) {
    return fail(parsed.problem === "overlong" ? "catalog_limit" : "catalog_unavailable");
  }
  const models = parsed.cache.models.length + parsed.cache.unsafe;
  if (models > CATALOG_MODELS) return fail("catalog_limit");
  const dir = `${context.mcHome}/catalog`;
  const temp = `${dir}/.${provider}.json.${randomTag()}.tmp`;
  try {
    await Deno.mkdir(dir, { recursive: true });
    await Deno.writeTextFile(temp, text);
    await Deno.rename(temp, `${dir}/${provider}.json`);
  } catch {
    await Deno.remove(temp).catch(() => {});
    return fail("catalog_unavailable");
  }
  return { ok: true, models: parsed.cache.models.length };
}
