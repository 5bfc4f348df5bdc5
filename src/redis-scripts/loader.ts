import { readdirSync, readFileSync } from 'node:fs';
import type { Cluster, Redis } from 'ioredis';

/**
 * The one loader of the project's Lua scripts (the dealer's in src/dealer/lua, the action log's
 * in src/action-log/lua, the pace's in src/play/lua, …). A file is named `<verbNoun>-<numKeys>.lua`, as in BullMQ; a script whose
 * number of keys depends on the call (a batch) is named `<verbNoun>.lua`. A line
 * `--- @include "<path>"` is replaced by `<path>.lua`, the path taken from the scripts' folder
 * (`includes/<name>` of the same folder, or another part's: `../../redis-scripts/lua/int`), once
 * per script, includes may include, so that helpers shared by several scripts are written
 * once (BullMQ's practice). Scripts are defined with ioredis `defineCommand`: calls go out as
 * EVALSHA, and ioredis falls back to EVAL when Redis has lost its script cache (a restart).
 */

/** A Redis connection or a Redis Cluster client: every script touches the keys of one slot. */
export type RedisClient = Redis | Cluster;

export type ScriptArg = string | number | Buffer;
export type RunScript<Name extends string = string> = (name: Name, keys: readonly string[], args: readonly ScriptArg[]) => Promise<unknown>;

const FILE_NAME = /^([a-zA-Z]+)(?:-(\d+))?\.lua$/;
const INCLUDE = /^--- @include "((?:\.\.\/)*(?:[a-z-]+\/)*[A-Za-z0-9_]+)"[ \t]*$/gm;

export interface ScriptFile {
  /** Undefined when the caller gives it with each call. */
  readonly numberOfKeys: number | undefined;
  /** The script with its includes inlined. */
  readonly lua: string;
}

/** Inlines the includes of `lua` (a file of `dir`), each once, depth first. */
function inline(lua: string, dir: URL, included: Set<string>, from: string): string {
  return lua.replace(INCLUDE, (_, name: string) => {
    const file = new URL(`${name}.lua`, dir);
    if (included.has(file.href)) return `-- ${name}: included above`;
    included.add(file.href);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      throw new Error(`${from}: no ${file.pathname} to include`);
    }
    return inline(text, dir, included, `${name}.lua`).trimEnd();
  });
}

const loaded = new Map<string, Map<string, ScriptFile>>();

/** The scripts of a folder by name, includes inlined; read once per process. */
export function readScripts(dir: URL): Map<string, ScriptFile> {
  let scripts = loaded.get(dir.href);
  if (!scripts) {
    scripts = new Map(
      readdirSync(dir).flatMap((file) => {
        const m = FILE_NAME.exec(file);
        if (!m) return [];
        const numberOfKeys = m[2] === undefined ? undefined : Number(m[2]);
        const lua = inline(readFileSync(new URL(file, dir), 'utf8'), dir, new Set(), file);
        return [[m[1]!, { numberOfKeys, lua }] as const];
      }),
    );
    loaded.set(dir.href, scripts);
  }
  return scripts;
}

/**
 * Defines the scripts of `dir` on `redis` as `<namespace>_<name>` and returns a caller that
 * checks key counts.
 */
export function defineScripts<Name extends string>(redis: RedisClient, dir: URL, namespace: string): RunScript<Name> {
  const scripts = readScripts(dir);
  for (const [name, script] of scripts) {
    redis.defineCommand(`${namespace}_${name}`, script.numberOfKeys === undefined ? { lua: script.lua } : script);
  }
  const commands = redis as unknown as Record<string, (...args: ScriptArg[]) => Promise<unknown>>;
  return (name, keys, args) => {
    const script = scripts.get(name);
    if (!script) throw new Error(`no Lua script ${name} in ${dir.pathname}`);
    const command = `${namespace}_${name}`;
    if (script.numberOfKeys === undefined) return commands[command]!(keys.length, ...keys, ...args);
    if (keys.length !== script.numberOfKeys) throw new Error(`${name} takes ${script.numberOfKeys} keys, got ${keys.length}`);
    return commands[command]!(...keys, ...args);
  };
}
