/**
 * Measuring the shape of `src/` (test helper; `tests/architecture_test.ts` applies the size
 * rule with it): each file's line count and each function's span in lines, found with Deno's own
 * TypeScript parser (`Deno.lint.runPlugin`, available under `deno test`), not with a regular
 * expression.
 *
 * How it counts: a file's lines are its newline-separated lines (a final newline does not add
 * one). A function is every `function` declaration or expression, method, getter, setter,
 * constructor and arrow function; its span runs from the line where its declaration starts
 * (the method's name, or `export`/`async` before a function) to the line of its closing brace,
 * both included, so comments and nested functions inside it count toward it (a nested function
 * is measured on its own as well).
 *
 * @module
 */

/** One measured function. */
export interface FunctionSpan {
  /** `file:line` of its start. */
  readonly at: string;
  /** Its name, or `(anonymous)`. */
  readonly name: string;
  /** Lines from its first to its last, both included. */
  readonly lines: number;
}

/** One measured file. */
export interface FileShape {
  /** The path as given. */
  readonly path: string;
  /** Its line count. */
  readonly lines: number;
  /** Its functions. */
  readonly functions: readonly FunctionSpan[];
}

/** The `.ts` files under `dir`, recursively, sorted. */
export async function tsFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) out.push(...await tsFiles(path));
    else if (entry.isFile && entry.name.endsWith(".ts")) out.push(path);
  }
  return out.sort();
}

/** Measure the file at `path`. */
export async function measureFile(path: string): Promise<FileShape> {
  const source = await Deno.readTextFile(path);
  return measureSource(path, source);
}

/** Measure `source` (named `path` in the result). */
export function measureSource(path: string, source: string): FileShape {
  const lineStarts = [0];
  for (let i = 0; i < source.length; i++) if (source[i] === "\n") lineStarts.push(i + 1);
  const lineOf = (offset: number): number => {
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (lineStarts[mid]! <= offset) low = mid;
      else high = mid - 1;
    }
    return low + 1;
  };
  const functions: FunctionSpan[] = [];
  const record = (start: number, end: number, name: string) => {
    const first = lineOf(start);
    functions.push({ at: `${path}:${first}`, name, lines: lineOf(end - 1) - first + 1 });
  };
  const nameOf = (node: Deno.lint.Node | null | undefined): string => {
    if (node === null || node === undefined) return "(anonymous)";
    if (node.type === "Identifier" || node.type === "PrivateIdentifier") return node.name;
    return "(computed)";
  };
  const plugin: Deno.lint.Plugin = {
    name: "shape",
    rules: {
      measure: {
        create() {
          return {
            FunctionDeclaration(node) {
              // From `export`/`export default` when the declaration is exported.
              const parent = node.parent;
              const start = parent.type === "ExportNamedDeclaration" ||
                  parent.type === "ExportDefaultDeclaration"
                ? parent.range[0]
                : node.range[0];
              record(start, node.range[1], nameOf(node.id));
            },
            FunctionExpression(node) {
              const parent = node.parent;
              // A method's function starts at its parameters: measure from its name.
              if (parent.type === "MethodDefinition" || parent.type === "Property") {
                record(parent.range[0], node.range[1], nameOf(parent.key));
              } else {
                record(node.range[0], node.range[1], nameOf(node.id));
              }
            },
            ArrowFunctionExpression(node) {
              const parent = node.parent;
              const name = parent.type === "VariableDeclarator"
                ? nameOf(parent.id)
                : parent.type === "Property" || parent.type === "PropertyDefinition"
                ? nameOf(parent.key)
                : "(arrow)";
              record(node.range[0], node.range[1], name);
            },
          };
        },
      },
    },
  };
  Deno.lint.runPlugin(plugin, path, source);
  const lines = source.endsWith("\n") ? lineStarts.length - 1 : lineStarts.length;
  return { path, lines, functions };
}
