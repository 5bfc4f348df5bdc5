import { strict as assert } from 'node:assert';
import { parseArgs, readCommandLine, UsageError, usageOf, whole, decimal, type CommandLine } from '../../tools/command-line';

interface Options {
  readonly players: number;
  readonly share: number;
  readonly out: string | undefined;
  readonly quiet: boolean;
  readonly rest: readonly string[];
}

const COMMAND: CommandLine<Options> = {
  synopsis: 'npm run example -- [options]',
  defaults: { players: 20, share: 0.5, out: undefined, quiet: false, rest: [] },
  flags: [
    { name: '--players', value: 'N', help: 'synthetic players (default 20)', set: (o, v) => (o.players = whole(v, 1, 100)) },
    { name: '--share', value: 'F', help: 'a share\nof something', set: (o, v) => (o.share = decimal(v, 0, 1)) },
    { name: '--out', value: 'FILE', help: 'report file', set: (o, v) => (o.out = v) },
    { name: '--quiet', help: 'no progress lines', set: (o) => (o.quiet = true) },
  ],
  finish: (o) => {
    if (o.quiet && o.out === undefined) throw new UsageError('--quiet goes with --out');
  },
  rest: (o, args) => (o.rest = args),
};

/** The UsageError's message `argv` gives. */
function refusal(argv: string[]): string {
  try {
    parseArgs(COMMAND, argv);
  } catch (err) {
    assert.ok(err instanceof UsageError, String(err));
    return err.message;
  }
  assert.fail(`${argv.join(' ')} was taken`);
}

describe('command line', () => {
  it('takes each flag as `--flag value` or `--flag=value`, the defaults for the rest', () => {
    assert.deepEqual(parseArgs(COMMAND, []), COMMAND.defaults);
    assert.deepEqual(parseArgs(COMMAND, ['--players', '7', '--share=0.25', '--out', 'r.json', '--quiet']), { players: 7, share: 0.25, out: 'r.json', quiet: true, rest: [] });
  });

  it('hands what follows a lone `--` to the command', () => {
    assert.deepEqual(parseArgs(COMMAND, ['--players', '3', '--', '--players', '9']).rest, ['--players', '9']);
  });

  it('refuses bad input with a sentence naming the flag', () => {
    assert.equal(refusal(['--players', '0']), '--players must be between 1 and 100, got 0');
    assert.equal(refusal(['--players', '2.5']), '--players must be a whole number, got "2.5"');
    assert.equal(refusal(['--share', 'half']), '--share must be a number, got "half"');
    assert.equal(refusal(['--players']), '--players needs a value (N)');
    assert.equal(refusal(['--quiet=yes']), '--quiet takes no value');
    assert.equal(refusal(['--bogus']), 'unknown option --bogus');
    assert.equal(refusal(['--quiet']), '--quiet goes with --out');
    assert.equal(refusal(['--help']), '');
  });

  it('writes the usage from the flags, each help aligned', () => {
    assert.equal(usageOf(COMMAND), [
      'usage: npm run example -- [options]',
      '',
      '  --players N            synthetic players (default 20)',
      '  --share F              a share',
      '                         of something',
      '  --out FILE             report file',
      '  --quiet                no progress lines',
      '  --help                 this text',
      '',
    ].join('\n'));
  });

  it('gives the options, or exit 2 with the message and the usage on stderr, or 0 with the usage for --help', () => {
    const written: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((text: string) => written.push(text) > 0) as typeof process.stderr.write;
    try {
      assert.deepEqual(readCommandLine(COMMAND, ['--players', '5']), { options: { ...COMMAND.defaults, players: 5 } });
      assert.deepEqual(readCommandLine(COMMAND, ['--players', 'x']), { code: 2 });
      assert.deepEqual(readCommandLine(COMMAND, ['-h']), { code: 0 });
    } finally {
      process.stderr.write = write;
    }
    assert.deepEqual(written, ['--players must be a whole number, got "x"\n\n', usageOf(COMMAND), usageOf(COMMAND)]);
  });
});
