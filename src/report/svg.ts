/**
 * Small inline SVG charts for the HTML report: horizontal bars and a
 * histogram. Plain strings, no dependencies; every label is escaped.
 *
 * @module
 */

/** Escape text for HTML/SVG content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

/** One bar of {@link barChart}. */
export interface Bar {
  /** Label on the left. */
  label: string;
  /** Value (bar length). */
  value: number;
  /** Text after the bar (default: the value). */
  text?: string;
  /** CSS colour. */
  color?: string;
}

/**
 * Horizontal bars (one row per bar), `id` on the `<svg>`.
 *
 * @example
 * ```ts
 * import { barChart } from "./svg.ts";
 * const svg = barChart("c", "Outcomes", [{ label: "completed", value: 3 }]);
 * console.assert(svg.includes('data-value="3"'));
 * ```
 */
export function barChart(id: string, title: string, bars: readonly Bar[]): string {
  const row = 26;
  const left = 150;
  const width = 640;
  const plot = width - left - 110;
  const height = 30 + row * Math.max(1, bars.length);
  const max = Math.max(1, ...bars.map((b) => b.value));
  const rows = bars.map((bar, i) => {
    const y = 24 + i * row;
    const w = Math.max(bar.value > 0 ? 2 : 0, Math.round((bar.value / max) * plot));
    return `<g class="bar"><text x="${left - 8}" y="${y + 14}" text-anchor="end">${
      escapeHtml(bar.label)
    }</text><rect x="${left}" y="${y}" width="${w}" height="${row - 8}" fill="${
      bar.color ?? "#4c78a8"
    }" data-value="${bar.value}"><title>${
      escapeHtml(`${bar.label}: ${bar.text ?? bar.value}`)
    }</title></rect><text x="${left + w + 6}" y="${y + 14}">${
      escapeHtml(bar.text ?? String(bar.value))
    }</text></g>`;
  });
  return `<svg id="${escapeHtml(id)}" role="img" aria-label="${
    escapeHtml(title)
  }" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}"><text x="0" y="14" class="title">${
    escapeHtml(title)
  }</text>${rows.join("")}</svg>`;
}

/** One column of {@link columnChart}. */
export interface Column {
  /** Label under the column. */
  label: string;
  /** Height value. */
  value: number;
}

/** Vertical columns (a histogram), `id` on the `<svg>`. */
export function columnChart(id: string, title: string, columns: readonly Column[]): string {
  const width = 640;
  const height = 230;
  const top = 36;
  const bottom = 190;
  const left = 36;
  const plot = width - left - 10;
  const max = Math.max(1, ...columns.map((c) => c.value));
  const w = columns.length === 0 ? 0 : plot / columns.length;
  const bars = columns.map((c, i) => {
    const h = Math.round((c.value / max) * (bottom - top));
    const x = left + i * w;
    return `<g class="column"><rect x="${x + 2}" y="${bottom - h}" width="${
      Math.max(1, w - 4)
    }" height="${h}" fill="#72b7b2" data-value="${c.value}"><title>${
      escapeHtml(`${c.label}: ${c.value}`)
    }</title></rect><text x="${x + w / 2}" y="${bottom + 14}" text-anchor="middle" class="small">${
      escapeHtml(c.label)
    }</text>${
      c.value > 0
        ? `<text x="${x + w / 2}" y="${
          bottom - h - 4
        }" text-anchor="middle" class="small">${c.value}</text>`
        : ""
    }</g>`;
  });
  return `<svg id="${escapeHtml(id)}" role="img" aria-label="${
    escapeHtml(title)
  }" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}"><text x="0" y="14" class="title">${
    escapeHtml(title)
  }</text><line x1="${left}" y1="${bottom}" x2="${width - 10}" y2="${bottom}" stroke="#888"/>${
    bars.join("")
  }</svg>`;
}
