import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * docs/ is a reference: each page says how things are, short enough to be read through. Dated
 * measurement rounds live in docs/lab/ (and the official texts in docs/reglements/), outside
 * this bound.
 */

const DOCS = path.join(__dirname, '../../docs');
const MAX_LINES = 600;

/** The reference pages: every .md file of docs/ outside lab/ and reglements/. */
function referencePages(): string[] {
  return readdirSync(DOCS, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.md') && !/^(lab|reglements)\//.test(file.split(path.sep).join('/')));
}

describe('the reference pages of docs/', () => {
  it(`are each at most ${MAX_LINES} lines`, () => {
    const pages = referencePages();
    assert.ok(pages.length >= 15, `only ${pages.length} pages found`);
    const long = pages.map((file) => [file, readFileSync(path.join(DOCS, file), 'utf8').split('\n').length] as const).filter(([, lines]) => lines > MAX_LINES);
    assert.deepEqual(long, []);
  });
});
