/**
 * The config tool processes get: none to pass from a checkout (Deno finds the checkout's own
 * deno.json next to the runner). From the npm package's Deno build the runner lies in Deno's npm
 * cache and the project's config is passed: tests/npm/registry_test.ts runs that end to end.
 */
import assert from "node:assert/strict";
import {
  runnerConfig,
  toolConfigFlags,
  toolModuleConfig,
} from "../../src/sandbox/module_config.ts";

import { root as ROOT } from "../_kit/mod.ts";

Deno.test("module_config: from a checkout the runner's config is the checkout's, nothing passed", () => {
  assert.equal(runnerConfig(), `${ROOT}deno.json`);
  assert.equal(toolModuleConfig(), null);
  assert.deepEqual(toolConfigFlags(), []);
});
