/**
 * `report`: one or more `batch` output folders merged into Markdown (fits
 * `$GITHUB_STEP_SUMMARY`) and one self-contained HTML page with inline SVG charts.
 *
 * Parts: `load.ts` (read and merge folders), `stats.ts` (totals, percentiles, per-tool
 * numbers), `markdown.ts`, `svg.ts` and `html.ts` (the renderings), `command.ts`.
 *
 * @module
 */

export { reportCommand, type ReportOptions } from "./command.ts";
