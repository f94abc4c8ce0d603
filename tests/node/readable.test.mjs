// A PayError that nothing catches, in Node: Node prints the source line the
// error was thrown from, which must be a line a person can read, not a
// line of minified package code.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";

const script = `
import { AuthClient } from "paybridge";
new AuthClient({ baseUrl: "https://auth.service.example", appToken: process.env.NO_SUCH_TOKEN, env: "test", sign: () => "" });
`;

test("an uncaught PayError prints readable lines, its code and its field", () => {
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    cwd: new URL("..", import.meta.url),
    encoding: "utf8",
    env: { PATH: process.env.PATH },
  });
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /PayError/);
  assert.match(r.stderr, /appToken/);
  const longest = Math.max(...r.stderr.split("\n").map((l) => l.length));
  assert.ok(longest < 400, `a line of ${longest} characters in:\n${r.stderr.slice(0, 2000)}`);
});
