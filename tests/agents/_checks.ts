/**
 * The checks every agent's run must pass, as test steps, and the report of what the run and the
 * mock saw (printed for every run: the reader of a failed test needs it).
 *
 * @module
 */

import assert from "node:assert/strict";
import type { AgentRun } from "./_run.ts";
import {
  FINAL_TEXT,
  FIXTURE_TOOLS,
  PROBE_START_MS,
  SAVE_NOTE_TEXT,
  type Scenario,
} from "./_scenario.ts";

/** Print what the run and the mock saw: the reader of a failed test needs it. */
export function report(name: string, run: AgentRun, scenario: Scenario): void {
  const { mock } = scenario;
  // For looking into an agent's requests: MAGI_TOOLS_AGENT_DUMP=DIR writes them to DIR/NAME.json.
  const dump = Deno.env.get("MAGI_TOOLS_AGENT_DUMP");
  if (dump !== undefined) {
    Deno.writeTextFileSync(
      `${dump}/${name}.json`,
      JSON.stringify(
        {
          run,
          requests: mock.requests.map((r) => ({
            ...r,
            results: [...r.results],
          })),
        },
        null,
        1,
      ),
    );
  }
  console.error(
    `--- ${name}: exit ${run.code} (signal ${run.signal}), ${run.ms} ms, timed out ${run.timedOut}, ` +
      `leftover processes ${run.leftovers}; model requests ${mock.requests.length} ` +
      `(main ${mock.mainRequests.length}); refused outbound ${JSON.stringify(mock.refused)}; ` +
      `unknown model paths ${JSON.stringify(mock.unknown)}`,
  );
  if (run.code !== 0 || run.timedOut) {
    console.error(`--- ${name} stdout (tail):\n${run.stdout.slice(-3000)}`);
    console.error(`--- ${name} stderr (tail):\n${run.stderr.slice(-3000)}`);
  }
}

/** How a write call under `--approve ask` (the default) ends with a given client. */
export type AskOutcome =
  | "refused: the client has no elicitation"
  | "declined through elicitation"
  | "approved through elicitation";

