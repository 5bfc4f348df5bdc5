/**
 * The page's weight on a first visit, written into docs/client.md's « Measured » table
 * (`npm run measure:bundle`): the JavaScript, CSS and HTML index.html loads, as built and as
 * sent (the build's brotli and gzip copies, which the server sends), the verifier's chunk loaded
 * on demand, and `GET /games` (the catalog the page fetches, at the server's default pace)
 * plain and compressed as the server sends it. Builds the page first when it is stale. Prints
 * the rows; `--check` fails, writing nothing, when docs/client.md's rows differ.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { loadConfig } from '../src/config';
import { gameCatalog } from '../src/games/catalog';
import { paceOf } from '../src/play/pacing';
import { buildWebIfStale } from './build-web';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = join(ROOT, 'web', 'dist');
const DOC = join(ROOT, 'docs', 'client.md');

interface Sizes { raw: number; br: number; gz: number }

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

function sizesOf(files: readonly string[]): Sizes {
  const size = (path: string) => statSync(path).size;
  return files.reduce((sum, f) => ({ raw: sum.raw + size(f), br: sum.br + size(`${f}.br`), gz: sum.gz + size(`${f}.gz`) }), { raw: 0, br: 0, gz: 0 });
}

/** The three rows, each keyed by the start of its first cell. */
export function bundleRows(): { key: string; row: string }[] {
  const html = readFileSync(join(DIST, 'index.html'), 'utf8');
  const assets = readdirSync(join(DIST, 'assets')).filter((f) => /\.(js|css)$/.test(f));
  const firstLoad = new Set([...html.matchAll(/\/assets\/([^"]+\.(?:js|css))"/g)].map((m) => m[1]!));
  const path = (f: string) => join(DIST, 'assets', f);
  const js = sizesOf(assets.filter((f) => firstLoad.has(f) && f.endsWith('.js')).map(path));
  const css = sizesOf(assets.filter((f) => firstLoad.has(f) && f.endsWith('.css')).map(path));
  const verifier = sizesOf(assets.filter((f) => f.startsWith('verification-core-') && f.endsWith('.js')).map(path));
  const pace = loadConfig({}).pace;
  const catalog = Buffer.from(JSON.stringify(gameCatalog((game) => paceOf(pace, game))));
  // As src/server/catalog-routes.ts encodes it.
  const catalogBr = brotliCompressSync(catalog, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: catalog.length } }).length;
  const catalogGz = gzipSync(catalog, { level: constants.Z_BEST_COMPRESSION }).length;
  const how = '`npm run measure:bundle` (scripts/measure-bundle.ts writes this row)';
  return [
    {
      key: '| JavaScript (',
      row: `| JavaScript (Preact, the Colyseus SDK, the page and its art, one file) | ${kb(js.raw)}; sent ${kb(js.br)} brotli, ${kb(js.gz)} gzip (≤ 150 KB asserted by \`test/web/page.test.ts\`). CSS ${kb(css.raw)}, ${kb(css.br)} brotli; HTML ${statSync(join(DIST, 'index.html')).size} bytes | ${how} |`,
    },
    {
      key: '| the verifier (',
      row: `| the verifier (« Vérifier »'s chunk, loaded on demand, not at first load) | ${kb(verifier.raw)}; ${kb(verifier.br)} brotli, ${kb(verifier.gz)} gzip (with the log's checks) | ${how}; docs/fairness.md, « In the page » |`,
    },
    {
      key: '| `GET /games` (',
      row: `| \`GET /games\` (the catalog the page fetches at first load) | ${kb(catalog.length)} as JSON; sent ${kb(catalogBr)} brotli, ${kb(catalogGz)} gzip | ${how}; \`test/server/catalog-routes.test.ts\` asserts it is sent compressed |`,
    },
  ];
}

/** docs/client.md with these rows in place of its own (a missing one goes after the first). */
export function withRows(doc: string, rows: readonly { key: string; row: string }[]): string {
  const lines = doc.split('\n');
  for (const { key, row } of rows) {
    const at = lines.findIndex((l) => l.startsWith(key));
    if (at >= 0) lines[at] = row;
    else lines.splice(lines.findIndex((l) => l.startsWith(rows[0]!.key)) + 1, 0, row);
  }
  return lines.join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  buildWebIfStale();
  const rows = bundleRows();
  for (const { row } of rows) console.log(row);
  const doc = readFileSync(DOC, 'utf8');
  const updated = withRows(doc, rows);
  if (process.argv.includes('--check')) {
    if (updated !== doc) {
      console.error('docs/client.md: the figures differ; run npm run measure:bundle');
      process.exit(1);
    }
  } else if (updated !== doc) {
    writeFileSync(DOC, updated);
    console.log('docs/client.md updated');
  }
}
