/**
 * Inspector papercuts (issue 24 items 5 and 11), in headless Chromium: no stray `null` under a
 * result when the tool printed nothing; enum options labelled as a person reads them; no timeline
 * label cut or overlapping another bar; a new session listed without Refresh; a failed turn not
 * shown as a success; a syntax error's banner with its position and line. Screenshots go to
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

async function runTurn(page: Page, prompt: string): Promise<string> {
  await page.fill("[data-test=prompt]", prompt);
  // The previous turn's "finished" must not count for this one.
  await page.$eval("[data-test=turn-state]", (el) => el.textContent = "");
  await page.click("[data-test=run-turn]");
  await page.locator("[data-test=turn-state]", { hasText: /^finished/ }).waitFor({
    timeout: 60_000,
  });
  return (await page.textContent("[data-test=turn-state]")) ?? "";
}

const QUIET = toolSource(`export default defineTool({
  name: "shout",
  description: "Change the case of a text; prints nothing.",
  input: z.strictObject({ text: z.string(), mode: z.enum(["upper", "lower"]) }),
  effect: "read",
  run: ({ text, mode }) => mode === "upper" ? text.toUpperCase() : text.toLowerCase(),
});`);

/**
 * Run `check`; an assertion that fails is kept in `problems` (the page flow goes on), so one run
 * shows every papercut that is back, not only the first.
 */
async function soft(problems: string[], what: string, check: () => Promise<void>): Promise<void> {
  try {
    await check();
  } catch (error) {
    problems.push(`${what}: ${error instanceof Error ? error.message : error}`);
  }
}

