import assert from "node:assert/strict";
import { renderHtml } from "../../src/report/html.ts";
import { loadBatches } from "../../src/report/load.ts";
import { computeStats } from "../../src/report/stats.ts";
import { chromiumPath, dumpDom } from "../batch/_chromium.ts";
import { sampleItems, writeFolder } from "./_fixture.ts";

const browser = chromiumPath();

Deno.test({
  name: "report HTML in headless Chromium: charts drawn, the chosen item's timeline on a time axis",
  ignore: browser === null,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "magi-report-browser-" });
    try {
      const items = sampleItems(16);
      await writeFolder(`${dir}/out`, items);
      const batch = await loadBatches([`${dir}/out`]);
      const file = `${dir}/report.html`;
      await Deno.writeTextFile(file, renderHtml(batch, computeStats(batch), { item: "case-004" }));
      const url = `file://${file}`;
      for (const [address, id] of [[url, "case-004"], [`${url}#item=case-009`, "case-009"]]) {
        const dom = await dumpDom(address!);
        // The page script ran to its end (it sets data-ready last).
        assert.match(dom, /<body[^>]*data-ready="1"/, "the page script ran");
        const timeline = /<svg id="timeline"[^>]*>([\s\S]*?)<\/svg>/.exec(dom);
        assert.ok(timeline !== null, "timeline drawn");
        assert.match(timeline[0], new RegExp(`data-item="${id}"`));
        const calls = items.find((i) => i.id === id)!.calls;
        assert.equal(timeline[1]!.match(/class="call"/g)?.length, calls.length);
        for (const [name] of calls) assert.ok(timeline[1]!.includes(`>${name}<`));
        assert.match(timeline[1]!, />0 ms</, "time axis starts at 0");
        // The select lists every item with its timeline.
        assert.equal(dom.match(/<option value="case-/g)?.length, items.length);
        // Static charts: four outcomes, a histogram, p50/p95 per tool.
        const outcomes = /<svg id="chart-outcomes"[\s\S]*?<\/svg>/.exec(dom)![0];
        assert.equal(outcomes.match(/<rect /g)?.length, 4);
        assert.match(dom, /<svg id="chart-durations"/);
        const tools = /<svg id="chart-tools"[\s\S]*?<\/svg>/.exec(dom)![0];
        assert.equal(tools.match(/<rect /g)?.length, 4); // lookup, fetch_page × p50, p95
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
