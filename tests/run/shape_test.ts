/**
 * The run engine stays in small pieces (issue 25): no file in `src/run/` over 400 lines and
 * no function there over 100 lines, measured by `_shape.ts` (Deno's TypeScript parser; see
 * its module doc for how lines are counted).
 */

import assert from "node:assert/strict";
import { measureFile, measureSource, tsFiles } from "./_shape.ts";

const RUN_DIR = new URL("../../src/run", import.meta.url).pathname;
const MAX_FILE_LINES = 400;
const MAX_FUNCTION_LINES = 100;

Deno.test(`no file in src/run/ has more than ${MAX_FILE_LINES} lines`, async () => {
  const files = await tsFiles(RUN_DIR);
  assert.ok(files.length >= 20, `found the engine's files: ${files.length}`);
  const shapes = await Promise.all(files.map(measureFile));
  const over = shapes.filter((s) => s.lines > MAX_FILE_LINES).map((s) => `${s.path}: ${s.lines}`);
  assert.deepEqual(over, []);
});

Deno.test(`no function in src/run/ has more than ${MAX_FUNCTION_LINES} lines`, async () => {
  const shapes = await Promise.all((await tsFiles(RUN_DIR)).map(measureFile));
  const functions = shapes.flatMap((s) => s.functions);
  assert.ok(functions.length >= 100, `found the engine's functions: ${functions.length}`);
  const over = functions.filter((f) => f.lines > MAX_FUNCTION_LINES).map((f) =>
    `${f.at} ${f.name}: ${f.lines} lines`
  );
  assert.deepEqual(over, []);
});

Deno.test("the measure counts declarations, methods and arrows from their first line to their last", () => {
  const source = [
    "export async function top(a: number) {", // 1
    "  const inner = (b: number) => {", // 2
    "    return b;", // 3
    "  };", // 4
    "  return inner(a);", // 5
    "}", // 6
    "class A {", // 7
    "  /** Doc comments before a method do not count. */", // 8
    "  get value(): number {", // 9
    "    return 1;", // 10
    "  }", // 11
    "  #run(): void {}", // 12
    "}", // 13
    "const f = function named() {", // 14
    "  return `{`;", // 15
    "};", // 16
    "", // (the final newline ends line 16)
  ].join("\n");
  const shape = measureSource("x.ts", source);
  assert.equal(shape.lines, 16);
  assert.deepEqual(
    shape.functions.map((f) => [f.name, f.at, f.lines]).sort(),
    [
      ["inner", "x.ts:2", 3],
      ["named", "x.ts:14", 3],
      ["run", "x.ts:12", 1],
      ["top", "x.ts:1", 6],
      ["value", "x.ts:9", 3],
    ],
  );
});

Deno.test("the measure finds a function over the limit (the check can fail)", () => {
  const body = Array.from({ length: MAX_FUNCTION_LINES }, (_, i) => `  const v${i} = ${i};`);
  const shape = measureSource("big.ts", ["function big() {", ...body, "}", ""].join("\n"));
  assert.deepEqual(shape.functions.map((f) => [f.name, f.lines]), [["big", 102]]);
});
