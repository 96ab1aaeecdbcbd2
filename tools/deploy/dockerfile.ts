/**
 * Reading the Dockerfile and .dockerignore, and replaying a build without a Docker engine: each stage
 * gets a directory standing in for its filesystem, COPY copies from the build context (minus
 * .dockerignore) or from an earlier stage, and RUN runs on this machine with the base image's Node
 * and npm versions. Only what the Dockerfile uses is supported; anything else throws, so a new
 * instruction is noticed instead of skipped.
 */
import { spawn, execFileSync, type ExecFileSyncOptionsWithStringEncoding } from "node:child_process";
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";

export interface Instruction {
  keyword: string;
  /** Leading --name=value flags (COPY --from, RUN --mount, ...). */
  flags: Record<string, string>;
  /** The rest of the line, continuations joined. */
  args: string;
  line: number;
}

export interface Stage {
  image: string;
  name?: string;
  instructions: Instruction[];
}

export function parseDockerfile(text: string): Stage[] {
  const logical: { text: string; line: number }[] = [];
  let pending: { text: string; line: number } | undefined;
  text.split("\n").forEach((raw, index) => {
    // Comment lines are dropped even inside a continued instruction, as Docker does.
    if (/^\s*#/.test(raw)) return;
    const trimmed = raw.replace(/\s+$/, "");
    if (!pending && trimmed === "") return;
    const continued = trimmed.endsWith("\\");
    const piece = continued ? trimmed.slice(0, -1) : trimmed;
    pending = pending
      ? { text: `${pending.text} ${piece.trim()}`, line: pending.line }
      : { text: piece.trim(), line: index + 1 };
    if (!continued) {
      logical.push(pending);
      pending = undefined;
    }
  });
  if (pending) logical.push(pending);

  const stages: Stage[] = [];
  for (const { text: entry, line } of logical) {
    const match = /^(\w+)\s+([\s\S]*)$/.exec(entry);
    if (!match) throw new Error(`Dockerfile:${line}: cannot read "${entry}"`);
    const keyword = match[1]!.toUpperCase();
    let rest = match[2]!.trim();
    const flags: Record<string, string> = {};
    for (let flag = /^--([\w-]+)(?:=(\S+))?\s+/.exec(rest); flag; flag = /^--([\w-]+)(?:=(\S+))?\s+/.exec(rest)) {
      flags[flag[1]!] = flag[2] ?? "true";
      rest = rest.slice(flag[0].length);
    }
    if (keyword === "FROM") {
      const [image, as, name] = rest.split(/\s+/);
      if (as !== undefined && (as.toUpperCase() !== "AS" || !name))
        throw new Error(`Dockerfile:${line}: cannot read FROM ${rest}`);
      stages.push({ image: image!, name, instructions: [] });
      continue;
    }
    const stage = stages.at(-1);
    if (!stage) throw new Error(`Dockerfile:${line}: ${keyword} before FROM`);
    stage.instructions.push({ keyword, flags, args: rest, line });
  }
  return stages;
}

/** The words of a COPY or CMD: JSON (exec) form, or whitespace-separated. */
export function words(args: string): string[] {
  if (args.startsWith("[")) return JSON.parse(args) as string[];
  if (/["']/.test(args)) throw new Error(`quoted shell words are not supported here: ${args}`);
  return args.split(/\s+/).filter(Boolean);
}

/** ENV key=value pairs (or the legacy `ENV key value`). */
export function envPairs(args: string): Record<string, string> {
  if (!/^[\w.-]+=/.test(args)) {
    const [key, ...value] = args.split(/\s+/);
    return { [key!]: value.join(" ") };
  }
  const pairs: Record<string, string> = {};
  for (const match of args.matchAll(/([\w.-]+)=("([^"]*)"|\S*)/g)) pairs[match[1]!] = match[3] ?? match[2]!;
  return pairs;
}

// ---- .dockerignore ----

/**
 * .dockerignore as Docker reads it: patterns are relative to the context root, `*` and `?` stay within
 * one path segment, `**` spans any number, and a pattern that matches a directory excludes all of it.
 * Exceptions (`!pattern`) are not supported (the test refuses a file that has them).
 */
export class DockerIgnore {
  readonly patterns: string[];
  private readonly regexes: RegExp[];

  constructor(text: string) {
    this.patterns = text
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line !== "" && !line.startsWith("#"))
      .map((line) => line.replace(/^\/+/, "").replace(/\/+$/, ""));
    if (this.patterns.some((pattern) => pattern.startsWith("!")))
      throw new Error(".dockerignore exceptions (!) are not supported");
    this.regexes = this.patterns.map((pattern) => new RegExp(`^${globToRegex(pattern)}$`));
  }

  ignores(relative: string): boolean {
    const parts = relative.split("/");
    for (let depth = 1; depth <= parts.length; depth++) {
      const prefix = parts.slice(0, depth).join("/");
      if (this.regexes.some((regex) => regex.test(prefix))) return true;
    }
    return false;
  }
}

function globToRegex(pattern: string): string {
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    if (char === "*" && pattern[i + 1] === "*") {
      // "**/" matches zero or more directories; a trailing "**" matches everything below.
      if (pattern[i + 2] === "/") {
        out += "(?:.*/)?";
        i += 2;
      } else {
        out += ".*";
        i += 1;
      }
    } else if (char === "*") out += "[^/]*";
    else if (char === "?") out += "[^/]";
    else out += char.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return out;
}

/** Every file of the build context, relative and with "/" separators. */
export function contextFiles(root: string, ignore: DockerIgnore, relative = ""): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(path.join(root, relative), { withFileTypes: true })) {
    const child = relative ? `${relative}/${entry.name}` : entry.name;
    if (ignore.ignores(child)) continue;
    if (entry.isDirectory()) files.push(...contextFiles(root, ignore, child));
    else files.push(child);
  }
  return files;
}

// ---- What the CMD needs ----

export interface Requirement {
  /** Relative to the final stage's WORKDIR. */
  path: string;
  why: string;
}

/**
 * The files the final CMD needs, following `npm start` / `npm run <script>` into package.json. A
 * program other than node or npm must be a dependency's executable (node_modules/.bin).
 */
export function cmdRequirements(cmd: string[], scripts: Record<string, string>): Requirement[] {
  const requirements: Requirement[] = [];
  const pathLike = (word: string) => !word.startsWith("-") && (/\.(c|m)?js$/.test(word) || /^\.{0,2}\//.test(word));
  const visit = (argv: string[], why: string, depth: number) => {
    if (depth > 5) throw new Error(`scripts nest too deep at ${why}`);
    const [program, ...args] = argv;
    if (!program) return;
    if (program === "exec") return visit(args, why, depth); // the shell replaced by the command
    if (program === "npm") {
      const script =
        args[0] === "start" ? "start" : args[0] === "run" || args[0] === "run-script" ? args[1] : undefined;
      if (!script) throw new Error(`${why}: cannot follow "${argv.join(" ")}"`);
      const line = scripts[script];
      if (!line) throw new Error(`${why}: package.json has no "${script}" script`);
      requirements.push({ path: "package.json", why });
      for (const segment of line.split(/&&|\|\||;/)) {
        const segmentWords = segment
          .trim()
          .split(/\s+/)
          .filter(Boolean)
          .map((word) => word.replace(/^["']|["']$/g, ""));
        while (segmentWords[0] && /^[A-Za-z_][A-Za-z0-9_]*=/.test(segmentWords[0])) segmentWords.shift();
        visit(segmentWords, `npm run ${script} → ${segment.trim()}`, depth + 1);
      }
      return;
    }
    if (program === "node") {
      const entry = args.find((word) => !word.startsWith("-"));
      if (!entry) throw new Error(`${why}: node without a script`);
      requirements.push({ path: path.posix.normalize(entry), why });
      return;
    }
    if (program.includes("/")) requirements.push({ path: path.posix.normalize(program), why });
    else requirements.push({ path: `node_modules/.bin/${program}`, why });
    for (const word of args.filter(pathLike)) requirements.push({ path: path.posix.normalize(word), why });
  };
  visit(cmd, `CMD ${JSON.stringify(cmd)}`, 0);
  return requirements;
}

// ---- Replaying a build ----

/** npm major bundled with each Node major's releases, i.e. the npm a node:<major> image runs. */
const NPM_OF_NODE: Record<string, string> = { "22": "10" };

export function nodeMajorOf(image: string): string {
  const match = /^node:(\d+)(?:[.-]|$)/.exec(image);
  if (!match) throw new Error(`base image ${image} is not node:<major>...; the replay only knows official Node images`);
  return match[1]!;
}

function run(
  command: string,
  args: string[],
  options: { cwd: string; env: Record<string, string | undefined> },
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0
        ? resolve(output)
        : reject(new Error(`${[command, ...args].join(" ")} exited with ${code}\n${output.slice(-4000)}`)),
    );
  });
}

/** A Node binary of the given major: the one running the tests, or the `node` devDependency's. */
function nodeBinary(repoRoot: string, major: string): string {
  const candidates = [process.execPath, path.join(repoRoot, "node_modules/node/bin/node")];
  for (const candidate of candidates) {
    if (!existsSync(candidate)) continue;
    const version = execFileSync(candidate, ["--version"], { encoding: "utf8" }).trim();
    if (version.startsWith(`v${major}.`)) return candidate;
  }
  throw new Error(`the image runs Node ${major}; no Node ${major} found here (run npm install, which brings it)`);
}

/** The npm CLI of the given major, installed once from the npm registry into node_modules/.cache. */
async function npmCli(repoRoot: string, major: string): Promise<string> {
  const prefix = path.join(repoRoot, "node_modules/.cache/saved-items-deploy-tests", `npm-${major}`);
  const cli = path.join(prefix, "node_modules/npm/bin");
  if (!existsSync(path.join(cli, "npm-cli.js"))) {
    mkdirSync(prefix, { recursive: true });
    await run(
      "npm",
      [
        "install",
        "--prefix",
        prefix,
        `npm@${major}`,
        "--no-save",
        "--no-package-lock",
        "--ignore-scripts",
        "--no-audit",
        "--no-fund",
      ],
      {
        cwd: prefix,
        env: process.env,
      },
    );
  }
  return cli;
}

export interface Replay {
  /** The final stage's filesystem root on this machine. */
  root: string;
  workdir: string;
  cmd: string[];
  log: string[];
}

/**
 * Replays the build in `scratch` (which must be empty) and returns the final stage. RUN steps get a
 * clean environment, as in a Docker build: the stage's ENV, a PATH whose node and npm are the base
 * image's versions, and only this machine's settings for reaching the npm registry (its npm config,
 * CA and proxy variables). npm's cache is this machine's, with prefer-offline, so repeated runs are fast.
 */
export async function replayBuild(options: {
  context: string;
  dockerfile: Stage[];
  ignore: DockerIgnore;
  scratch: string;
}): Promise<Replay> {
  const { context, dockerfile, ignore, scratch } = options;
  const majors = new Set(dockerfile.map((stage) => nodeMajorOf(stage.image)));
  if (majors.size !== 1) throw new Error(`stages use different Node majors: ${[...majors].join(", ")}`);
  const nodeMajor = [...majors][0]!;
  const npmMajor = NPM_OF_NODE[nodeMajor];
  if (!npmMajor) throw new Error(`which npm does node:${nodeMajor} ship? add it to NPM_OF_NODE`);

  const bin = path.join(scratch, "bin");
  mkdirSync(bin, { recursive: true });
  const node = nodeBinary(context, nodeMajor);
  const npm = await npmCli(context, npmMajor);
  symlinkSync(node, path.join(bin, "node"));
  for (const tool of ["npm", "npx"]) {
    writeFileSync(path.join(bin, tool), `#!/bin/sh\nexec "${node}" "${path.join(npm, `${tool}-cli.js`)}" "$@"\n`);
    chmodSync(path.join(bin, tool), 0o755);
  }
  const hostPath = (process.env.PATH ?? "")
    .split(path.delimiter)
    .filter((entry) => entry && !entry.includes("node_modules"));
  const machineEnv: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (
      /^(HOME|TMPDIR|LANG|NODE_EXTRA_CA_CERTS|SSL_CERT_FILE|SSL_CERT_DIR|https?_proxy|HTTPS?_PROXY|no_proxy|NO_PROXY)$/.test(
        key,
      )
    )
      machineEnv[key] = value;
  }
  const quiet: ExecFileSyncOptionsWithStringEncoding = { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] };
  const npmConfig = (key: string) => execFileSync("npm", ["config", "get", key], quiet).trim();
  Object.assign(machineEnv, {
    PATH: [bin, ...hostPath].join(path.delimiter),
    npm_config_globalconfig: npmConfig("globalconfig"),
    npm_config_userconfig: npmConfig("userconfig"),
    npm_config_cache: npmConfig("cache"),
    npm_config_prefer_offline: "true",
    npm_config_update_notifier: "false",
  });

  const version = (binary: string) =>
    execFileSync(binary, ["--version"], { ...quiet, env: machineEnv as NodeJS.ProcessEnv }).trim();
  const log = [`node ${version(node)}, npm ${version(path.join(bin, "npm"))}`];
  const roots: string[] = [];
  const lastUse = new Map<number, number>();
  dockerfile.forEach((stage, index) =>
    stage.instructions.forEach((instruction) => {
      if (instruction.flags.from !== undefined)
        lastUse.set(stageIndex(dockerfile, instruction.flags.from, index), index);
    }),
  );

  let final: Replay | undefined;
  for (const [index, stage] of dockerfile.entries()) {
    const root = path.join(scratch, `stage-${index}`);
    mkdirSync(root, { recursive: true });
    roots.push(root);
    let workdir = "/";
    const env: Record<string, string> = {};
    let cmd: string[] = [];
    const inside = (containerPath: string) => path.join(root, path.posix.resolve(workdir, containerPath));

    for (const instruction of stage.instructions) {
      const where = `Dockerfile:${instruction.line}`;
      switch (instruction.keyword) {
        case "WORKDIR":
          workdir = path.posix.resolve(workdir, instruction.args);
          mkdirSync(inside("."), { recursive: true });
          break;
        case "ENV":
          Object.assign(env, envPairs(instruction.args));
          break;
        case "ARG":
        case "EXPOSE":
        case "USER":
        case "LABEL":
          break;
        case "CMD":
          cmd = words(instruction.args);
          break;
        case "COPY": {
          const unsupported = Object.keys(instruction.flags).filter(
            (flag) => !["from", "chown", "chmod", "link"].includes(flag),
          );
          if (unsupported.length)
            throw new Error(`${where}: COPY --${unsupported.join(", --")} is not supported by the replay`);
          const all = words(instruction.args);
          const sources = all.slice(0, -1);
          const destination = inside(all.at(-1)!);
          const intoDirectory = all.at(-1)!.endsWith("/") || sources.length > 1;
          const from = instruction.flags.from;
          for (const source of sources) {
            if (/[*?[]/.test(source)) throw new Error(`${where}: wildcards in COPY are not supported by the replay`);
            let origin: string;
            if (from !== undefined) {
              const fromIndex = stageIndex(dockerfile, from, index);
              origin = path.join(roots[fromIndex]!, path.posix.resolve("/", source));
              if (!existsSync(origin)) throw new Error(`${where}: ${source} does not exist in stage ${from}`);
              const target = intoDirectory ? path.join(destination, path.basename(origin)) : destination;
              // The stage is not read again, so moving it is the same as copying, only faster.
              if (lastUse.get(fromIndex) === index && sources.length === 1) {
                if (existsSync(target) && readdirSync(target).length === 0) rmSync(target, { recursive: true });
                if (!existsSync(target)) {
                  mkdirSync(path.dirname(target), { recursive: true });
                  renameSync(origin, target);
                  continue;
                }
              }
              cpSync(origin, target, { recursive: true, verbatimSymlinks: true });
              continue;
            }
            const relative = path.posix
              .normalize(source)
              .replace(/^\.\/?/, "")
              .replace(/\/$/, "");
            if (relative !== "" && ignore.ignores(relative))
              throw new Error(`${where}: COPY ${source} is excluded by .dockerignore`);
            origin = path.join(context, relative);
            if (!existsSync(origin)) throw new Error(`${where}: COPY ${source}: no such file in the build context`);
            const files = contextFiles(context, ignore).filter(
              (file) => relative === "" || file === relative || file.startsWith(`${relative}/`),
            );
            const directory = relative === "" || files.some((file) => file.startsWith(`${relative}/`));
            for (const file of files) {
              const below = directory
                ? file.slice(relative === "" ? 0 : relative.length + 1)
                : path.posix.basename(file);
              const target = directory || intoDirectory ? path.join(destination, below) : destination;
              mkdirSync(path.dirname(target), { recursive: true });
              cpSync(path.join(context, file), target);
            }
          }
          break;
        }
        case "RUN": {
          if (Object.keys(instruction.flags).length)
            throw new Error(`${where}: RUN flags are not supported by the replay`);
          const started = Date.now();
          await run("sh", ["-c", instruction.args], { cwd: inside("."), env: { ...machineEnv, ...env } });
          log.push(`RUN ${instruction.args} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
          break;
        }
        default:
          throw new Error(`${where}: ${instruction.keyword} is not supported by the replay`);
      }
    }
    final = { root, workdir, cmd, log };
  }
  return final!;
}

function stageIndex(stages: Stage[], reference: string, before: number): number {
  const index = /^\d+$/.test(reference) ? Number(reference) : stages.findIndex((stage) => stage.name === reference);
  if (index < 0 || index >= before) throw new Error(`COPY --from=${reference}: no earlier stage of that name`);
  return index;
}
