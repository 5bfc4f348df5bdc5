import { readdirSync, readFileSync } from 'node:fs';
import type { Redis } from 'ioredis';

/**
 * Loads every script of src/dealer/lua onto an ioredis client with `defineCommand`: calls go
 * out as EVALSHA, and ioredis falls back to EVAL when Redis has lost its script cache (after a
 * restart). A file is named `<verbNoun>-<numKeys>.lua`, as in BullMQ; a script whose number
 * of keys depends on the call (a batch) is named `<verbNoun>.lua`.
 */

export type ScriptName = 'openEmission' | 'storeBlock' | 'purchaseUnits' | 'settleUnit' | 'deposit';
export type ScriptArg = string | number | Buffer;
export type RunScript = (name: ScriptName, keys: readonly string[], args: readonly ScriptArg[]) => Promise<unknown>;

const LUA_DIR = new URL('../lua/', import.meta.url);
const FILE_NAME = /^([a-zA-Z]+)(?:-(\d+))?\.lua$/;

interface ScriptFile {
  /** Undefined when the caller gives it with each call. */
  readonly numberOfKeys: number | undefined;
  readonly lua: string;
}

let scriptFiles: Map<string, ScriptFile> | undefined;

function readScripts(): Map<string, ScriptFile> {
  scriptFiles ??= new Map(
    readdirSync(LUA_DIR).flatMap((file) => {
      const m = FILE_NAME.exec(file);
      if (!m) return [];
      const numberOfKeys = m[2] === undefined ? undefined : Number(m[2]);
      return [[m[1]!, { numberOfKeys, lua: readFileSync(new URL(file, LUA_DIR), 'utf8') }] as const];
    }),
  );
  return scriptFiles;
}

/** Defines the scripts on `redis` (as `dealer_<name>`) and returns a caller that checks key counts. */
export function defineScripts(redis: Redis): RunScript {
  const scripts = readScripts();
  for (const [name, script] of scripts) {
    redis.defineCommand(`dealer_${name}`, script.numberOfKeys === undefined ? { lua: script.lua } : script);
  }
  const commands = redis as unknown as Record<string, (...args: ScriptArg[]) => Promise<unknown>>;
  return (name, keys, args) => {
    const script = scripts.get(name);
    if (!script) throw new Error(`no Lua script ${name} in ${LUA_DIR.pathname}`);
    if (script.numberOfKeys === undefined) return commands[`dealer_${name}`]!(keys.length, ...keys, ...args);
    if (keys.length !== script.numberOfKeys) throw new Error(`${name} takes ${script.numberOfKeys} keys, got ${keys.length}`);
    return commands[`dealer_${name}`]!(...keys, ...args);
  };
}
