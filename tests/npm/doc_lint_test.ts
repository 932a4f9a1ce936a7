import assert from "node:assert/strict";

import { root as ROOT } from "../_kit/mod.ts";
const ENTRIES = ["mod.ts", "cli.ts", "protocol.ts", "records.ts"];

/** One `deno doc --lint` diagnostic. */
interface Finding {
  rule: string;
  text: string;
  /** For `private-type-ref`: the referenced type's name. */
  referenced: string | null;
}

function parseFindings(output: string): Finding[] {
  return output.split(/\n(?=error\[)/).filter((block) => block.startsWith("error[")).map(
    (block) => {
      const rule = /^error\[([a-z-]+)\]/.exec(block)?.[1] ?? "unknown";
      const referenced = /references private type '([^']+)'/.exec(block)?.[1] ?? null;
      return { rule, text: block.trim(), referenced };
    },
  );
}

async function localDeclarations(): Promise<Set<string>> {
  const names = new Set<string>();
  // Top-level declarations only: a local variable (say `const output = …` in a function) is
  // not a type that a public declaration can reference.
  const declaration =
    /^(?:export\s+)?(?:declare\s+)?(?:type|interface|class|const|let|function|enum|namespace)\s+([A-Za-z_$][\w$]*)/gm;
  const walk = async (dir: string) => {
    for await (const entry of Deno.readDir(dir)) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory) await walk(path);
      else if (entry.name.endsWith(".ts")) {
        for (const match of (await Deno.readTextFile(path)).matchAll(declaration)) {
          names.add(match[1]!);
        }
      }
    }
  };
  await walk(`${ROOT}src`);
  for (const entry of ENTRIES) {
    for (const match of (await Deno.readTextFile(`${ROOT}${entry}`)).matchAll(declaration)) {
      names.add(match[1]!);
    }
  }
  return names;
}

Deno.test("deno doc --lint of the package entry points finds nothing of ours", async () => {
  const { stderr, stdout } = await new Deno.Command(Deno.execPath(), {
    args: ["doc", "--lint", ...ENTRIES],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  const output = new TextDecoder().decode(stderr) + new TextDecoder().decode(stdout);
  const local = await localDeclarations();
  // Deno 2.9 reports every type of an npm package (zod's ZodObject, output, …)
  // as a "private type" (denoland/deno#27364, fixed upstream by #34339): a
  // reference to a type not declared in this repository is not a finding.
  const findings = parseFindings(output).filter((finding) =>
    !(finding.rule === "private-type-ref" && finding.referenced !== null &&
      !local.has(finding.referenced))
  );
  assert.deepEqual(findings.map((finding) => finding.text), []);
});
