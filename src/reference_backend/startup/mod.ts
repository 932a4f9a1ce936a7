/**
 * Initialization of one child: the storage root, global and project settings (`settings.ts`,
 * JSONC), the context identity, provider readiness and the scenario (`startup.ts`). One
 * admitted snapshot per child.
 *
 * @module
 */

export { loadSettings } from "./settings.ts";
export { runStartup } from "./startup.ts";
