import { strict as assert } from 'node:assert';
import { LocalPresence } from '@colyseus/core';
import { Seats, seatsKey } from '../../src/rooms/seats';

describe('seats: which table each player has open, per game', () => {
  it('keeps one seat per player and game in the prefix’s hash, the newest table taking it', async () => {
    const presence = new LocalPresence();
    const seats = new Seats(presence, 'lottery');
    assert.equal(seatsKey('lottery'), 'lottery:seats');
    await seats.take('alice', 'mine-d-or', 'room1');
    await seats.take('alice', 'noel-de-la-chance', 'room2');
    await seats.take('bob', 'mine-d-or', 'room3');
    await seats.take('alice', 'mine-d-or', 'room4');
    assert.deepEqual(await presence.hgetall('lottery:seats'), { 'alice:mine-d-or': 'room4', 'alice:noel-de-la-chance': 'room2', 'bob:mine-d-or': 'room3' });
    assert.equal(await seats.find('alice', 'mine-d-or'), 'room4');
    assert.equal(await seats.find('carol', 'mine-d-or'), undefined);
  });

  it('frees a seat only for the table that holds it: a table the player left for a newer one frees nothing', async () => {
    const presence = new LocalPresence();
    const seats = new Seats(presence, 'lottery');
    await seats.take('alice', 'mine-d-or', 'room1');
    await seats.take('alice', 'mine-d-or', 'room2');
    await seats.leave('alice', 'mine-d-or', 'room1');
    assert.equal(await seats.find('alice', 'mine-d-or'), 'room2', 'the older table left: the newer keeps the seat');
    await seats.leave('alice', 'mine-d-or', 'room2');
    assert.equal(await seats.find('alice', 'mine-d-or'), undefined);
    assert.deepEqual(await presence.hgetall('lottery:seats'), {});
  });
});
