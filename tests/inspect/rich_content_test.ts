/**
 * Issue 35 item 3 in the inspector (headless Chromium): a rich result's image is shown as an
 * `<img>` from a data: URL that the page's CSP lets load.
 */
import assert from "node:assert/strict";
import { browserTestIgnored, withBrowser } from "../_browser.ts";
import { ROOT, startInspector } from "./_inspector.ts";

const CHART = `import { z } from "zod";
import { content, defineTool, image } from "${ROOT}mod.ts";

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

export default defineTool({
  name: "chart",
  description: "Draw a chart: a caption and a 1x1 PNG.",
  input: z.strictObject({}),
  effect: "read",
  run: () => content("A 1x1 chart:", image(PNG, "image/png")),
});
`;

Deno.test({
  name: "inspect in Chromium: a rich result's image is shown",
  ignore: browserTestIgnored("inspect rich content"),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const inspector = await startInspector();
    try {
      await Deno.writeTextFile(`${inspector.toolsDir}/chart.ts`, CHART);
      await withBrowser(async (browser) => {
        const page = await browser.newPage();
        const errors: string[] = [];
        page.on("pageerror", (error) => errors.push(error.message));
        page.on("console", (message) => {
          if (/Content Security Policy/i.test(message.text())) errors.push(message.text());
        });
        await page.goto(inspector.url);
        await page.waitForSelector("[data-test=tool-chart]", { timeout: 30_000 });
        await page.click("[data-test=tool-chart]");
        await page.click("[data-test=call-button]");
        const img = page.locator("[data-test=result-image]");
        await img.waitFor({ timeout: 30_000 });
        assert.match((await img.getAttribute("src"))!, /^data:image\/png;base64,iVBORw0KGgo/);
        // Decoded, so the CSP let it load.
        const width = await img.evaluate((el) => {
          const image = el as unknown as { decode(): Promise<void>; naturalWidth: number };
          return image.decode().then(() => image.naturalWidth);
        });
        assert.equal(width, 1);
        assert.match((await page.textContent("[data-test=call-result] pre"))!, /A 1x1 chart:/);
        assert.deepEqual(errors, []);
      });
    } finally {
      await inspector.stop();
    }
  },
});
