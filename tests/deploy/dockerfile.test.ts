// The Dockerfile stays true: with a Docker engine the image is built; without one (this repository's
// CI machine has only the client) its steps are replayed in a scratch directory (tools/deploy/dockerfile.ts).
// Either way the files its CMD needs must be in the result. SKIP_DOCKER_BUILD_TEST=1 skips the build,
// and only where there is no engine.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, onTestFinished, test } from "vitest";
import {
  DockerIgnore,
  cmdRequirements,
  contextFiles,
  envPairs,
  nodeMajorOf,
  parseDockerfile,
  replayBuild,
  words,
  type Requirement,
} from "../../tools/deploy/dockerfile";
import { repoRoot } from "@saved-items/sandbox/config";

const dockerfile = parseDockerfile(readFileSync(path.join(repoRoot, "Dockerfile"), "utf8"));
const ignore = new DockerIgnore(readFileSync(path.join(repoRoot, ".dockerignore"), "utf8"));
const pkg = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as {
  engines: { node: string };
  scripts: Record<string, string>;
};
const finalStage = dockerfile.at(-1)!;
const finalOf = (keyword: string) => finalStage.instructions.filter((instruction) => instruction.keyword === keyword);
const runSteps = dockerfile.flatMap((stage) =>
  stage.instructions.filter((instruction) => instruction.keyword === "RUN"),
);

const engine = spawnSync("docker", ["info"], { stdio: "ignore", timeout: 20_000 }).status === 0;
const skipBuild = !engine && process.env.SKIP_DOCKER_BUILD_TEST === "1";
const builtTitle = `Dockerfile, built${skipBuild ? " (skipped: no Docker engine and SKIP_DOCKER_BUILD_TEST=1)" : ""}`;

