/**
 * One Deno test per agent, registered after the install: an available agent runs its scenario;
 * a missing one (no Node, too old, install failed, `MAGI_TOOLS_AGENT_TESTS=0`) is registered
 * as an ignored test whose name says it was skipped and why, and the reason is printed.
 *
 * @module
 */

import type { AgentBin, Availability } from "./_install.ts";

/** Register the agent's test; `body` gets the agent's executable. */
export async function agentTest(
  agent: AgentBin,
  available: Promise<Availability>,
  body: (t: Deno.TestContext, path: string) => Promise<void>,
): Promise<void> {
  const state = await available;
  const name = `${agent.pkg}@${agent.version} over magi-tools mcp`;
  if (!state.ok) {
    console.error(`SKIPPED: ${name}: ${state.reason}`);
    Deno.test({
      name: `${name} (SKIPPED: ${state.reason})`,
      ignore: true,
      fn: () => {},
    });
    return;
  }
  Deno.test({
    name,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: (t) => body(t, state.path),
  });
}
