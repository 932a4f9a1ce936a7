import assert from "node:assert/strict";
import { userDirFrom } from "../../src/runtime/user_dirs.ts";
import { userDir } from "../../src/runtime/mod.ts";

const envOf = (vars: Record<string, string>) => (name: string) => vars[name];

Deno.test("userDirFrom() follows XDG on Linux, falling back to the home directory", () => {
  const home = envOf({ HOME: "/home/ada" });
  assert.equal(userDirFrom("cache", { env: home, os: "linux" }), "/home/ada/.cache/magi-tools");
  assert.equal(userDirFrom("config", { env: home, os: "linux" }), "/home/ada/.config/magi-tools");
  assert.equal(
    userDirFrom("state", { env: home, os: "linux" }),
    "/home/ada/.local/state/magi-tools",
  );
  const xdg = envOf({ HOME: "/home/ada", XDG_CACHE_HOME: "/var/cache/ada" });
  assert.equal(userDirFrom("cache", { env: xdg, os: "linux" }), "/var/cache/ada/magi-tools");
});

Deno.test("userDirFrom() ignores a relative or empty XDG variable", () => {
  const env = envOf({ HOME: "/home/ada", XDG_CACHE_HOME: "cache", XDG_CONFIG_HOME: "" });
  assert.equal(userDirFrom("cache", { env, os: "linux" }), "/home/ada/.cache/magi-tools");
  assert.equal(userDirFrom("config", { env, os: "linux" }), "/home/ada/.config/magi-tools");
});

Deno.test("userDirFrom() is null without a home directory, never the working directory", () => {
  const none = envOf({});
  for (const os of ["linux", "darwin", "windows"]) {
    assert.equal(userDirFrom("cache", { env: none, os }), null, os);
  }
});

Deno.test("userDirFrom() uses the macOS and Windows conventions", () => {
  const mac = envOf({ HOME: "/Users/ada" });
  assert.equal(
    userDirFrom("cache", { env: mac, os: "darwin" }),
    "/Users/ada/Library/Caches/magi-tools",
  );
  const win = envOf({ APPDATA: "C:/Users/ada/AppData/Roaming", LOCALAPPDATA: "C:/L" });
  assert.equal(
    userDirFrom("config", { env: win, os: "windows" }),
    "C:/Users/ada/AppData/Roaming/magi-tools",
  );
  assert.equal(userDirFrom("cache", { env: win, os: "windows" }), "C:/L/magi-tools/cache");
});

Deno.test("userDir() reads this process's environment", () => {
  const home = Deno.env.get("HOME");
  const xdg = Deno.env.get("XDG_CACHE_HOME");
  const expected = xdg?.startsWith("/")
    ? `${xdg}/magi-tools`
    : home
    ? `${home}/.cache/magi-tools`
    : null;
  if (Deno.build.os === "linux") assert.equal(userDir("cache"), expected);
});