describe("Dockerfile, read", () => {
  test("every stage runs the Node major the app requires (.nvmrc, engines)", () => {
    const nvmrc = readFileSync(path.join(repoRoot, ".nvmrc"), "utf8").trim();
    const enginesMajor = /(\d+)/.exec(pkg.engines.node)![1];
    for (const stage of dockerfile) {
      expect(nodeMajorOf(stage.image), stage.image).toBe(nvmrc);
      expect(nodeMajorOf(stage.image), stage.image).toBe(enginesMajor);
    }
  });

  test("downloads nothing but npm packages, with dependency install scripts off", () => {
    for (const step of runSteps) {
      expect(step.args, `line ${step.line}`).not.toMatch(/\b(curl|wget|apt-get|apt|apk|yum|pip|git)\b|:\/\//);
      for (const install of step.args.match(/npm (ci|install|i)\b[^&;|]*/g) ?? []) {
        expect(install, `line ${step.line}`).toContain("--ignore-scripts");
      }
    }
    // npm itself must not look for updates when the container starts.
    expect(
      envPairs(
        finalOf("ENV")
          .map((env) => env.args)
          .join(" "),
      ).npm_config_update_notifier,
    ).toBe("false");
  });

  test("copies from the build context only files that are in it", () => {
    const context = new Set(contextFiles(repoRoot, ignore));
    const copies = dockerfile
      .flatMap((stage) => stage.instructions)
      .filter((i) => i.keyword === "COPY" && i.flags.from === undefined);
    expect(copies.length).toBeGreaterThan(0);
    for (const copy of copies) {
      for (const source of words(copy.args).slice(0, -1)) {
        if (source === "." || source === "./") continue;
        const relative = path.posix.normalize(source).replace(/\/$/, "");
        expect(
          context.has(relative) || [...context].some((file) => file.startsWith(`${relative}/`)),
          `COPY ${source}`,
        ).toBe(true);
      }
    }
  });

  test("keeps secrets, host builds and the test-only platform emulator out of the build context", () => {
    const context = contextFiles(repoRoot, ignore);
    for (const excluded of [
      ".env",
      ".env.production",
      "node_modules/x",
      "build/server/index.js",
      "packages/platform-emulator/src/index.ts",
      "packages/sandbox/src/start.ts",
      "tests/support/app.ts",
      ".git",
    ]) {
      expect(ignore.ignores(excluded), excluded).toBe(true);
    }
    expect(context.filter((file) => /^(packages|tests)\/|^\.env/.test(file))).toEqual([]);
    expect(context).toEqual(expect.arrayContaining(["package.json", "package-lock.json", "prisma/schema.prisma"]));
  });

  test("the image serves on the port it exposes, as an unprivileged user, with an exec-form CMD", () => {
    const env = envPairs(
      finalOf("ENV")
        .map((e) => e.args)
        .join(" "),
    );
    expect(finalOf("EXPOSE").map((e) => e.args)).toEqual([env.PORT]);
    expect(env.PORT).toBe("3000");
    expect(env.NODE_ENV).toBe("production");
    expect(finalOf("USER").at(-1)?.args).toBe("node");
    expect(finalOf("CMD")).toHaveLength(1);
    expect(finalOf("CMD")[0]!.args.startsWith("["), "exec form, so signals reach npm and the server").toBe(true);
  });

  test("what the CMD needs is followed through package.json", () => {
    const cmd = words(finalOf("CMD")[0]!.args);
    const requirements = cmdRequirements(cmd, pkg.scripts);
    expect(requirements[0]).toEqual({ path: "package.json", why: `CMD ${JSON.stringify(cmd)}` });
    expect(requirements.length).toBeGreaterThan(1);
  });
});

describe("the replay's readers", () => {
  test("follow npm scripts to the server entry, whatever start becomes", () => {
    const scripts = {
      start: "NODE_ENV=production node build/server.js",
      "docker-start": "npm run db:migrate && npm start",
      "db:migrate": "prisma migrate deploy",
    };
    expect(cmdRequirements(["npm", "run", "docker-start"], scripts).map((r) => r.path)).toEqual([
      "package.json",
      "package.json",
      "node_modules/.bin/prisma",
      "package.json",
      "build/server.js",
    ]);
    expect(() => cmdRequirements(["npm", "run", "serve"], scripts)).toThrow('no "serve" script');
    // `exec` replaces npm's shell with the server, so signals npm forwards reach it.
    expect(
      cmdRequirements(["npm", "start"], { start: "NODE_ENV=production exec node build/server.js" }).map((r) => r.path),
    ).toEqual(["package.json", "build/server.js"]);
  });

  test("read .dockerignore as Docker does: rooted patterns, whole directories", () => {
    const rules = new DockerIgnore("# c\n/tests/\n*.md\nprisma/*.sqlite*\n**/secret\n");
    expect(rules.ignores("tests/support/app.ts")).toBe(true);
    expect(rules.ignores("README.md")).toBe(true);
    expect(rules.ignores("docs/deploy.md")).toBe(false);
    expect(rules.ignores("prisma/dev.sqlite-journal")).toBe(true);
    expect(rules.ignores("prisma/schema.prisma")).toBe(false);
    expect(rules.ignores("a/b/secret/key")).toBe(true);
    expect(() => new DockerIgnore("!keep")).toThrow("not supported");
  });

  test("read continued and commented Dockerfile lines", () => {
    const [stage] = parseDockerfile(
      "FROM node:22-slim AS build\n# note\nRUN a \\\n  # inner\n  && b\nCOPY --from=x --chown=node:node /app /app\n",
    );
    expect(stage).toMatchObject({ image: "node:22-slim", name: "build" });
    expect(stage!.instructions.map((i) => [i.keyword, i.args, i.flags])).toEqual([
      ["RUN", "a && b", {}],
      ["COPY", "/app /app", { from: "x", chown: "node:node" }],
    ]);
  });
});

/** Paths among `requirements` that `exists` says are missing, as readable lines. */
function missing(requirements: Requirement[], exists: (relative: string) => boolean): string[] {
  return requirements.filter((r) => !exists(r.path)).map((r) => `${r.path} (needed by ${r.why})`);
}

describe.skipIf(skipBuild)(builtTitle, () => {
  test.runIf(engine)(
    "docker build succeeds and the image holds what its CMD runs",
    () => {
      const tag = `saved-items-deploy-test:${process.pid}`;
      const docker = (...args: string[]) =>
        execFileSync("docker", args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
      docker("build", "--tag", tag, repoRoot);
      try {
        const workdir = docker("image", "inspect", "--format", "{{.Config.WorkingDir}}", tag).trim();
        const scripts = (
          JSON.parse(docker("run", "--rm", "--entrypoint", "cat", tag, `${workdir}/package.json`)) as typeof pkg
        ).scripts;
        const cmd = JSON.parse(docker("image", "inspect", "--format", "{{json .Config.Cmd}}", tag)) as string[];
        const requirements = cmdRequirements(cmd, scripts);
        const listed = docker(
          "run",
          "--rm",
          "--entrypoint",
          "sh",
          tag,
          "-c",
          'for p in "$@"; do [ -e "$p" ] && echo "$p"; done; true',
          "sh",
          ...requirements.map((r) => r.path),
        );
        const present = new Set(listed.split("\n").filter(Boolean));
        expect(missing(requirements, (p) => present.has(p))).toEqual([]);
        expect(docker("run", "--rm", "--entrypoint", "node", tag, "--version")).toMatch(
          new RegExp(`^v${nodeMajorOf(finalStage.image)}\\.`),
        );
        expect(
          docker(
            "run",
            "--rm",
            "--entrypoint",
            "sh",
            tag,
            "-c",
            "[ -e node_modules/.bin/node ] && echo shadowed || echo ok",
          ).trim(),
        ).toBe("ok");
      } finally {
        spawnSync("docker", ["image", "rm", "--force", tag], { stdio: "ignore" });
      }
    },
    30 * 60_000,
  );

  test.runIf(!engine)(
    "its steps replayed without a Docker engine leave what its CMD runs",
    async () => {
      const scratch = mkdtempSync(path.join(os.tmpdir(), "saved-items-image-"));
      onTestFinished(() => rmSync(scratch, { recursive: true, force: true }));
      const image = await replayBuild({ context: repoRoot, dockerfile, ignore, scratch });
      const app = path.join(image.root, image.workdir);
      const scripts = (JSON.parse(readFileSync(path.join(app, "package.json"), "utf8")) as typeof pkg).scripts;
      const requirements = cmdRequirements(image.cmd, scripts);
      console.info(
        `[dockerfile.test] replayed:\n  ${image.log.join("\n  ")}\n[dockerfile.test] the CMD needs:\n  ${requirements
          .map((r) => `${r.path}  (${r.why})`)
          .join("\n  ")}`,
      );
      expect(missing(requirements, (relative) => existsSync(path.join(app, relative)))).toEqual([]);
      // Production dependencies only; above all not the `node` package, whose binary would shadow
      // the base image's Node in npm scripts.
      expect(existsSync(path.join(app, "node_modules/.bin/node"))).toBe(false);
      expect(existsSync(path.join(app, "node_modules/vite"))).toBe(false);
      // Migrations ship with the server, which applies them at start.
      expect(existsSync(path.join(app, "prisma/migrations"))).toBe(true);
    },
    15 * 60_000,
  );
});
