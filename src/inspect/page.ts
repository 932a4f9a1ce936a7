/**
 * The inspector's single page: HTML, CSS and plain browser JavaScript in one
 * response, no dependencies, no build step, nothing fetched from elsewhere
 * (works offline). Untrusted text (tool descriptions, results, model output)
 * is only ever set as `textContent`, never parsed as HTML; the script and
 * style carry the per-server CSP nonce. This file is the markup; the CSS is
 * in `page_style.ts`, the script in `page_script.ts` (with its Tools, form and
 * Turns parts), the sign-in button's part in `sign_in_page.ts`.
 *
 * @module
 */

import { PAGE_SCRIPT } from "./page_script.ts";
import { PAGE_STYLE } from "./page_style.ts";
import { SIGN_IN_SCRIPT, SIGN_IN_STYLE } from "./sign_in_page.ts";

/** The page, with `nonce` on its script and style and `agent` shown in the header. */
export function pageHtml(nonce: string, agent: string): string {
  const safeAgent = agent.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>magi-tools inspect</title>
<link rel="icon" href="data:,">
<style nonce="${nonce}">${PAGE_STYLE}${SIGN_IN_STYLE}</style>
</head>
<body>
<header>
  <strong>magi-tools inspect</strong>
  <nav>
    <button data-test="tab-tools" class="tab active" data-tab="tools">Tools</button>
    <button data-test="tab-turns" class="tab" data-tab="turns">Turns</button>
  </nav>
  <span class="muted">backend: ${safeAgent}</span>
  <span id="conn" data-test="connection" class="badge">connecting…</span>
</header>
<main>
  <section id="view-tools" class="view">
    <div id="load-errors" data-test="load-errors" hidden></div>
    <div class="columns">
      <aside>
        <div id="budget" data-test="budget" class="muted"></div>
        <ul id="tool-list" data-test="tool-list"></ul>
      </aside>
      <article id="tool-detail" data-test="tool-detail"><p class="muted">Pick a tool.</p></article>
    </div>
  </section>
  <section id="view-turns" class="view" hidden>
    <div class="columns">
      <aside>
        <h3>Sessions</h3>
        <button data-test="refresh-sessions" id="refresh-sessions">Refresh</button>
        <ul id="session-list" data-test="session-list"></ul>
      </aside>
      <article>
        <div class="row">
          <select id="session" data-test="session-select"><option value="">new session</option></select>
          <button id="run" data-test="run-turn">Run turn</button>
          <button id="cancel" data-test="cancel-turn" disabled>Cancel</button>
          <span id="turn-state" data-test="turn-state" class="muted"></span>
        </div>
        <textarea id="prompt" data-test="prompt" rows="3" placeholder="Prompt"></textarea>
        <div id="approvals" data-test="approvals"></div>
        <h3>Timeline</h3>
        <div id="timeline" data-test="timeline"></div>
        <h3>Assistant</h3>
        <pre id="assistant" data-test="assistant"></pre>
        <details><summary>Records</summary><pre id="records" data-test="records"></pre></details>
        <div id="history" data-test="history"></div>
      </article>
    </div>
  </section>
</main>
<script nonce="${nonce}">${PAGE_SCRIPT}${SIGN_IN_SCRIPT}</script>
</body>
</html>
`;
}
