/**
 * The reference backend's catalog cache format: one JSON file per provider,
 * `$MC_HOME/catalog/<provider>.json` (written by `model.refresh`, never fetched by
 * `model.catalog`):
 *
 * ```json
 * {
 *   "version": 1,
 *   "provider": "openai",
 *   "provider_name": "OpenAI",
 *   "models": [
 *     { "id": "gpt-x", "name": "GPT X", "efforts": ["low", "medium", "high"] },
 *     { "id": "gpt-old", "retired": true }
 *   ]
 * }
 * ```
 *
 * `efforts` absent → effort support `unknown`; `[]` → `unsupported`; explicit levels →
 * `supported`. `default` is always permitted (backend no-override policy). Unknown keys are
 * ignored; anything else malformed makes the whole file invalid.
 *
 * @module
 */

import { z } from "zod";
import { CATALOG_STRING_BYTES } from "../../protocol/limits.ts";
import {
  type Effort,
  type EffortSupport,
  ExplicitEffortSchema,
} from "../../protocol/schemas/common.ts";
import { safeName } from "./providers.ts";
import { utf8ByteLength } from "../../protocol/utf8.ts";

const ModelSchema = z.object({
  id: z.string().min(1),
  name: z.string().nullable().optional(),
  efforts: z.array(ExplicitEffortSchema).optional(),
  retired: z.boolean().optional(),
});

const CacheSchema = z.object({
  version: z.literal(1),
  provider: z.string().min(1),
  provider_name: z.string().nullable().optional(),
  models: z.array(ModelSchema),
});

/** One cached model after validation. */
export interface CachedModel {
  id: string;
  name: string | null;
  support: EffortSupport;
  permitted: Effort[];
  retired: boolean;
}

/** A validated cache file. */
export interface CatalogCache {
  provider: string;
  providerName: string | null;
  models: CachedModel[];
  /** Models omitted because their identifier is secret-like or control-bearing. */
  unsafe: number;
}

/** Why a cache text cannot be used. */
export type CacheProblem = "invalid" | "overlong" | "duplicate";

/** Parse and validate one cache text for `provider`. */
export function parseCatalogCache(
  text: string,
  provider: string,
): { ok: true; cache: CatalogCache } | { ok: false; problem: CacheProblem } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, problem: "invalid" };
  }
  const parsed = CacheSchema.safeParse(raw);
  if (!parsed.success || parsed.data.provider !== provider) {
    return { ok: false, problem: "invalid" };
  }
  if (parsed.data.models.length === 0) return { ok: false, problem: "invalid" };
  const seen = new Set<string>();
  const models: CachedModel[] = [];
  let unsafe = 0;
  for (const model of parsed.data.models) {
    if (utf8ByteLength(model.id) > CATALOG_STRING_BYTES) {
      return { ok: false, problem: "overlong" };
    }
    if (seen.has(model.id)) return { ok: false, problem: "duplicate" };
    seen.add(model.id);
    if (!safeIdentifier(model.id)) {
      unsafe++;
      continue;
    }
    const efforts = model.efforts;
    models.push({
      id: model.id,
      name: displayName(model.name),
      support: efforts === undefined
        ? "unknown"
        : efforts.length === 0
        ? "unsupported"
        : "supported",
      permitted: ["default", ...new Set(efforts ?? [])],
      retired: model.retired === true,
    });
  }
  return {
    ok: true,
    cache: { provider, providerName: displayName(parsed.data.provider_name), models, unsafe },
  };
}

/** Serialize a cache file (used by `model.refresh`). */
export function formatCatalogCache(value: unknown): string {
  return JSON.stringify(value, null, 2) + "\n";
}

/** Whether an identifier may appear on the wire (no controls, not secret-like). */
export function safeIdentifier(id: string): boolean {
  return safeName(id) !== null;
}

function displayName(name: string | null | undefined): string | null {
  if (typeof name !== "string" || name === "") return null;
  if (utf8ByteLength(name) > CATALOG_STRING_BYTES) return null;
  return safeIdentifier(name) ? name : null;
}