/** The checks every agent must pass, as test steps. */
export async function commonChecks(
  t: Deno.TestContext,
  run: AgentRun,
  scenario: Scenario,
  options: {
    /** Outbound requests the agent makes on its own, refused and accepted (named per agent). */
    allowedOutbound?: RegExp[];
    /** What the model reads for the invalid call, when the agent validates before the server. */
    invalidCall?: RegExp;
    /** What the model reads for the call the agent cancelled at its own timeout (step 6). */
    cancelled?: RegExp;
    /** How the agent marks a tool error for the model, where its API has a mark. */
    errorFlag?: RegExp;
    /** What the server's `ask` policy does with this client's write call (step 4). */
    ask: AskOutcome;
  },
): Promise<void> {
  const { mock } = scenario;
  const result = (step: number): string => {
    const text = mock.resultOf(step);
    assert.ok(
      text !== undefined,
      `the model never received the result of step ${step} (${
        JSON.stringify(scenario.steps[step])
      })`,
    );
    return text;
  };

  await t.step("the agent exits 0 within its time bound", () => {
    assert.equal(run.timedOut, false, "the agent was killed at its time bound");
    assert.equal(run.code, 0, `exit code ${run.code}`);
  });

  await t.step("no process of the agent's group outlives it", () => {
    assert.equal(run.leftovers, false);
  });

  await t.step("the tools reach the model with their schemas", () => {
    const first = mock.mainRequests[0];
    assert.ok(first !== undefined, "no model request listed the fixture tools");
    // keep_note (the --approve allow server's) and probe_ready have their own steps.
    for (const tool of FIXTURE_TOOLS.filter((n) => n !== "keep_note" && n !== "probe_ready")) {
      assert.ok(
        first.tools.some((t) => t.name.endsWith(tool)),
        `${tool} is not listed`,
      );
    }
    const lookup = first.tools.find((t) => t.name.endsWith("lookup_color"));
    const schema = JSON.stringify(lookup?.schema);
    assert.match(
      schema,
      /"teal","coral","navy"/,
      `lookup_color's enum is lost: ${schema}`,
    );
    assert.match(schema, /"name"/);
  });

  await t.step(`a server that takes ${PROBE_START_MS} ms to start is in the first turn`, () => {
    const first = mock.mainRequests[0];
    assert.ok(
      first?.tools.some((tool) => tool.name.endsWith("probe_ready")),
      "probe_ready missing",
    );
  });

  await t.step("a call's result reaches the model's next request", () => {
    const text = result(0);
    assert.match(text, /#008080/);
    assert.match(text, /magi-fixture-7f3a/);
  });

  await t.step("an invalid call comes back as a tool error", () => {
    const text = result(1);
    if (options.errorFlag !== undefined) {
      assert.match(text, options.errorFlag, "not marked as an error");
    }
    assert.match(text, options.invalidCall ?? /Invalid arguments: name/);
    assert.doesNotMatch(text, /#008080|#800080/);
  });

  await t.step("a tool that throws comes back as a tool error", () => {
    const text = result(2);
    if (options.errorFlag !== undefined) {
      assert.match(text, options.errorFlag, "not marked as an error");
    }
    assert.match(text, /Record not found: r-17/);
  });

  await t.step(
    "a timed-out call ends cleanly with the host's timeout error",
    () => {
      const text = result(3);
      if (options.errorFlag !== undefined) {
        assert.match(text, options.errorFlag, "not marked as an error");
      }
      assert.match(text, /timed out/i);
      assert.doesNotMatch(text, /waited_seconds/);
    },
  );

  const elicits = options.ask !== "refused: the client has no elicitation";
  await t.step(
    `the client ${elicits ? "declares" : "does not declare"} MCP elicitation`,
    async () => {
      assert.equal(
        await scenario.declaresElicitation(),
        elicits,
        JSON.stringify(await scenario.clientInit()),
      );
    },
  );

  await t.step(`a write tool under the default policy (ask): ${options.ask}`, async () => {
    const text = result(4);
    const written = await Deno.readTextFile(`${scenario.work}/out/agent-note.txt`).catch(() =>
      null
    );
    if (options.ask === "approved through elicitation") {
      assert.equal(written, SAVE_NOTE_TEXT, "save_note did not run although approved");
      assert.match(text, /agent-note\.txt/);
      return;
    }
    assert.equal(written, null, "save_note ran without approval");
    if (options.ask === "refused: the client has no elicitation") {
      // The server's tool error names the way out (the decided text: the write tool was not
      // run; start the server with --approve allow).
      assert.match(text, /not run/i, `unexpected answer: ${text}`);
      assert.match(text, /--approve allow/, `unexpected answer: ${text}`);
    } else {
      assert.match(text, /not run|declined|cancel/i, `unexpected answer: ${text}`);
    }
  });

  await t.step(
    "a write tool of a server started with --approve allow runs",
    async () => {
      assert.ok(
        mock.mainRequests[0]?.tools.some((tool) => tool.name.endsWith("keep_note")),
        "keep_note is not listed: the server started with --approve allow is missing",
      );
      const text = result(5);
      assert.match(text, /agent-kept\.txt/);
      assert.equal(
        await Deno.readTextFile(`${scenario.work}/out/agent-kept.txt`).catch(() => null),
        "kept with --approve allow",
      );
    },
  );

  await t.step("a call the agent cancels (its own tool timeout) ends cleanly", async () => {
    const text = result(6);
    assert.match(text, options.cancelled ?? /timed out|timeout|cancel/i, text);
    assert.doesNotMatch(text, /waited_seconds/);
    // The agent's cancel reached the tool: its abort handler wrote the marker.
    const marker = await Deno.readTextFile(`${scenario.work}/agent-cancelled.txt`).catch(() =>
      null
    );
    assert.ok(marker !== null, "the tool was never cancelled (no agent-cancelled.txt)");
  });

  await t.step("the final answer reaches the agent's output", () => {
    assert.ok(
      run.stdout.includes(FINAL_TEXT),
      `stdout lacks the final text: ${run.stdout.slice(-500)}`,
    );
  });

  await t.step("no outbound request besides the mock model", () => {
    const allowed = options.allowedOutbound ?? [];
    const refused = mock.refused.filter((r) => !allowed.some((re) => re.test(r)));
    assert.deepEqual(
      refused,
      [],
      "refused outbound requests (the agent tried to reach these)",
    );
  });

  await t.step(
    "nothing of the host's state is left in the user's project",
    async () => {
      // issue 26 item 2: the server made `.magi-tools/cache/key` in the agent's working directory.
      assert.equal(
        await exists(`${scenario.work}/.magi-tools`),
        false,
        ".magi-tools/ was created",
      );
    },
  );
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}
