/**
 * One run (`turn.ts`): run events in order with backpressure (`channel.ts`), what the scripted
 * provider's steps do (`run_steps.ts`), client tool calls and approvals of the run
 * (`run_calls.ts`, `approvals.ts`), assistant content budgets (`segments.ts`), tool cards
 * (`cards.ts`) and bounded summary texts (`bounded_text.ts`).
 *
 * @module
 */

export { ApprovalBook } from "./approvals.ts";
export { EventChannel } from "./channel.ts";
export { Run } from "./turn.ts";
