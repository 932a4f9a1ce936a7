/**
 * The scripted provider that stands in for a model: scenario files (`scenario.ts`, JSONC),
 * the default planner when no scenario turn applies (`planner.ts`) and the step executor
 * (`provider.ts`). Deterministic: the same prompt, scenario and tool results give the same
 * events.
 *
 * @module
 */

export { planTurn } from "./planner.ts";
export { executeSteps } from "./provider.ts";
export { loadScenario } from "./scenario.ts";
