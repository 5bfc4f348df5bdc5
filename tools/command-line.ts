/**
 * The one command-line parser of the load test, the chaos run and the scripts: a command is a
 * table of flags (name, the value it takes, its line of usage, what it sets), from which both
 * the parsing and the usage text come, so that they cannot drift apart. `--flag value` and
 * `--flag=value` are both taken; a bad value, an unknown flag or a missing value is a
 * UsageError whose message names the flag. A command ends with exit 2 on one (the message and
 * the usage on stderr) and 0 on `--help`.
 */

/** Bad input on the command line; an empty message asks for the usage alone (`--help`). */
export class UsageError extends Error {}

/** The options being parsed: writable until the parse hands them out. */
export type Draft<O> = { -readonly [K in keyof O]: O[K] };

export interface Flag<O> {
  /** `--players`. */
  readonly name: string;
  /** What it takes, as the usage shows it (`N`, `FILE`); none: a switch. */
  readonly value?: string;
  /** Its line of usage (more lines after a `\n`). */
  readonly help: string;
  /** Sets the options from the value (`''` for a switch); throws a UsageError, without the flag's name, on a bad one. */
  readonly set: (options: Draft<O>, value: string) => void;
}

export interface CommandLine<O> {
  /** What follows `usage: `: `npm run loadtest -- [options]`. */
  readonly synopsis: string;
  readonly defaults: O;
  readonly flags: readonly Flag<O>[];
  /** After every flag: values that depend on others, and combinations refused (UsageError). */
  readonly finish?: (options: Draft<O>) => void;
  /** Takes what follows a lone `--` (a command to pass on); without it, `--` is refused. */
  readonly rest?: (options: Draft<O>, args: readonly string[]) => void;
}

const HELP_COLUMN = 25;

/** `raw` as a whole number within [min, max], or a UsageError. */
export function whole(raw: string, min: number, max: number): number {
  return within(raw, min, max, true);
}

/** `raw` as a number (fractions allowed) within [min, max], or a UsageError. */
export function decimal(raw: string, min: number, max: number): number {
  return within(raw, min, max, false);
}

function within(raw: string, min: number, max: number, integer: boolean): number {
  const value = raw.trim() === '' ? NaN : Number(raw);
  if (!Number.isFinite(value) || (integer && !Number.isInteger(value))) throw new UsageError(`must be ${integer ? 'a whole number' : 'a number'}, got ${JSON.stringify(raw)}`);
  if (value < min || value > max) throw new UsageError(`must be between ${min} and ${max}, got ${value}`);
  return value;
}

/** The usage text: the synopsis, then a line per flag, its help aligned. */
export function usageOf<O>(command: CommandLine<O>): string {
  const lines = [`usage: ${command.synopsis}`, ''];
  for (const flag of [...command.flags, { name: '--help', help: 'this text' }]) {
    const head = `  ${flag.name}${'value' in flag && flag.value ? ` ${flag.value}` : ''}`;
    const [first, ...more] = flag.help.split('\n');
    lines.push(`${head.length < HELP_COLUMN ? head.padEnd(HELP_COLUMN) : `${head} `}${first}`);
    for (const line of more) lines.push(`${' '.repeat(HELP_COLUMN)}${line}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The options `argv` gives, or a UsageError (empty for `--help`). */
export function parseArgs<O>(command: CommandLine<O>, argv: readonly string[]): O {
  const options: Draft<O> = { ...command.defaults };
  const byName = new Map(command.flags.map((f) => [f.name, f]));
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--' && command.rest) {
      command.rest(options, argv.slice(i + 1));
      break;
    }
    if (arg === '--help' || arg === '-h') throw new UsageError('');
    const eq = arg.indexOf('=');
    const name = eq < 0 ? arg : arg.slice(0, eq);
    const flag = byName.get(name);
    if (!flag) throw new UsageError(`unknown option ${arg}`);
    let value = '';
    if (flag.value) {
      const given = eq < 0 ? argv[++i] : arg.slice(eq + 1);
      if (given === undefined) throw new UsageError(`${name} needs a value (${flag.value})`);
      value = given;
    } else if (eq >= 0) {
      throw new UsageError(`${name} takes no value`);
    }
    try {
      flag.set(options, value);
    } catch (err) {
      if (err instanceof UsageError) throw new UsageError(`${name} ${err.message}`);
      throw err;
    }
  }
  command.finish?.(options);
  return options;
}

/** The options, or the exit code: 2 on bad input (the message and the usage on stderr), 0 on `--help` (the usage). */
export function readCommandLine<O>(command: CommandLine<O>, argv: readonly string[]): { options: O } | { code: number } {
  try {
    return { options: parseArgs(command, argv) };
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    if (err.message) process.stderr.write(`${err.message}\n\n`);
    process.stderr.write(usageOf(command));
    return { code: err.message ? 2 : 0 };
  }
}

/** For a script: the options, or the process exits with `readCommandLine`'s code. */
export function optionsOrExit<O>(command: CommandLine<O>, argv: readonly string[] = process.argv.slice(2)): O {
  const read = readCommandLine(command, argv);
  if ('code' in read) process.exit(read.code);
  return read.options;
}
