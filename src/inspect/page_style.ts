/**
 * The inspector page's CSS (`page.ts` puts it in the page's one `<style>`, with
 * the sign-in controls' from `sign_in_page.ts` after it).
 *
 * @module
 */

/** CSS of the page: layout, tabs, badges, the call form, the timeline and approvals. */
export const PAGE_STYLE = String.raw`
:root { font: 14px/1.4 system-ui, sans-serif; color: #1d2433; background: #f6f7f9; }
header { display: flex; gap: 1em; align-items: center; padding: .5em 1em; background: #1d2433; color: #fff; }
header .muted { color: #aab; }
nav { display: flex; gap: .25em; }
.tab { background: #334; color: #fff; border: 0; padding: .3em .8em; border-radius: 4px; cursor: pointer; }
.tab.active { background: #4a6cf7; }
main { padding: 1em; }
.columns { display: grid; grid-template-columns: 260px 1fr; gap: 1em; }
aside ul { list-style: none; padding: 0; margin: .5em 0; }
aside li { padding: .35em .5em; border-radius: 4px; cursor: pointer; margin-bottom: 2px; background: #fff; }
aside li.selected { background: #dfe6ff; }
article { background: #fff; padding: 1em; border-radius: 6px; min-width: 0; }
.muted { color: #667; }
.badge { font-size: 12px; padding: .1em .5em; border-radius: 8px; background: #e3e6ee; color: #1d2433; }
.badge.write { background: #ffe2c6; } .badge.read { background: #d8f3dc; }
.badge.ok { background: #d8f3dc; } .badge.bad { background: #ffd6d6; }
pre { background: #f2f3f6; padding: .5em; overflow: auto; max-height: 24em; white-space: pre-wrap; word-break: break-word; }
#load-errors { background: #ffd6d6; border: 1px solid #e99; padding: .5em 1em; border-radius: 6px; margin-bottom: 1em; }
fieldset { border: 1px solid #dde; margin: .25em 0; }
label { display: block; margin: .35em 0; }
label > span { display: inline-block; min-width: 9em; font-family: ui-monospace, monospace; }
input[type=text], input[type=number], textarea, select { font: inherit; padding: .2em .4em; }
textarea { width: 100%; box-sizing: border-box; font-family: ui-monospace, monospace; }
button { font: inherit; padding: .25em .8em; cursor: pointer; }
.row { display: flex; gap: .5em; align-items: center; margin-bottom: .5em; }
#timeline { position: relative; background: #f2f3f6; min-height: 2em; border-radius: 4px; }
.bar { position: absolute; height: 22px; border-radius: 3px; font-size: 12px; overflow: hidden; white-space: nowrap; padding: 0 4px; box-sizing: border-box; color: #fff; background: #4a6cf7; }
.bar.label-after, .bar.label-before { overflow: visible; }
.bar.label-after > .label { position: absolute; left: 100%; padding-left: 4px; color: #1d2433; }
.bar.label-before > .label { position: absolute; right: 100%; padding-right: 4px; color: #1d2433; }
.bar.success { background: #2b9348; } .bar.error { background: #d62828; } .bar.cancelled { background: #888; }
.approval { background: #fff4d6; border: 1px solid #e8c766; padding: .5em; border-radius: 6px; margin: .5em 0; }
.approval-args dt { font-family: monospace; font-weight: bold; }
.approval-args dd { font-family: monospace; margin: 0 0 .3em 1.5em; white-space: pre-wrap; overflow-wrap: anywhere; }
.part { border-left: 3px solid #4a6cf7; padding-left: .5em; margin: .25em 0; }
`;
