import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { gameCatalog } from '../../src/games/catalog';
import type { GameCatalogEntry } from '../../src/protocol/catalog';
import { rulesOf } from '../../src/games/registry';
import { GAME_IDS } from '../../src/games/types';

/** A prize table as a règlement prints it (article 2 and 3), amounts in cents. */
interface PrintedTable {
  readonly stake: number;
  readonly blockSize: number;
  readonly rows: readonly { count: number; prize: number; total: number }[];
  readonly winningUnits: number;
  readonly total: number;
  readonly totalText: string;
}

/** "5 000 €", "0,50 €", "2,5", "1 120 000€" → cents. */
function cents(text: string): number {
  const plain = text.replace(/[\s\u00a0\u202f€]/g, '');
  assert.match(plain, /^\d+(,\d{1,2})?$/, `not an amount: ${text}`);
  const [euros, fraction = ''] = plain.split(',');
  return Number(euros) * 100 + Number(fraction.padEnd(2, '0'));
}

function whole(text: string): number {
  return Number(text.replace(/[\s\u00a0\u202f]/g, ''));
}

/** Reads every prize table out of a règlement's text. */
function printedTables(text: string): PrintedTable[] {
  const blockSize = whole(/blocs de ([\d\s]+) unités de jeu/.exec(text)![1]!);
  const priceSentence = /prix de vente de l'unité de jeu est fixé à ([^\n]*)/.exec(text)![1]!;
  const stakes = [...priceSentence.matchAll(/([\d,]+) €/g)].map((m) => cents(m[1]!));
  const tables = [...text.matchAll(/Pour chaque bloc d'unités de jeu(?: à ([\d,]+) €)?, le tableau de lots est le suivant :\s*(\|[^\n]*)/g)];
  assert.equal(tables.length, stakes.length, 'one table per price');
  return tables.map(([, stakeText, table], i) => {
    const stake = stakeText === undefined ? stakes[i]! : cents(stakeText);
    const rows: { count: number; prize: number; total: number }[] = [];
    let winningUnits = NaN;
    let totalText = '';
    // The rows of a table are written on one line: `| a | b | c | | d | e | f | …`.
    const all = table!.split('|').map((c) => c.trim());
    for (let at = 1; at + 3 <= all.length; at += 4) {
      const row = all.slice(at, at + 3).join(' | ');
      const cells = all.slice(at, at + 3).filter((c) => c !== '');
      if (cells.length === 0 || /^-+$/.test(cells[0]!) || cells[0]!.startsWith('NOMBRE')) continue;
      if (cells.join(' ').includes('lots formant un total de')) {
        winningUnits = whole(/^([\d\s]+)/.exec(cells[0]!)![1]!);
        totalText = cells.at(-1)!.replace(/\s+/g, ' ');
        continue;
      }
      assert.equal(cells.length, 3, `a prize row has three cells: ${row}`);
      rows.push({ count: whole(cells[0]!.replace(/lots? de/, '')), prize: cents(cells[1]!), total: cents(cells[2]!) });
    }
    const total = /^[\d\s]+€$/.test(totalText.replace(/\s*€$/, '€')) ? cents(totalText) : NaN;
    return { stake, blockSize, rows, winningUnits, total, totalText };
  });
}

/** The amounts printed on the paytable row that starts with `label`, one per price (article 4). */
function paytableRow(text: string, label: string, prices: number): number[] {
  const at = text.indexOf(label);
  assert.ok(at >= 0, `the règlement has no row "${label}"`);
  const cells = text.slice(at).split('|').slice(1, 1 + prices);
  return cells.map(cents);
}

function reglementOf(entry: GameCatalogEntry): string {
  return readFileSync(new URL(`../../${entry.reglement.file}`, import.meta.url), 'utf8');
}

/** A pace per game, each its own, to see it lands on its game. */
const paceOf = (game: string) => ({ unitMs: 1000 + GAME_IDS.indexOf(game as (typeof GAME_IDS)[number]), stepMs: 100 });

describe('game catalog', () => {
  const catalog = gameCatalog(paceOf);

  it('gives each game the pace the server is set to', () => {
    assert.deepEqual(catalog.map((g) => g.pace.unitMs), GAME_IDS.map((_, i) => 1000 + i));
  });

  it('lists every game once, in the order of GAME_IDS', () => {
    assert.deepEqual(catalog.map((g) => g.id), [...GAME_IDS]);
  });

  it('is plain JSON: it survives a round trip unchanged', () => {
    assert.deepEqual(JSON.parse(JSON.stringify(catalog)), catalog);
  });

  it('gives a fresh copy each call, so a caller cannot change the next one', () => {
    (catalog[0]!.prices[0]!.tiers[0] as { count: number }).count = -1;
    assert.notEqual(gameCatalog(paceOf)[0]!.prices[0]!.tiers[0]!.count, -1);
  });

  for (const entry of gameCatalog(paceOf)) {
    describe(entry.name, () => {
      const printed = printedTables(reglementOf(entry));

      it('keeps the official règlement, whose text names the game', () => {
        assert.ok(reglementOf(entry).includes(`« ${entry.name} »`));
      });

      it('states the same rules, under the règlement’s title, on its docs/games page', () => {
        const page = readFileSync(new URL(`../../docs/games/${entry.id}.md`, import.meta.url), 'utf8');
        assert.ok(page.includes(entry.reglement.title), 'the official title');
        for (const rule of entry.rules) assert.ok(page.includes(`- ${rule.en}\n`), rule.en);
      });

      it('lists actions the game accepts, with every field at its bounds and every option offered', () => {
        const rules = rulesOf(entry.id);
        for (const action of entry.actions) {
          const at = (pick: 'min' | 'max') =>
            Object.fromEntries(action.fields.map((f) => {
              if (f.kind === 'choice') return [f.name, entry.revealChoices.find((c) => c.id === f.choice)!.options[0]!.id];
              return [f.name, f.kind === 'integer' ? f[pick] : [f[pick]]];
            }));
          for (const bound of ['min', 'max'] as const) {
            const parsed = rules.parseAction({ type: action.type, ...at(bound) });
            assert.ok(parsed.ok, `${action.type} at its ${bound}`);
          }
        }
        for (const choice of entry.revealChoices) {
          const action = entry.actions.find((a) => a.fields.some((f) => f.kind === 'choice' && f.choice === choice.id))!;
          for (const option of choice.options) assert.ok(rules.parseAction({ type: action.type, [choice.id]: option.id }).ok);
          assert.equal(rules.parseAction({ type: action.type, [choice.id]: 'not-offered' }).ok, false);
        }
      });

      it('offers purchase picks the game accepts, one unit per pick, up to its units per purchase', () => {
        const rules = rulesOf(entry.id);
        if (entry.purchase.picks.length === 0) {
          assert.deepEqual(rules.parsePicks(undefined), { ok: true, value: [undefined] });
          assert.equal(entry.purchase.maxUnits, 1);
          return;
        }
        const picksOf = (choice: (typeof entry.purchase.picks)[number]) => choice.options.map((o) => ({ kind: choice.id, choice: o.id }));
        for (const choice of entry.purchase.picks) {
          for (const pick of picksOf(choice)) assert.deepEqual(rules.parsePicks([pick]), { ok: true, value: [pick] });
        }
        const oneOfEach = entry.purchase.picks.map((c) => picksOf(c)[0]!);
        assert.equal(oneOfEach.length, entry.purchase.maxUnits);
        assert.ok(rules.parsePicks(oneOfEach).ok);
        assert.equal(rules.parsePicks([...oneOfEach, oneOfEach[0]]).ok, false);
      });

      it('opens with the events its opening sentence names', () => {
        const rules = rulesOf(entry.id);
        const step = rules.start({ stake: entry.prices[0]!.stake, prize: 0 }, new Uint8Array(32), rules.choiceSpace[0]);
        // `finished` may close any step (a Mine d'or grid without EXTRA): not the opening's own.
        const types = step.events.map((e) => e.type).filter((t) => t !== 'finished');
        const named = [...entry.opening.en.matchAll(/event "(\w+)"/g)].map((m) => m[1]);
        assert.deepEqual(types, named);
      });

      it('sells at the règlement’s prices and block size', () => {
        assert.deepEqual(entry.prices.map((p) => p.stake), printed.map((t) => t.stake));
        for (const [i, price] of entry.prices.entries()) assert.equal(price.blockSize, printed[i]!.blockSize);
      });

      it('gives each symbol and count the worth the règlement’s paytable prints, per price', () => {
        const text = reglementOf(entry).replace(/'/g, '’');
        const stakes = entry.prices.map((p) => p.stake);
        for (const symbol of entry.symbols) {
          if (!symbol.worth) continue;
          const label = `${symbol.worth.count} symboles « ${symbol.label.fr} »`;
          assert.deepEqual(symbol.worth.prizes.map((p) => p.stake), stakes);
          assert.deepEqual(symbol.worth.prizes.map((p) => p.prize), paytableRow(text, label, stakes.length), label);
        }
        for (const line of entry.paysByCount ?? []) {
          const label = `${line.count} symboles identiques au symbole de jeu sélectionné`;
          assert.deepEqual(line.prizes.map((p) => p.prize), paytableRow(text, label, stakes.length), label);
        }
      });

      for (const table of printed) {
        it(`has the règlement’s prize table at ${table.stake} cents: counts, amounts, totals`, () => {
          const price = entry.prices.find((p) => p.stake === table.stake)!;
          assert.deepEqual(
            price.tiers.map((t) => ({ count: t.count, prize: t.prize })),
            table.rows.map((r) => ({ count: r.count, prize: r.prize })),
          );
          assert.deepEqual(price.tiers.map((t) => t.tierId), price.tiers.map((_, i) => i + 1));
          for (const row of table.rows) assert.equal(row.count * row.prize, row.total, `row of ${row.count}`);
          assert.equal(price.winningUnits, table.winningUnits);
          const rowsTotal = table.rows.reduce((sum, r) => sum + r.total, 0);
          assert.equal(price.totalPayout, rowsTotal);
          if (entry.id === '500000-carats') {
            // The text misprints its total (docs/reglements/README.md); the rows decide.
            assert.equal(table.totalText, '28 857 00 €');
            assert.equal(price.totalPayout, 2_885_750_000);
          } else {
            assert.equal(price.totalPayout, table.total);
          }
        });
      }
    });
  }
});
