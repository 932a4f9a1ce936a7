/**
 * Reference-backend storage fixtures for the history, discovery, catalog and selection
 * tests: session JSONL files and catalog caches in the formats `docs/reference-backend.md`
 * documents. Tests using them run only against the reference backend.
 *
 * @module
 */

import { type Backend, Workspace } from "./_harness.ts";
import { BASE_CAPABILITIES } from "./_fixtures.ts";

/** Every base capability (opt-in operations included). */
export const ALL_CAPABILITIES: readonly string[] = BASE_CAPABILITIES;

/**
 * Initialize requiring every base capability plus `extra` (`initialize` itself is left out
 * when an extension is added: at most 16 names without `client.tools`).
 */
export async function initializeAll(
  backend: Backend,
  extra: readonly string[] = [],
): Promise<Record<string, unknown>> {
  if (extra.includes("tool.cards")) backend.allowToolCards();
  const base = extra.length === 0
    ? ALL_CAPABILITIES
    : ALL_CAPABILITIES.filter((name) => name !== "initialize");
  return await backend.call("initialize", { required_capabilities: [...base, ...extra] });
}

/** One stored record line for session `id` (timestamp and cwd defaulted). */
export function record(
  id: string,
  type: string,
  fields: Record<string, unknown> = {},
): Record<string, unknown> {
  return { type, session_id: id, timestamp: "2026-01-02T03:04:05.000Z", ...fields };
}

/** Write `$MC_HOME/sessions/<id>.jsonl` from `records` (each gets `cwd` unless it has one). */
export async function writeSession(
  ws: Workspace,
  id: string,
  records: ReadonlyArray<Record<string, unknown>>,
  options: { cwd?: string | null } = {},
): Promise<string> {
  const dir = `${ws.mcHome}/sessions`;
  await Deno.mkdir(dir, { recursive: true });
  const cwd = options.cwd === undefined ? ws.cwd : options.cwd;
  const lines = records.map((r) => JSON.stringify(cwd === null || "cwd" in r ? r : { ...r, cwd }));
  const path = `${dir}/${id}.jsonl`;
  await Deno.writeTextFile(path, lines.map((l) => `${l}\n`).join(""));
  return path;
}

/** A small completed conversation of session `id`. */
export function conversation(id: string, run = "run-1"): Record<string, unknown>[] {
  return [
    record(id, "user", { run_id: run, message_id: `u-${run}`, text: "Hello" }),
    record(id, "assistant", { run_id: run, message_id: `a-${run}`, text: "Hi there" }),
    record(id, "run_finished", { run_id: run, outcome: "completed", error_code: null }),
  ];
}

/** A catalog model entry. */
export interface CacheModel {
  id: string;
  name?: string | null;
  efforts?: string[];
  retired?: boolean;
}

/** Write `$MC_HOME/catalog/<provider>.json`. */
export async function writeCatalog(
  ws: Workspace,
  provider: string,
  models: readonly CacheModel[],
  providerName: string | null = null,
): Promise<string> {
  const dir = `${ws.mcHome}/catalog`;
  await Deno.mkdir(dir, { recursive: true });
  const path = `${dir}/${provider}.json`;
  await Deno.writeTextFile(
    path,
    JSON.stringify({ version: 1, provider, provider_name: providerName, models }),
  );
  return path;
}

/** Write settings enabling `enabled` catalog choices, merged with `extra` settings. */
export async function writeCatalogSettings(
  ws: Workspace,
  enabled: readonly string[],
  extra: Record<string, unknown> = {},
): Promise<void> {
  const providers = { ...(extra.providers as Record<string, unknown> | undefined) };
  providers.catalog = { enabled };
  await ws.writeSettings(JSON.stringify({ ...extra, providers }));
}

/** Run `body` with a fresh workspace, disposed afterwards. */
export async function inWorkspace(body: (ws: Workspace) => Promise<void>): Promise<void> {
  const ws = await Workspace.create();
  try {
    await body(ws);
  } finally {
    await ws.dispose();
  }
}

/** Follow `history.page` from `revision` to the end; returns every page result. */
export async function allHistory(
  backend: Backend,
  sessionId: string,
  revision: string,
): Promise<Record<string, unknown>[]> {
  const pages: Record<string, unknown>[] = [];
  let cursor: unknown = null;
  for (let i = 0; i < 10_000; i++) {
    const page = await backend.call("history.page", { session_id: sessionId, revision, cursor });
    pages.push(page);
    cursor = page.next_cursor;
    if (cursor === null) return pages;
  }
  throw new Error("history.page never ended");
}
