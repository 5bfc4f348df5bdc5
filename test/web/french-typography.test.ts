import { strict as assert } from 'node:assert';
import { gameCatalog } from '../../src/games/catalog';
import { STRINGS } from '../../web/src/i18n';

/**
 * Every French sentence of the page as it is written on screen: each string of web/src/i18n/fr.ts,
 * and each function's sentence for sample arguments (a count, a name, an amount).
 */
function sentences(value: unknown, path: string): { path: string; text: string }[] {
  if (typeof value === 'string') return [{ path, text: value }];
  if (typeof value === 'function') {
    // Every parameter a 2: a count that takes the plural, and a word in a sentence.
    try {
      const text = (value as (...args: unknown[]) => unknown)(...Array<number>(value.length).fill(2));
      return typeof text === 'string' ? [{ path, text }] : [];
    } catch {
      return [];
    }
  }
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => sentences(v, `${path}.${k}`));
  return [];
}

/** Every French text of the games' catalog (their rules and descriptions, shown in « Règles »). */
function catalogFrench(value: unknown, path: string): { path: string; text: string }[] {
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => (k === 'fr' && typeof v === 'string' ? [{ path: `${path}.fr`, text: v }] : catalogFrench(v, `${path}.${k}`)));
}

describe('the page’s French typography', () => {
  const all = [...sentences(STRINGS.fr, 'fr'), ...catalogFrench(gameCatalog(() => ({ unitMs: 0, stepMs: 0 })), 'catalog')];

  it('sets a narrow no-break space (U+202F) before « : ; ! ? », never an ordinary or a wide no-break space, nor none', () => {
    assert.ok(all.length > 300, `${all.length} sentences read`);
    assert.ok(all.filter(({ path }) => path.startsWith('catalog')).length > 40, 'the catalog’s among them');
    const wrong = all.filter(({ text }) => /(?:[ \u00a0]|[^\s\u202f])[;!?]|[ \u00a0]:|[\p{L}\d)»]:(?!\/\/)/u.test(text));
    assert.deepEqual(wrong.map((w) => `${w.path}: ${w.text}`), []);
  });

  it('sets a narrow no-break space (U+202F) inside « », so that a guillemet never ends or starts a line alone', () => {
    const wrong = all.filter(({ text }) => /«(?!\u202f)|(?<!\u202f)»/u.test(text));
    assert.deepEqual(wrong.map((w) => `${w.path}: ${w.text}`), []);
  });

  it('makes counts agree: « 2 symboles », no « 2 × symbol » in a sentence', () => {
    const times = all.filter(({ path, text }) => /\d × \p{L}/u.test(text) && path !== 'fr.buyUnits');
    assert.deepEqual(times.map((w) => `${w.path}: ${w.text}`), []);
    assert.equal(STRINGS.fr.symbolCount(5, 'étoile'), '5\u00a0symboles «\u202fétoile\u202f»');
    assert.equal(STRINGS.fr.lampe.colourOf(STRINGS.fr.lampe.colours['green']!), 'couleur verte');
  });
});
