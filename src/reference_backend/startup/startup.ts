/**
 * The initialization worker: storage root, settings, context identity, provider readiness
 * and the scenario. One admitted snapshot per child.
 *
 * Providers: `scripted` (always ready) and, for completeness of the readiness rules,
 * `openai` (needs `OPENAI_API_KEY`), `anthropic` (`ANTHROPIC_API_KEY`) and `gemini`
 * (`GEMINI_API_KEY`); `providers.<name>.api_key_env` renames the variable. Those three can
 * be ready, but this backend has no network client: their turns fail with
 * `execution_failed`. Any other provider name is `configuration_invalid`.
 *
 * @module
 */

import { sha256Hex } from "../../protocol/canonical.ts";
import type { StartupErrorCode } from "../../protocol/errors.ts";
import { loadScenario, type Scenario } from "../provider/scenario.ts";
import { loadSettings } from "./settings.ts";
import { configErrorLine } from "./config_errors.ts";
import { PROVIDER_KEYS, SCRIPTED_MODEL, SCRIPTED_PROVIDER } from "../catalog/providers.ts";

/** What startup admitted. */
export interface Runtime {
  /** Canonical storage root. */
  mcHome: string;
  /** Canonical working directory. */
  cwd: string;
  /** SHA-256 hex of canonical cwd and storage root. */
  contextId: string;
  /** Effective provider. */
  provider: string;
  /** Effective model. */
  model: string;
  /** The scenario, or null for the default planner. */
  scenario: Scenario | null;
  /** Admitted per-provider settings (credentials variables, refresh sources, catalog). */
  providers: Record<string, Record<string, unknown>>;
}

/** Startup outcome; a failure may still know the context identity. */
export type StartupResult =
  | { ok: true; runtime: Runtime }
  | { ok: false; code: StartupErrorCode; contextId: string | null };

/** Inputs of {@link runStartup}. */
export interface StartupInput {
  /** The child's working directory. */
  cwd: string;
  /** Environment lookup. */
  env: (name: string) => string | undefined;
  /** Aborted by shutdown/EOF: startup then fails with `startup_cancelled`. */
  signal: AbortSignal;
  /** Where a rejected configuration's one line goes (the child's stderr); default `console.error`. */
  stderr?: (line: string) => void;
}

/** Run the startup steps in order, stopping at the first failure. */
export async function runStartup(input: StartupInput): Promise<StartupResult> {
  const { env, signal } = input;
  const stderr = input.stderr ?? console.error;
  const report = (reason: string): void => stderr(configErrorLine(reason));
  const fail = (code: StartupErrorCode, contextId: string | null = null): StartupResult => ({
    ok: false,
    code: signal.aborted ? "startup_cancelled" : code,
    contextId,
  });
  const home = env("MC_HOME") ?? (env("HOME") ? `${env("HOME")}/.magi-code` : null);
  if (home === null || home === "") return fail("startup_failed");
  let mcHome: string;
  let cwd: string;
  try {
    await Deno.mkdir(`${home}/sessions`, { recursive: true });
    mcHome = await Deno.realPath(home);
    cwd = await Deno.realPath(input.cwd);
  } catch {
    return fail("startup_failed");
  }
  const contextId = contextIdOf(cwd, mcHome);
  if (signal.aborted) return fail("startup_cancelled", contextId);
  const loaded = await loadSettings({
    global: `${mcHome}/settings.json`,
    project: `${cwd}/.magi-code/settings.json`,
  }, report);
  if (!loaded.ok) return fail(loaded.code, contextId);
  const settings = loaded.settings;
  if (settings.enabledMcpServers.length > 0) return fail("mcp_unavailable", contextId);
  const provider = settings.provider;
  if (provider !== SCRIPTED_PROVIDER) {
    const defaultKey = PROVIDER_KEYS[provider];
    if (defaultKey === undefined || settings.model === null) {
      report(
        defaultKey === undefined
          ? `settings: $.provider: unknown provider ${JSON.stringify(provider)} (known: ${
            [SCRIPTED_PROVIDER, ...Object.keys(PROVIDER_KEYS)].join(", ")
          })`
          : `settings: $.model: provider ${provider} needs a model`,
      );
      return fail("configuration_invalid", contextId);
    }
    const keyName = settings.providers[provider]?.api_key_env;
    const key = env(typeof keyName === "string" ? keyName : defaultKey);
    if (key === undefined || key === "") return fail("provider_unavailable", contextId);
  }
  const envScenario = env("MAGI_SCENARIO");
  const scenarioPath = envScenario
    ? (envScenario.startsWith("/") ? envScenario : `${cwd}/${envScenario}`)
    : settings.scenario;
  let scenario: Scenario | null = null;
  if (scenarioPath !== null) {
    const parsed = await loadScenario(scenarioPath, report);
    if (!parsed.ok) return fail("configuration_invalid", contextId);
    scenario = parsed.scenario;
  }
  if (signal.aborted) return fail("startup_cancelled", contextId);
  const model = settings.model ?? SCRIPTED_MODEL;
  return {
    ok: true,
    runtime: { mcHome, cwd, contextId, provider, model, scenario, providers: settings.providers },
  };
}

/** Context identity: SHA-256 hex of the canonical cwd and canonical storage root. */
export function contextIdOf(cwd: string, mcHome: string): string {
  return sha256Hex(`cwd\u0000${cwd}\u0000storage_root\u0000${mcHome}`);
}
