/**
 * `tools`: validate and list tools with their byte costs and the frame
 * budget left, or print the exact definitions (`--json`).
 *
 * @module
 */

import { writeStdout } from "../runtime/mod.ts";
import { EXIT } from "./exit_codes.ts";
import { loadRegistry } from "./host_run.ts";

const encoder = new TextEncoder();

/** Run `tools`; returns the exit code. */
export async function toolsCommand(dirs: string[], json: boolean): Promise<number> {
  const registry = await loadRegistry(dirs);
  if (registry === null) return EXIT.usage;
  if (json) {
    await writeStdout(encoder.encode(JSON.stringify(registry.definitions()) + "\n"));
    return EXIT.ok;
  }
  const budget = registry.budget();
  const lines: string[] = [];
  for (const entry of registry.tools) {
    const d = entry.definition;
    lines.push(
      `${d.name}\t${d.effect}\t${entry.definitionBytes} bytes\t${entry.file}\t${entry.toolId}`,
    );
  }
  lines.push(
    `${registry.tools.length} tool(s); initialize request ${budget.usedBytes} of ${budget.frameBytes} bytes; ${budget.remainingBytes} bytes left`,
  );
  await writeStdout(encoder.encode(lines.join("\n") + "\n"));
  return EXIT.ok;
}
