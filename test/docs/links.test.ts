import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The docs are read by following their references: a section named in quotes after its page
 * (`docs/dealer.md, "Lanes"`, in the docs and in the code's comments alike) and a markdown link
 * must lead somewhere. Moving a section to another page (the dated rounds to docs/lab/) without
 * moving its references fails here.
 */

const ROOT = path.join(__dirname, '../..');

/** The tracked files that may name a page of docs/. */
function sources(): string[] {
  const listed = execFileSync('git', ['ls-files', '*.md', '*.ts', '*.tsx', '*.lua', '*.mjs', '*.html'], { cwd: ROOT, encoding: 'utf8' });
  return listed.split('\n').filter((file) => file !== '' && existsSync(path.join(ROOT, file)));
}

/** Text with its line breaks and comment stars folded into single spaces, so that a name wrapped over lines is found. */
const folded = (text: string) => text.replace(/\s*\n\s*(\*(?!\*)\s*)?/g, ' ').replace(/\s+/g, ' ');

/** GitHub's anchor of a heading. */
const anchorOf = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

describe('the references to the docs', () => {
  const files = sources();
  const pages = new Map<string, string>();
  const page = (file: string) => {
    if (!pages.has(file)) pages.set(file, folded(readFileSync(path.join(ROOT, file), 'utf8')));
    return pages.get(file)!;
  };

  it('name sections that their page holds', () => {
    const missing: string[] = [];
    for (const file of files) {
      const text = folded(readFileSync(path.join(ROOT, file), 'utf8'));
      for (const m of text.matchAll(/(docs\/[\w/.-]+\.md)[,:]? ?\(? ?["“«] ?([^"”»]{3,80}?) ?["”»]/g)) {
        const [, doc, name] = m as unknown as [string, string, string];
        if (!existsSync(path.join(ROOT, doc))) missing.push(`${file}: ${doc} does not exist`);
        else if (!page(doc).includes(name)) missing.push(`${file}: ${doc} has no "${name}"`);
      }
    }
    assert.deepEqual(missing, []);
  });

  it('link to pages and headings that exist', () => {
    const missing: string[] = [];
    for (const file of files.filter((f) => f.endsWith('.md'))) {
      const text = readFileSync(path.join(ROOT, file), 'utf8');
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1]!;
        if (/^[a-z]+:/.test(target)) continue;
        const [file2, anchor] = target.split('#') as [string, string | undefined];
        const linked = file2 === '' ? file : path.join(path.dirname(file), file2);
        if (!existsSync(path.join(ROOT, linked))) {
          missing.push(`${file}: ${target} does not exist`);
          continue;
        }
        if (anchor === undefined) continue;
        const headings = [...readFileSync(path.join(ROOT, linked), 'utf8').matchAll(/^#+ (.+)$/gm)].map((h) => anchorOf(h[1]!));
        if (!headings.includes(anchor)) missing.push(`${file}: ${linked} has no heading #${anchor}`);
      }
    }
    assert.deepEqual(missing, []);
  });
});

describe('the lab pages (docs/lab/)', () => {
  it('each say first that they are dated measurement notes, not a reference', () => {
    const dir = path.join(ROOT, 'docs/lab');
    const lab = sources().filter((file) => file.startsWith('docs/lab/'));
    assert.ok(lab.length > 0 && existsSync(dir));
    for (const file of lab) {
      // The first paragraph after the title, in whatever words.
      const opening = readFileSync(path.join(ROOT, file), 'utf8').split(/\n\s*\n/)[1] ?? '';
      assert.match(opening, /dated/i, file);
      assert.match(opening, /not a reference/i, file);
    }
  });
});
