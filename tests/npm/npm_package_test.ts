import assert from "node:assert/strict";
import { exportsMismatch } from "../../npm-build.ts";

import { root as ROOT } from "../_kit/mod.ts";

async function hasCommand(command: string): Promise<boolean> {
  try {
    const { success } = await new Deno.Command(command, {
      args: ["--version"],
      stdout: "null",
      stderr: "null",
    }).output();
    return success;
  } catch {
    return false;
  }
}

const nodeAndNpm = (await hasCommand("node")) && (await hasCommand("npm"));

const DENO_EXPORTS = { ".": "./mod.ts", "./cli": "./cli.ts" };
const MATCHING = {
  version: "0.1.0",
  exports: {
    ".": { types: "./types/mod.d.ts", import: "./esm/mod.js" },
    "./cli": { types: "./types/cli.d.ts", import: "./esm/cli.js" },
  },
};

Deno.test("exportsMismatch() accepts package.json exports that mirror deno.json's", () => {
  assert.equal(exportsMismatch(DENO_EXPORTS, MATCHING), null);
});

Deno.test("exportsMismatch() names a subpath missing from package.json", () => {
  const reason = exportsMismatch(DENO_EXPORTS, { exports: { ".": MATCHING.exports["."] } });
  assert.match(reason ?? "", /^package\.json exports \["\."\] do not match deno\.json exports/);
});

Deno.test("exportsMismatch() names an export pointing at another module", () => {
  const exports = { ...MATCHING.exports, "./cli": MATCHING.exports["."] };
  assert.match(
    exportsMismatch(DENO_EXPORTS, { exports }) ?? "",
    /^package\.json export \.\/cli does not point at the build of \.\/cli\.ts/,
  );
});

Deno.test({
  name: "npm-build.ts builds a package that runs a tool turn under Node.js",
  ignore: !nodeAndNpm,
  async fn() {
    const out = await Deno.makeTempDir({ prefix: "magi-tools-npm-build-" });
    try {
      const { code, stderr } = await new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "--config",
          `${ROOT}dev/deno.json`,
          "-A",
          "--no-prompt",
          `${ROOT}npm-build.ts`,
          "--out",
          out,
        ],
        cwd: ROOT,
        stdin: "null",
        stdout: "null",
        stderr: "piped",
        env: { NO_COLOR: "1" },
      }).output();
      const log = new TextDecoder().decode(stderr);
      assert.equal(code, 0, log);
      assert.match(log, /npm-build: smoke test passed under Node\.js/);
      const pkg = JSON.parse(await Deno.readTextFile(`${out}/package.json`));
      const deno = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`));
      assert.equal(pkg.version, deno.version);
      assert.equal(pkg.name, deno.name);
      assert.equal(pkg.dependencies.zod, "^4");
      assert.deepEqual(Object.keys(pkg.dependencies).sort(), ["jsonc-parser", "zod"]);
      // The optional features' packages (src/mcp/_sdk.ts, src/openapi/_deps.ts) are optional
      // peers: not installed with the package, named by the feature's error when missing.
      const peers = {
        "@apidevtools/json-schema-ref-parser": "^16.0.5",
        "@modelcontextprotocol/sdk": "1.32.2",
        "ajv": "^8.20.0",
        "js-yaml": "^5.5.0",
      };
      assert.deepEqual(pkg.peerDependencies, peers);
      for (const name of Object.keys(peers)) {
        assert.deepEqual(pkg.peerDependenciesMeta[name], { optional: true });
      }
      assert.equal(exportsMismatch(deno.exports, pkg), null);
      const bundle = await Deno.readTextFile(`${out}/esm/cli.js`);
      assert.doesNotMatch(bundle, /from "npm:/, "npm: specifiers are rewritten");
    } finally {
      await Deno.remove(out, { recursive: true });
    }
  },
});
