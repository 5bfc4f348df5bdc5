import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SYMBOLS as MINE_SYMBOLS } from '../../src/games/mine-d-or/scenario';
import { COLOURS as LAMP_COLOURS, SYMBOLS as LAMP_SYMBOLS } from '../../src/games/mysteres-de-la-lampe/scenario';
import { CELL_SYMBOLS, GAME_SYMBOLS } from '../../src/games/noel-de-la-chance/scenario';
import { COLOURS as RAIN_COLOURS, ROWS as RAIN_ROWS } from '../../src/games/rain-diamonds/scenario';
import { decodeStep } from '../../src/games/step-codec';

/**
 * docs/server.md, "A step's wire text", must be enough to write a decoder: its table of event
 * codes and its table of value lists are read here and checked against the codec itself, each
 * index decoded with `decodeStep` as a decoder written from the page would read it.
 */

const SERVER_MD = path.join(__dirname, '../../docs/server.md');

/** The cells of the rows of the markdown table whose header row contains `marker`. */
function tableAfter(doc: string, marker: string): string[][] {
  const lines = doc.split('\n');
  const start = lines.findIndex((line) => line.includes(marker));
  assert.ok(start >= 0, `docs/server.md has no line with ${marker}`);
  const rows: string[][] = [];
  let inTable = false;
  for (const line of lines.slice(start + 1)) {
    const text = line.trim();
    if (!text.startsWith('|')) {
      if (inTable) break;
      continue;
    }
    inTable = true;
    if (/^\|[-| ]+\|$/.test(text)) continue;
    rows.push(text.slice(1, -1).split('|').map((cell) => cell.trim()));
  }
  return rows;
}

/** The names in backquotes of a table cell, in order. */
const names = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

/** The one event of a step `[2, [code, ...fields]]`, decoded. */
const decodeEvent = (code: number, ...fields: unknown[]) => decodeStep(JSON.stringify([2, [code, ...fields]])).events[0] as unknown as Record<string, unknown>;

/** What `decodeStep` reads at each index of a list, by the path the page names for it; the list's length from the code. */
const DECODED: Record<string, { readonly length: number; at(i: number): unknown }> = {
  '`by`': { length: 3, at: (i) => decodeStep(JSON.stringify([i])).by },
  'RAIN DIAMONDS `COLOURS`': { length: RAIN_COLOURS.length, at: (i) => decodeEvent(2, 0, i, 0).colour },
  'Noël `GAME_SYMBOLS`': { length: GAME_SYMBOLS.length, at: (i) => decodeEvent(9, i).symbol },
  'Noël `CELL_SYMBOLS`': { length: CELL_SYMBOLS.length, at: (i) => decodeEvent(10, 0, 0, i).symbol },
  "Mine d'or `SYMBOLS`": { length: MINE_SYMBOLS.length, at: (i) => (decodeEvent(11, 0, i.toString(36), [], 0, 0, 0).symbols as unknown[])[0] },
  'lamp `pick.kind`': { length: 2, at: (i) => (decodeEvent(12, i, 0, 0).pick as { kind: unknown }).kind },
  'lamp results (`COLOURS` then `SYMBOLS`)': { length: LAMP_COLOURS.length + LAMP_SYMBOLS.length, at: (i) => decodeEvent(14, i).result },
};

describe('the wire docs (docs/server.md)', () => {
  const doc = readFileSync(SERVER_MD, 'utf8');

  it('give every event code with the event type decodeStep reads for it', () => {
    const rows = tableAfter(doc, '| code | event | fields |').map(([code, event]) => [Number(code), names(event!)[0]] as const);
    assert.deepEqual(rows.map(([code]) => code), rows.map((_, i) => i), 'codes listed from 0, none skipped');
    // Fields that every codec reads without throwing: the type is all that is looked at.
    for (const [code, type] of rows) assert.equal(decodeEvent(code, '', '', []).type, type, `code ${code}`);
    assert.throws(() => decodeEvent(rows.length, '', '', []), 'a code past the table is not one the codec knows');
  });

  it('give every value list in order, each index decoded as the page says', () => {
    const rows = tableAfter(doc, '| list | where on the wire | values, index 0 first |');
    assert.deepEqual(rows.map(([list]) => list).sort(), Object.keys(DECODED).sort(), 'the lists the codec sends as indexes');
    for (const [list, , values] of rows) {
      const decoded = DECODED[list!]!;
      const code = Array.from({ length: decoded.length }, (_, i) => decoded.at(i));
      assert.deepEqual(names(values!), code, `${list}: the page's values against decodeStep's, index by index`);
      assert.equal(decoded.at(decoded.length), undefined, `${list}: no value past the last`);
    }
  });

  it("give the lists as the games' own constants hold them", () => {
    const rows = new Map(tableAfter(doc, '| list | where on the wire | values, index 0 first |').map(([list, , values]) => [list!, names(values!)]));
    assert.deepEqual(rows.get('RAIN DIAMONDS `COLOURS`'), [...RAIN_COLOURS]);
    assert.deepEqual(rows.get('Noël `GAME_SYMBOLS`'), [...GAME_SYMBOLS]);
    assert.deepEqual(rows.get('Noël `CELL_SYMBOLS`'), [...CELL_SYMBOLS]);
    assert.deepEqual(rows.get("Mine d'or `SYMBOLS`"), [...MINE_SYMBOLS]);
    assert.deepEqual(rows.get('lamp results (`COLOURS` then `SYMBOLS`)'), [...LAMP_COLOURS, ...LAMP_SYMBOLS]);
  });

  it("give RAIN DIAMONDS' cell index with the grid's rows", () => {
    const formula = /`col × (\d+) \+ row`/.exec(doc);
    assert.ok(formula, 'the cell index formula');
    assert.equal(Number(formula[1]), RAIN_ROWS);
    const [cell] = (decodeEvent(3, 0, (2 * RAIN_ROWS + 1).toString(36), 0).cells as unknown[]);
    assert.deepEqual(cell, { col: 2, row: 1 });
  });
});
