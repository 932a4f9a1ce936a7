/**
 * Loading tools and the registry: tool modules found and described without the host's
 * permissions (`discovery.ts`, with the describe cache `describe_cache.ts` and its keys
 * `describe_key.ts`), the registry with its JSON Schemas, byte budgets and `tool_id`s
 * (`registry.ts`, with `definitions.ts`, `budget.ts` and `registry_error.ts`), the catalog past
 * 32 tools (`catalog.ts`: registration, ranking, bounded answer) and the tool directories'
 * watcher (`watch.ts`).
 *
 * @module
 */

export { loadToolDirs } from "./discovery.ts";
export { RegistryError, ToolRegistry } from "./registry.ts";
