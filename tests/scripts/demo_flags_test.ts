import assert from "node:assert/strict";
import { CONTAINMENT_CANDIDATES, demoFlags } from "../../scripts/demo_flags.ts";

import { root as ROOT } from "../_kit/mod.ts";

Deno.test("demoFlags() without setsid: read tools, run deno, write TMPDIR", () => {
  assert.deepEqual(demoFlags({ deno: "/opt/deno", setsid: null, tmpdir: "/var/tmp/x" }), [
    "--allow-read=tools",
    "--allow-run=/opt/deno",
    "--allow-write=/var/tmp/x",
  ]);
});

Deno.test("demoFlags() with setsid: it and deno are also readable, setsid also runnable", () => {
  assert.deepEqual(demoFlags({ deno: "/opt/deno", setsid: "/usr/bin/setsid", tmpdir: "" }), [
    "--allow-read=tools,/usr/bin/setsid,/opt/deno",
    "--allow-run=/opt/deno,/usr/bin/setsid",
    "--allow-write=/tmp",
  ]);
});

Deno.test("demoFlags() with unshare and setpriv: both readable and runnable (a PID namespace per tool process)", () => {
  const containment = ["/usr/bin/unshare", "/usr/bin/setpriv"];
  assert.deepEqual(
    demoFlags({ deno: "/opt/deno", setsid: "/usr/bin/setsid", tmpdir: "", containment }),
    [
      "--allow-read=tools,/usr/bin/setsid,/usr/bin/unshare,/usr/bin/setpriv,/opt/deno",
      "--allow-run=/opt/deno,/usr/bin/setsid,/usr/bin/unshare,/usr/bin/setpriv",
      "--allow-write=/tmp",
    ],
  );
});

Deno.test("scripts/demo_flags.ts prints the flags for this machine on one line", async () => {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", "--allow-read", "--allow-env=TMPDIR", "scripts/demo_flags.ts"],
    cwd: ROOT,
    env: { NO_COLOR: "1", TMPDIR: "/tmp/demo-flags-test" },
    stdin: "null",
  }).output();
  const stderr = new TextDecoder().decode(output.stderr);
  assert.equal(output.code, 0, stderr);
  const isFile = (path: string) => {
    try {
      return Deno.statSync(path).isFile;
    } catch {
      return false;
    }
  };
  const setsid = ["/usr/bin/setsid", "/bin/setsid"].find(isFile) ?? null;
  const found = CONTAINMENT_CANDIDATES.map((candidates) => candidates.find(isFile));
  const containment = found.every((path) => path !== undefined) ? found as string[] : [];
  const expected = demoFlags({
    deno: Deno.execPath(),
    setsid,
    tmpdir: "/tmp/demo-flags-test",
    containment,
  });
  assert.equal(new TextDecoder().decode(output.stdout), `${expected.join(" ")}\n`);
});

Deno.test("the demo task calls scripts/demo_flags.ts instead of an inline script", async () => {
  const config = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`));
  const demo: string = config.tasks.demo;
  assert.match(
    demo,
    /\$\(deno run --no-prompt --allow-read --allow-env=TMPDIR scripts\/demo_flags\.ts\)/,
  );
  assert.doesNotMatch(demo, /deno eval/);
});
