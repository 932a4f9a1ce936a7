/**
 * The inspector in a real browser (headless Chromium): load the page, call a
 * tool through the generated form, run a turn and see the timeline, allow an
 * approval, cancel a turn, break a tool file and see the error, fix it and
 * see the reload, browse sessions. Screenshots of each view go to
 * tests/.artifacts/inspect/.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { ARTIFACTS, browserTestIgnored, withBrowser } from "../_browser.ts";
import { startInspector, toolSource } from "./_inspector.ts";

const SHOTS = `${ARTIFACTS}inspect/`;

async function shot(page: Page, name: string): Promise<void> {
  await Deno.mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}${name}.png`, fullPage: true });
}

/** Wait until the page says the turn finished. */
async function turnFinished(page: Page): Promise<void> {
  await page.locator("[data-test=turn-state]", { hasText: /^finished/ }).waitFor({
    timeout: 60_000,
  });
}

/** Run a turn from the page and wait until it finished; returns the state line. */
async function runTurn(page: Page, prompt: string): Promise<string> {
  await page.fill("[data-test=prompt]", prompt);
  await page.click("[data-test=run-turn]");
  await turnFinished(page);
  return (await page.textContent("[data-test=turn-state]")) ?? "";
}

Deno.test({
  name: "inspect in Chromium: tools, form call, turns with timeline, approval, cancel, reload",
  ignore: browserTestIgnored("inspect"),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const inspector = await startInspector();
    try {
      await withBrowser(async (browser) => {
        const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
        const errors: string[] = [];
        page.on("pageerror", (error) => errors.push(error.message));
        page.on("console", (message) => {
          if (message.type() === "error") errors.push(message.text());
        });
        await page.goto(inspector.url);

        // Tools: every tool listed with its effect; the form for form_echo.
        await page.waitForSelector("[data-test=tool-form_echo]");
        await page.waitForSelector("[data-test=connection]:has-text('live')");
        const names = await page.$$eval(
          "[data-test=tool-list] li",
          (els) => els.map((el) => el.textContent),
        );
        assert.deepEqual(names, ["form_echo read", "note write", "slow read"]);
        assert.match((await page.textContent("[data-test=budget]"))!, /3 tool\(s\) · initialize/);
        await page.click("[data-test=tool-form_echo]");
        assert.match((await page.textContent("[data-test=permissions]"))!, /no permissions/);
        const form = page.locator("[data-test=call-form]");
        await form.locator("input[name=title]").fill("Hello");
        await form.locator("input[name=count]").fill("3");
        await form.locator("input[name=loud]").check();
        await form.locator("select[name=color]").selectOption({ label: "green" });
        await page.click("[data-test=add-tags]");
        await page.click("[data-test=add-tags]");
        await form.locator("input[name='tags[0]']").fill("x");
        await form.locator("input[name='tags[1]']").fill("y");
        await form.locator("fieldset[data-field=owner] input[name=name]").fill("Ada");
        await form.locator("fieldset[data-field=owner] input[name=age]").fill("36");
        await page.click("[data-test=call-button]");
        await page.waitForSelector("[data-test=outcome]");
        assert.equal(await page.textContent("[data-test=outcome]"), "success");
        const echoed = JSON.parse((await page.textContent("[data-test=call-result] pre"))!);
        assert.deepEqual(echoed, {
          title: "Hello",
          count: 3,
          loud: true,
          color: "green",
          tags: ["x", "y"],
          owner: { name: "Ada", age: 36 },
        });
        assert.match((await page.textContent("[data-test=tool-log]"))!, /form_echo called/);
        assert.match(
          (await page.textContent("[data-test=duration]"))!,
          /\d+ ms · \d+ bytes · 1 part/,
        );
        await shot(page, "tools");

        // The raw-JSON fallback, and a tool error shown as a result.
        await page.check("[data-test=raw-toggle]");
        await page.fill("[data-test=raw-json]", '{"title": 5}');
        await page.click("[data-test=call-button]");
        await page.waitForSelector("[data-test=outcome]:has-text('invalid_arguments')");

        // Turns: two concurrent calls are two bars on separate rows of the time axis.
        await page.click("[data-test=tab-turns]");
        assert.match(await runTurn(page, "TIMELINE please"), /finished: completed/);
        const bars = await page.$$eval("[data-test=bar]", (els) =>
          els.map((el) => ({
            row: el.getAttribute("data-row"),
            text: el.textContent,
            cls: el.className,
          })));
        assert.equal(bars.length, 2, JSON.stringify(bars));
        assert.deepEqual(bars.map((b) => b.row).sort(), ["0", "1"]);
        for (const bar of bars) assert.match(bar.cls, /success/);
        assert.match((await page.textContent("[data-test=assistant]"))!, /Timeline done/);
        await shot(page, "turns");

        // An approval answered from the page, when the call arrives: the tool and its arguments.
        await page.fill("[data-test=prompt]", "APPROVE this");
        await page.click("[data-test=run-turn]");
        await page.waitForSelector("[data-test=approval]", { timeout: 60_000 });
        assert.match((await page.textContent("[data-test=approval]"))!, /note/);
        const fields = await page.$$eval(
          "[data-test=approval-args] dt",
          (els) => els.map((el) => el.textContent),
        );
        assert.ok(fields.length > 0, "the page shows the call's argument fields");
        await shot(page, "approval");
        await page.click("[data-test=approve-allow]");
        await turnFinished(page);
        const records = (await page.textContent("[data-test=records]"))!.trim().split("\n")
          .map((line) => JSON.parse(line));
        const host = records.find((r) => r.type === "approval" && r.approval_id !== undefined);
        assert.equal(host.decided_by, "host");
        const approval = records.find((r) => r.type === "approval" && r.call_id !== undefined);
        assert.equal(approval.decision, "allow");
        assert.equal(approval.decided_by, "user");
        assert.match((await page.textContent("[data-test=assistant]"))!, /noted hello/);

        // Cancel a running turn: turn.cancel, the tool is cancelled, the run ends cancelled.
        await page.fill("[data-test=prompt]", "CANCEL me");
        await page.click("[data-test=run-turn]");
        // The call is running (its bar has no duration yet).
        await page.waitForSelector("[data-test=bar]:has-text('slow …')", { timeout: 60_000 });
        await page.click("[data-test=cancel-turn]");
        await turnFinished(page);
        assert.match(
          (await page.textContent("[data-test=turn-state]"))!,
          /finished: cancelled by signal · exit 130/,
          (await page.textContent("[data-test=records]"))! + inspector.stderr(),
        );
        await page.waitForSelector("[data-test=bar].cancelled");

        // Sessions: the turns above are listed; a session's history opens.
        await page.click("[data-test=refresh-sessions]");
        await page.waitForSelector("[data-test=session-item]");
        await page.click("[data-test=session-item] >> nth=0");
        await page.waitForSelector("[data-test=history-entry]", { timeout: 30_000 });

        // Live reload: a broken tool file shows its error, the old set stays; a fix reloads.
        await page.click("[data-test=tab-tools]");
        await page.click("[data-test=tool-form_echo]");
        await page.uncheck("[data-test=raw-toggle]");
        await page.locator("[data-test=call-form] input[name=title]").fill("kept");
        await Deno.writeTextFile(`${inspector.toolsDir}/slow.ts`, "export default 42;\n");
        await page.waitForSelector("[data-test=load-error]", { timeout: 30_000 });
        const problem = (await page.textContent("[data-test=load-error]"))!;
        assert.match(problem, /slow\.ts: default export is not a defineTool\(\) result/);
        assert.equal(await page.locator("[data-test=tool-list] li").count(), 3);
        // A failed reload leaves the set, and the form's input, as they were.
        assert.equal(
          await page.locator("[data-test=call-form] input[name=title]").inputValue(),
          "kept",
        );
        await shot(page, "reload-error");
        await Deno.writeTextFile(
          `${inspector.toolsDir}/slow.ts`,
          toolSource(`export default defineTool({
  name: "slower",
  description: "Renamed while the inspector runs.",
  input: z.strictObject({}),
  effect: "read",
  run: () => "ok",
});`),
        );
        await page.waitForSelector("[data-test=tool-slower]", { timeout: 30_000 });
        assert.equal(await page.locator("[data-test=load-errors]").isHidden(), true);
        assert.equal(await page.locator("[data-test=tool-slow]").count(), 0);
        await shot(page, "reloaded");
        assert.deepEqual(errors, []);
      });
    } finally {
      const code = await inspector.stop();
      assert.equal(code, 130, inspector.stderr());
    }
  },
});
