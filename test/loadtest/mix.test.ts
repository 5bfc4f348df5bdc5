import { strict as assert } from 'node:assert';
import { rulesOf } from '../../src/games/registry';
import { GAME_IDS } from '../../src/games/types';
import { Choices, RevealLengths } from '../../loadtest/mix';

describe('reveal lengths (the echo baseline\'s stand-in for the rules)', () => {
  it('sends the actions of a script up to the end of the reveal, as the game server takes them', () => {
    const choices = new Choices(7);
    const reveals = new RevealLengths(11);
    for (const game of GAME_IDS) {
      const rules = rulesOf(game);
      for (let n = 0; n < 200; n++) {
        const stake = choices.stake(game);
        const picks = choices.picks(game, 0.5);
        const script = choices.script(game, choices.chance(0.5));
        const played = reveals.untilEnd(game, stake, picks, script);
        assert.deepEqual(played, script.slice(0, played.length), `${game}: a prefix of the script`);
        // Every action sent is one the game would accept: each parses.
        for (const action of played) assert.ok(rules.parseAction(action).ok, `${game}: ${JSON.stringify(action)}`);
      }
    }
  });

  it('stops where the reveal ends, short of the script, and sends nothing for a reveal that ends at purchase', () => {
    const reveals = new RevealLengths(3);
    const choices = new Choices(5);
    // Mine d'or: an Extra stage at most per action, and many grids end at purchase (no EXTRA).
    const lengths = Array.from({ length: 500 }, () => reveals.untilEnd('mine-d-or', 50, undefined, choices.script('mine-d-or', false)).length);
    const full = choices.script('mine-d-or', false).length;
    assert.ok(lengths.includes(0), 'some grids end at purchase');
    assert.ok(lengths.every((n) => n <= full));
    assert.ok(lengths.reduce((a, b) => a + b, 0) / lengths.length < full, 'on average short of the whole script');
    // AUTO ends any reveal in one action.
    for (let n = 0; n < 100; n++) assert.ok(reveals.untilEnd('rain-diamonds', 50, undefined, [{ type: 'auto' }]).length === 1);
  });

  it('plays both units of a two-pick lamp purchase until both have ended', () => {
    const reveals = new RevealLengths(9);
    const choices = new Choices(13);
    for (let n = 0; n < 100; n++) {
      const picks = choices.picks('mysteres-de-la-lampe', 1);
      assert.equal((picks as unknown[]).length, 2);
      const script = choices.script('mysteres-de-la-lampe', false);
      assert.equal(reveals.untilEnd('mysteres-de-la-lampe', 50, picks, script).length, script.length, 'four rubs reveal the lamp');
    }
  });
});
