/**
 * Help texts of `batch` and `report` (`magi-tools batch --help`).
 *
 * @module
 */

/** `batch --help`. */
export const BATCH_HELP = `Usage: magi-tools batch INPUT.jsonl --out DIR [options]

Runs one turn per input line, up to --jobs at once; each slot keeps one backend
for many items (a new session per item). Resumable: run the same command again
and the items already finished in DIR are skipped.

Input: one JSON object per line: {"id": "...", "prompt": "...", "session"?: "...",
"cwd"?: "..."}; id matches ^[A-Za-z0-9._-]{1,64}$ and is unique; cwd is a
directory inside --cwd (by real path). Any bad line is a usage error (exit 2)
naming its line, before anything runs.

Output: DIR/items/<id>.ndjson (the item's summary records, as run prints them),
DIR/index.jsonl (one line per finished item); stdout: one JSON summary line;
stderr: a progress line when it is a terminal.

Options:
  --out DIR            output folder (created; reused to resume)
  --jobs N             turns at once, one backend each (1..64, default 1)
  --shard K/N          only the items whose id hashes to share K of N
  --retry-failed       also rerun the items whose last result failed
  --tools DIR          tool directory (repeatable; default ./tools, which may be
                       missing when the config has an MCP server or OpenAPI API)
  --agent CMD          backend command line (as for run)
  --cwd DIR            working directory of items without their own cwd; every
                       item's cwd must lie inside it
  --approve MODE       deny | allow (default deny); repeatable, rules per tool as
                       for run (allow=file_ticket --approve deny); ask is refused
  --deltas             also record message.delta
  --timeout SECONDS    deadline of each item's turn (as run's --timeout); a backend
                       start has its own deadline, --start-timeout
  --start-timeout SECONDS
                       deadline of each backend start, spawn to its initialize answer
                       (default 60)
  --stall-timeout SECONDS
                       backend liveness probe (as run's; default 60, 0 disables)
  --progress WHEN      auto | always | never (default auto: when stderr is a terminal)
  --fail-on-tool-error an item with a tool error or denial exits 1 (as for run)
  --record-args        put each call's arguments, configured secrets redacted, on
                       its tool.call record, and a typed tool's value on its tool.result
                       (also: "records": {"arguments": true})

Exit codes:
  0    every item of the input (or shard) completed
  1    some item failed, or was not run
  2    usage error: flag, input line, --out folder (or another batch holds
       its lock: the message names its PID and host), tool module
  3    no backend: none named and magi-code not on PATH (--agent reference names
       the scripted reference backend)
  130  interrupted (Ctrl-C cancels the running turns; run again to resume)
  143  stopped by SIGTERM (as Ctrl-C)
`;

/** `report --help`. */
export const REPORT_HELP =
  `Usage: magi-tools report DIR... [--markdown FILE] [--html FILE] [--item ID]

Merges the output folders of a batch (or of its shards) and writes a report:
totals by outcome, slowest items, tool calls by tool (error rate, p50/p95),
failed items with their error. Without --markdown and --html the Markdown goes
to stdout.

Options:
  --markdown FILE      write the Markdown report (- for stdout); fits
                       $GITHUB_STEP_SUMMARY
  --html FILE          write one self-contained HTML file with charts (no network)
  --item ID            the item whose tool-call timeline the HTML shows first
                       (default: the slowest item with tool calls)

Exit codes:
  0    written
  2    usage error: a DIR without index.jsonl, an index line that is not a valid
       entry (file:line and field named), an unwritable file, an unknown --item
`;
