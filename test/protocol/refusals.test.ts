import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { REFUSALS, type RefusalCode } from '../../src/protocol/refusals';
import { refusalSentence, STRINGS, type Locale } from '../../web/src/i18n';
import { ROOT, sourceFiles } from '../support/source-files';

const CODES = Object.keys(REFUSALS) as RefusalCode[];

/** A code's shape: `namespace/snake_case`, alone or opening a matchmaking error's `"<code>: <sentence>"`. */
const CODE = /^([a-z][a-z_]*\/[a-z][a-z_]*)(?::\s|$)/;
/** `type/subtype` of a media type, not a code. */
const MEDIA_TYPES = new Set(['application', 'audio', 'font', 'image', 'multipart', 'text', 'video']);
/**
 * The dealer's script errors (src/redis-scripts/errors.ts) name what a Lua script answered;
 * they are thrown, never sent: a client gets `server/error`.
 */
const INTERNAL_NAMESPACES = new Set(['dealer']);

/**
 * The codes a source file's string literals hold (comments are not literals): each literal, or
 * template's opening text, of a code's shape that is neither a media type nor a path of the
 * repository.
 */
function codeLiterals(file: string, text: string): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node)) {
      const code = CODE.exec(node.text)?.[1];
      const isPath = code !== undefined && (existsSync(join(ROOT, code)) || existsSync(join(dirname(file), code)));
      if (code && !MEDIA_TYPES.has(code.split('/')[0]!) && !isPath) found.push(code);
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true));
  return found;
}

describe('refusals', () => {
  describe('the page', () => {
    const wireForms = (code: RefusalCode) => ({
      'a request rejection': { reason: { code, message: 'the server’s words' } },
      'a refused message or an HTTP error': { code, message: 'the server’s words' },
      'a refused join': new Error(`${code}: the server’s words`),
    });

    for (const locale of Object.keys(STRINGS) as Locale[]) {
      it(`has a sentence of its own in ${locale} for every code, whichever way the refusal came`, () => {
        const s = STRINGS[locale];
        for (const code of CODES) {
          for (const [form, refusal] of Object.entries(wireForms(code))) {
            const sentence = refusalSentence(refusal, s);
            assert.ok(sentence.trim().length > 0, `${code} (${form}) has a sentence`);
            assert.notEqual(sentence, s.refusedGeneric('the server’s words'), `${code} (${form}) is not shown as an unknown refusal`);
            assert.equal(sentence, s.refusals[REFUSALS[code].page], `${code} (${form}) shows its table's sentence`);
          }
        }
      });
    }

    it('shows the server’s own words for a code the table does not know', () => {
      assert.equal(refusalSentence({ code: 'unknown/code', message: 'as the server says' }, STRINGS.en), STRINGS.en.refusedGeneric('as the server says'));
    });

    it('has no sentence that no code uses (besides its own `network`)', () => {
      const used = new Set<string>(CODES.map((code) => REFUSALS[code].page));
      for (const locale of Object.keys(STRINGS) as Locale[]) {
        const unused = Object.keys(STRINGS[locale].refusals).filter((key) => key !== 'network' && !used.has(key));
        assert.deepEqual(unused, [], `${locale}: sentences of no code`);
      }
    });
  });

  describe('the table', () => {
    it('says what each code means, in one sentence', () => {
      for (const code of CODES) assert.match(REFUSALS[code].meaning, /^[A-Z`].*\.$/, code);
    });

    it('finds codes in literals and opening templates, but not media types, routes, paths or comments', () => {
      const text = [
        "refuse('picks/out_of_range', 'no');",
        'throw joinRefused(`table/full: ${n} watchers`);',
        "res.type('application/json'); app.get('/games'); readFileSync('docs/server.md'); join(ROOT, 'web/src');",
        '// refused `comment/only` here',
      ].join('\n');
      assert.deepEqual(codeLiterals(join(ROOT, 'src', 'example.ts'), text), ['picks/out_of_range', 'table/full']);
    });

    it('holds every code src/ sends', () => {
      const missing: string[] = [];
      const found = new Set<string>();
      for (const file of sourceFiles(join(ROOT, 'src'))) {
        for (const code of codeLiterals(file, readFileSync(file, 'utf8'))) {
          if (INTERNAL_NAMESPACES.has(code.split('/')[0]!)) continue;
          found.add(code);
          if (!Object.hasOwn(REFUSALS, code)) missing.push(`${code} (${file.slice(ROOT.length)})`);
        }
      }
      assert.deepEqual(missing, [], 'codes sent but missing from src/protocol/refusals.ts');
      assert.ok(found.has('table/flood') && found.has('purchase/unfinished_unit'), 'the scan reads src/');
    });
  });

  describe('docs/server.md', () => {
    it('lists every code as the table says', () => {
      const doc = readFileSync(join(ROOT, 'docs', 'server.md'), 'utf8');
      const listed = /<!-- refusal codes: from src\/protocol\/refusals\.ts -->\n([\s\S]*?)\n<!-- end of refusal codes -->/.exec(doc)?.[1];
      const expected = [
        '| code | retryable | meaning |',
        '|---|---|---|',
        ...CODES.map((code) => `| \`${code}\` | ${REFUSALS[code].retryable ? 'yes' : 'no'} | ${REFUSALS[code].meaning} |`),
      ].join('\n');
      assert.equal(listed, expected, 'docs/server.md, "Refusal codes": the table of src/protocol/refusals.ts, row for row');
    });
  });
});
