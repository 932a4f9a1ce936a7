import assert from "node:assert/strict";
import { renderHtml } from "../../src/report/html.ts";
import { loadBatches } from "../../src/report/load.ts";
import { computeStats } from "../../src/report/stats.ts";
import { ARTIFACTS, browserTestIgnored, withBrowser } from "../_browser.ts";
import { sampleItems, writeFolder } from "./_fixture.ts";

/** The timeline as the page shows it. */
interface Timeline {
  item: string | null;
  bars: { x: number; width: number }[];
  ticks: (string | null)[];
  box: number;
}

Deno.test({
  name:
    "report HTML in headless Chromium: offline, charts drawn, a chosen item's tool calls on a time axis",
  ignore: browserTestIgnored("report HTML"),
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "magi-report-browser-" });
    try {
      const items = sampleItems(16);
      await writeFolder(`${dir}/out`, items);
      const batch = await loadBatches([`${dir}/out`]);
      const file = `${dir}/report.html`;
      await Deno.writeTextFile(file, renderHtml(batch, computeStats(batch), { item: "case-004" }));
      const url = `file://${file}`;
      await withBrowser(async (browser) => {
        const page = await browser.newPage({ viewport: { width: 1000, height: 1250 } });
        const requests: string[] = [];
        const errors: string[] = [];
        page.on("request", (request) => requests.push(request.url()));
        page.on("pageerror", (error) => errors.push(String(error)));
        page.on("console", (message) => {
          if (message.type() === "error") errors.push(message.text());
        });
        await page.goto(url);
        await page.waitForSelector("body[data-ready='1']", { timeout: 30_000 });
        // Everything is inline: the page itself is the only request, and nothing failed.
        assert.deepEqual(requests.map((r) => r.split("#")[0]), [url]);
        assert.deepEqual(errors, []);

        // Page code is a string: it runs in the browser (no DOM types in this program).
        const timeline = async () =>
          await page.evaluate<Timeline>(`(() => {
            const svg = document.getElementById("timeline");
            return {
              item: svg.getAttribute("data-item"),
              bars: [...svg.querySelectorAll("rect.call")].map((r) => ({
                x: Number(r.getAttribute("x")),
                width: Number(r.getAttribute("width")),
              })),
              ticks: [...svg.querySelectorAll("text.small")].map((t) => t.textContent),
              box: svg.getBoundingClientRect().width,
            };
          })()`);
        const first = await timeline();
        assert.equal(first.item, "case-004");
        const calls = items.find((i) => i.id === "case-004")!.calls;
        assert.equal(first.bars.length, calls.length);
        assert.equal(first.ticks[0], "0 ms", "the time axis starts at 0");
        assert.ok(first.box > 500, "the timeline is laid out");
        // Bars are placed in time order along the axis.
        for (let i = 1; i < first.bars.length; i++) {
          assert.ok(first.bars[i]!.x > first.bars[i - 1]!.x);
        }

        // Choosing another item in the list redraws the timeline for it.
        await page.selectOption("#item-select", "case-008");
        await page.waitForFunction(
          `document.getElementById("timeline").getAttribute("data-item") === "case-008"`,
        );
        const second = await timeline();
        assert.equal(second.bars.length, items.find((i) => i.id === "case-008")!.calls.length);

        // Static charts: four outcome bars, a histogram, p50 and p95 per tool.
        const counts = await page.evaluate<
          { outcomes: number; columns: number; latency: number; options: number }
        >(`({
          outcomes: document.querySelectorAll("#chart-outcomes rect").length,
          columns: document.querySelectorAll("#chart-durations rect").length,
          latency: document.querySelectorAll("#chart-tools rect").length,
          options: document.querySelectorAll("#item-select option").length,
        })`);
        assert.equal(counts.outcomes, 5); // OUTCOMES: completed, completed exit ≠ 0, failed, …
        assert.ok(counts.columns > 1);
        assert.equal(counts.latency, 4); // lookup and fetch_page, p50 and p95
        assert.equal(counts.options, items.length);
        await Deno.mkdir(ARTIFACTS, { recursive: true });
        await page.screenshot({ path: `${ARTIFACTS}report.png`, fullPage: true });
        assert.deepEqual(errors, []);
      });
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
