// "Build npm", as the developer tools' menu item or a CI runs it:
// miniprogram-ci's packNpm copies each package's "miniprogram" folder (or
// its main file's folder) to miniprogram_npm/. It asks for an upload key,
// which it does not use to build: a throwaway one is made here.
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ci from "miniprogram-ci";

// The mini-program project: the folder above this one.
const projectPath = fileURLToPath(new URL("..", import.meta.url));
const keys = mkdtempSync(join(tmpdir(), "build-npm-"));
try {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  writeFileSync(join(keys, "key.pem"), privateKey.export({ type: "pkcs1", format: "pem" }));
  const project = new ci.Project({
    appid: "wx0000000000000000",
    type: "miniProgram",
    projectPath,
    privateKeyPath: join(keys, "key.pem"),
    ignores: ["node_modules/**/*", "tools/**/*"],
  });
  const warnings = await ci.packNpm(project, { reporter: () => {}, ignores: ["tools/**"] });
  if (warnings.length) console.warn(warnings);
} finally {
  rmSync(keys, { recursive: true, force: true });
}
