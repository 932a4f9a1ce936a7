/**
 * The documented least-privilege recipe, run as a user runs it:
 * `deno run $(deno task -q start tools --deno-flags) cli.ts run …`. The flags are
 * computed under the `start` task's own permissions (not `-A`), and `run` then runs
 * under exactly the printed flags.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { one, REFERENCE_AGENT, ROOT } from "./_cli.ts";
import { SummaryRecordSchema } from "../../src/summary/records.ts";

const TOOLS = `${ROOT}tests/e2e/fixtures/session_tools`;
const SETSID = ["/usr/bin/setsid", "/bin/setsid"].find((path) => existsSync(path));
const decoder = new TextDecoder();

Deno.test({
  name: "the --deno-flags recipe: flags printed under the start task include setsid, and tools " +
    "run in their own session under them",
  ignore: SETSID === undefined || Deno.build.os !== "linux" || !existsSync("/bin/cat"),
  async fn() {
    const home = await Deno.makeTempDir({ prefix: "magi-tools-e2e-recipe-" });
    const env = {
      NO_COLOR: "1",
      MAGI_CODE_AGENT: REFERENCE_AGENT,
      MAGI_SCENARIO: `${ROOT}tests/e2e/fixtures/scenarios/session.jsonc`,
      MC_HOME: home,
    };
    try {
      const printed = await new Deno.Command(Deno.execPath(), {
        args: ["task", "-q", "start", "tools", "--tools", TOOLS, "--deno-flags"],
        cwd: ROOT,
        stdin: "null",
        env,
      }).output();
      assert.equal(printed.code, 0, decoder.decode(printed.stderr));
      const flags = decoder.decode(printed.stdout).trim().split(" ");
      const run = flags.find((flag) => flag.startsWith("--allow-run="))?.slice(12).split(",");
      assert.ok(run?.includes(SETSID!), `no --allow-run of ${SETSID}: ${flags.join(" ")}`);
      const output = await new Deno.Command(Deno.execPath(), {
        args: ["run", ...flags, `${ROOT}cli.ts`, "run", "--tools", TOOLS, "SESSION"],
        cwd: ROOT,
        stdin: "null",
        env,
      }).output();
      const stderr = decoder.decode(output.stderr);
      assert.equal(output.code, 0, stderr);
      const records = decoder.decode(output.stdout).trim().split("\n").map((line) =>
        SummaryRecordSchema.parse(JSON.parse(line))
      );
      const result = one(records, "tool.result");
      assert.equal(result.outcome, "success", JSON.stringify(result));
      // The tool's process leads its own session: a terminal's Ctrl-C does not reach it.
      const text = String(one(records, "message").text);
      const match = /pid=(\d+) session=(\d+)/.exec(text);
      assert.ok(match !== null, text);
      assert.equal(match[2], match[1], `the tool shares a session: ${text}`);
    } finally {
      await Deno.remove(home, { recursive: true });
    }
  },
});
