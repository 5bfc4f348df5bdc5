import { strict as assert } from 'node:assert';
import { archiveLagMs } from '../../src/archive/lag';
import { MemoryOutbox } from '../../src/dealer/outbox';

describe("the archive's lag", () => {
  const play = (at: number) => ({ at, kind: 'sign_in', player: 'p1', session: 's', table: '', process: 'proc', payload: {} });

  it('is 0 when nothing waits in the outbox', async () => {
    assert.equal(await archiveLagMs(new MemoryOutbox(), 5_000), 0);
  });

  it('is the age of the oldest entry waiting, over every stream', async () => {
    const outbox = new MemoryOutbox();
    await outbox.append(play(3_000));
    await outbox.append(play(4_000));
    outbox.money('p1', 'deposit', 100, 100, 'd1', 1_000, '');
    assert.equal(await archiveLagMs(outbox, 5_000), 4_000);
  });

  it('is never below 0, when an entry bears a time after now (another clock)', async () => {
    const outbox = new MemoryOutbox();
    await outbox.append(play(6_000));
    assert.equal(await archiveLagMs(outbox, 5_000), 0);
  });
});
