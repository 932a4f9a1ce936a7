import assert from "node:assert/strict";
import { denialLine, deniedTarget } from "../../src/sandbox/denial.ts";

Deno.test("deniedTarget() reads what Deno's denial names", () => {
  assert.equal(
    deniedTarget('Requires read access to "/etc/passwd", run again with the --allow-read flag'),
    "/etc/passwd",
  );
  assert.equal(deniedTarget("Requires env access"), undefined);
});

Deno.test("denialLine() names the denied path, host or variable and the permissions key to add", () => {
  const tool = { name: "t", file: "tools/t.ts" };
  assert.equal(
    denialLine({ ...tool, permission: "env" }, 'Requires env access to "API_KEY", run again'),
    'Tool t was denied env access to "API_KEY": add "API_KEY" to permissions.env in tools/t.ts',
  );
  assert.equal(
    denialLine({ ...tool, permission: "sys" }, "Requires sys access"),
    "Tool t was denied sys access: add what it needs to permissions.sys in tools/t.ts",
  );
  assert.match(
    denialLine({ ...tool, permission: "import" }, 'Requires import access to "x.com:443"'),
    /denied import access to "x\.com:443" \(tools\/t\.ts\); tool permissions cannot grant it$/,
  );
});