Deno.test({
  name:
    "inspect in Chromium: result without log, enum labels, timeline labels, sessions, exit badge",
  ignore: browserTestIgnored("inspect papercuts"),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const inspector = await startInspector();
    try {
      await Deno.writeTextFile(`${inspector.toolsDir}/shout.ts`, QUIET);
      await withBrowser(async (browser) => {
        const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
        const errors: string[] = [];
        const problems: string[] = [];
        page.on("pageerror", (error) => errors.push(error.message));
        await page.goto(inspector.url);
        await page.waitForSelector("[data-test=tool-shout]", { timeout: 30_000 });

        // Enum options by label, and a result with no tool.log: nothing but the result.
        await page.click("[data-test=tool-shout]");
        const form = page.locator("[data-test=call-form]");
        await form.locator("input[name=text]").fill("Hello");
        await soft(problems, "enum labels", async () => {
          const labels = await form.locator("select[name=mode] option").allTextContents();
          assert.deepEqual(labels, ["upper", "lower"]);
          await form.locator("select[name=mode]").selectOption({ label: "upper" }, {
            timeout: 5_000,
          });
        });
        await form.locator("select[name=mode]").selectOption({ index: 0 });
        await page.click("[data-test=call-button]");
        await page.waitForSelector("[data-test=outcome]");
        assert.equal(await page.textContent("[data-test=outcome]"), "success");
        assert.equal(await page.textContent("[data-test=call-result] pre"), "HELLO");
        await soft(problems, "result without tool.log", async () => {
          const resultText = (await page.textContent("[data-test=call-result]"))!;
          assert.doesNotMatch(resultText, /null/, resultText);
          assert.equal(await page.locator("[data-test=tool-log]").count(), 0);
        });
        await shot(page, "papercuts-result");

        // A new session is listed as soon as its turn runs (its first call takes 4 s), without
        // Refresh; it stays listed once the turn finished.
        // (The list the tab loads is complete before the turn starts.)
        const loaded = page.waitForResponse((r) => r.url().includes("/api/sessions"));
        await page.click("[data-test=tab-turns]");
        await loaded;
        const before = await page.locator("[data-test=session-item]").count();
        await page.fill("[data-test=prompt]", "SHORTBAR please");
        await page.click("[data-test=run-turn]");
        await page.waitForSelector("[data-test=bar]", { timeout: 60_000 });
        const records = (await page.textContent("[data-test=records]"))!.trim().split("\n")
          .map((line) => JSON.parse(line));
        const session = records.find((r) => r.type === "session").session_id;
        const listed = `[data-test=session-item]:has-text('${session}')`;
        await soft(problems, "new session listed while its turn runs", async () => {
          await page.waitForSelector(listed, { timeout: 2_000 });
          assert.match((await page.textContent("[data-test=turn-state]"))!, /^running/);
          assert.equal(
            await page.locator(`[data-test=session-select] option[value='${session}']`).count(),
            1,
          );
        });
        await page.locator("[data-test=turn-state]", { hasText: /^finished/ }).waitFor({
          timeout: 60_000,
        });
        assert.match((await page.textContent("[data-test=turn-state]"))!, /completed · exit 0/);
        await page.waitForSelector(listed, { timeout: 30_000 });
        assert.equal(await page.locator("[data-test=session-item]").count(), before + 1);

        // Timeline: a 1 ms call after a 4 s one (warm: a bar of a few pixels at the right end); every
        // label whole and on no other bar.
        const boxes = await page.$$eval("[data-test=bar]", (els) =>
          els.map((el) => {
            const label = el.querySelector(".label") ?? el;
            // The page's window (this function runs in the browser; Deno's types lack the DOM's).
            const view = el.ownerDocument.defaultView as unknown as {
              getComputedStyle(e: unknown): { overflow: string };
            };
            const style = view.getComputedStyle(el);
            const r = label.getBoundingClientRect();
            const b = el.getBoundingClientRect();
            return {
              text: el.textContent,
              clipped: style.overflow !== "visible" && el.scrollWidth > el.clientWidth,
              label: { left: r.left, right: r.right, top: r.top, bottom: r.bottom },
              bar: { left: b.left, right: b.right, top: b.top, bottom: b.bottom },
            };
          }));
        assert.equal(boxes.length, 2, JSON.stringify(boxes));
        const overlaps = (
          a: { left: number; right: number; top: number; bottom: number },
          b: { left: number; right: number; top: number; bottom: number },
        ) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
        await soft(problems, "timeline labels", () => {
          for (const box of boxes) assert.equal(box.clipped, false, JSON.stringify(boxes));
          assert.equal(overlaps(boxes[0]!.label, boxes[1]!.bar), false, JSON.stringify(boxes));
          assert.equal(overlaps(boxes[1]!.label, boxes[0]!.bar), false, JSON.stringify(boxes));
          return Promise.resolve();
        });
        await shot(page, "papercuts-timeline");

        // A successful turn is a green badge; a failed one is not.
        await soft(problems, "exit badge of a successful turn", async () => {
          assert.match((await page.getAttribute("[data-test=turn-state]", "class"))!, /\bok\b/);
        });
        assert.match(await runTurn(page, "FAILTURN now"), /finished: failed.* · exit 1/);
        await soft(problems, "exit badge of a failed turn", async () => {
          assert.match((await page.getAttribute("[data-test=turn-state]", "class"))!, /\bbad\b/);
        });

        // A syntax error: the banner shows where, and the offending line.
        await page.click("[data-test=tab-tools]");
        await Deno.writeTextFile(
          `${inspector.toolsDir}/shout.ts`,
          QUIET.replace("text.toUpperCase()", "text.toUpperCase(("),
        );
        await page.waitForSelector("[data-test=load-error]", { timeout: 30_000 });
        const banner = (await page.textContent("[data-test=load-error]"))!;
        assert.match(banner, /shout\.ts: SyntaxError: /);
        await soft(problems, "syntax error position in the banner", async () => {
          const where = await page.locator("[data-test=load-error-where]").textContent({
            timeout: 5_000,
          });
          assert.match(where!, /^ {2}at .*shout\.ts:\d+:\d+\n {2}\d+ \| .*toUpperCase\(\(/);
        });
        await shot(page, "papercuts-syntax-error");
        assert.deepEqual(problems, []);
        assert.deepEqual(errors, []);
      });
    } finally {
      const code = await inspector.stop();
      assert.equal(code, 130, inspector.stderr());
    }
  },
});
