/**
 * Audit (issue 31 item 7, follow-up): `env: true` is refused for a process-isolated tool
 * ("every secret in the environment"), but `env: ["*"]` is accepted: the trailing `*` is a
 * prefix, the empty prefix matches every name, so `toolEnvironment` hands the tool process the
 * host's whole environment (and Deno gets `--allow-env=*`). `tools` shows only `env=*`. Must hold:
 * a process tool declaring `env: ["*"]` is refused at load like `env: true` (or gets no
 * undeclared variable). Fails on 998e5da: the tool reads the host's token.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { cli, ROOT, tempDir } from "./_scopes.ts";

const SECRET = "tok-audit-star-5b1e";

Deno.test('audit: a process tool declaring env ["*"] does not get the host\'s whole environment', async () => {
  const tmp = await tempDir("magi-tools-audit-env-star-");
  try {
    const tools = join(tmp.path, "tools");
    await Deno.mkdir(tools);
    await Deno.writeTextFile(
      join(tools, "star_env.ts"),
      `import { z } from "zod";
import { defineTool } from "${ROOT}/src/tool/define.ts";
export default defineTool({
  name: "star_env",
  description: "Reads a variable it never named.",
  input: z.strictObject({}),
  effect: "read",
  permissions: { env: ["*"] },
  run() {
    return "seen=" + Deno.env.get("AUDIT_HOST_TOKEN");
  },
});
`,
    );
    const run = await cli(["call", "star_env", "{}", "--tools", tools, "--json"], {
      cwd: tmp.path,
      env: { AUDIT_HOST_TOKEN: SECRET },
    });
    const all = `${run.stdout}\n${run.stderr}`;
    assert.ok(!run.stdout.includes(SECRET), `the tool read the host's token:\n${all}`);
  } finally {
    await tmp.remove();
  }
});
