import { strict as assert } from 'node:assert';
import { normalizePseudonym } from '../../src/auth/pseudonym';

describe('pseudonyms', () => {
  it('keeps plain names of one writing system as they are', () => {
    for (const name of ['Alice', 'Jean-Luc 2', 'bob_the.builder', 'Ζωή', 'Мария', 'ゆき子', '김민준', 'Élodie']) {
      assert.equal(normalizePseudonym(name), name);
    }
  });

  it('normalizes compatibility forms, trims and collapses spaces', () => {
    assert.equal(normalizePseudonym('Ａｌｉｃｅ'), 'Alice');
    assert.equal(normalizePseudonym('  Alice  '), 'Alice');
    assert.equal(normalizePseudonym('Alice\u00A0\u00A0Smith'), 'Alice Smith');
    assert.equal(normalizePseudonym('Ele\u0301onore'), 'Eléonore'.normalize('NFKC'));
  });

  it('refuses a lone space, an empty name and names too long', () => {
    for (const name of [' ', '', '\u3000', 'a'.repeat(33)]) assert.equal(normalizePseudonym(name), undefined, JSON.stringify(name));
  });

  it('refuses look-alike letters from another script', () => {
    assert.equal(normalizePseudonym('\u0410lice'), undefined, 'Cyrillic А in a Latin name');
    assert.equal(normalizePseudonym('Alic\u0435'), undefined, 'Cyrillic е in a Latin name');
    assert.equal(normalizePseudonym('\u0391lice'), undefined, 'Greek Α in a Latin name');
  });

  it('refuses invisible, control and markup characters', () => {
    for (const name of ['Al\u200Bice', 'Alice\u200D', '\u202EecilA', 'Al\tice', 'A\u0000', '\u3164', 'Alice\u3164', '<b>Alice</b>', 'Alice"', 'x\u0301\u0301\u0301']) {
      assert.equal(normalizePseudonym(name), undefined, JSON.stringify(name));
    }
  });

  it('refuses a name without a letter', () => {
    for (const name of ['.', '0', '42', '_-_', '. .']) assert.equal(normalizePseudonym(name), undefined, JSON.stringify(name));
  });

  it('refuses a name written wholly in Greek or Cyrillic letters that look Latin, and keeps one with a letter that does not', () => {
    for (const name of ['\u039A\u0391\u03A4\u0395', '\u0421\u041E\u0420\u0415', '\u0441\u043E\u0440\u0435', '\u0422\u041E\u041C 2']) {
      assert.equal(normalizePseudonym(name), undefined, `${name} reads as a Latin name`);
    }
    for (const name of ['\u039A\u03B1\u03C4\u03B5\u03C1\u03AF\u03BD\u03B7', '\u041C\u0430\u0440\u0438\u044F', '\u0417\u041E\u042F']) {
      assert.equal(normalizePseudonym(name), name);
    }
  });

  it('refuses the names the server shows for a player without one, in any case', () => {
    for (const name of ['Anonymous', 'anonymous', 'ANONYMOUS', 'a player', 'A Player']) assert.equal(normalizePseudonym(name), undefined, name);
  });

  it('refuses Latin look-alikes of the server’s names, compared by their confusables skeleton (UTS #39)', () => {
    for (const name of ['\u0251 player', '\u1D00nonymous', 'Anonymou\uA731', 'Anonyrnous', 'A PIayer', 'a p1ayer', 'ANONYRNOUS']) {
      assert.equal(normalizePseudonym(name), undefined, JSON.stringify(name));
    }
  });

  it('refuses Latin letters of phonetics, small capitals and clicks, drawn like letters they are not', () => {
    for (const name of ['\u01C0\u01C0\u01C0', 'Ch\u0251rlie', '\u1D04\u029C\u1D00\u0280\u029F\u026A\u1D07', 'Bo\uA731', '\u0250lice']) {
      assert.equal(normalizePseudonym(name), undefined, JSON.stringify(name));
    }
  });

  it('keeps the letters of Latin alphabets, with or without marks', () => {
    for (const name of ['I\u015F\u0131k', '\u0141ukasz', '\u0110or\u0111e', '\u0218erban', 'Nguy\u1EC5n', 'S\u00F8ren', 'Stra\u00DFe', '\u0152dipe', '\u00C6sa', 'Anonymous 2', 'a player too']) {
      assert.equal(normalizePseudonym(name), name.normalize('NFKC'), JSON.stringify(name));
    }
  });
});
