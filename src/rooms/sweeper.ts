import { matchMaker } from '@colyseus/core';
import type { WinFeed } from '../feed/win-feed';
import type { LiveUnit } from '../play/live-unit';
import type { PlayService } from '../play/play-service';
import type { Seats } from './seats';
import type { TableRoom } from './table-room';

/** How long the sweeper waits for a table (maybe on another process) to finish a unit. */
export const TABLE_CALL_MS = 5000;

/**
 * Finishes the units left untouched for `abandonAfterMs` (GLI-19 4.16) and credits their
 * prizes. A unit whose player still has its table open is finished by that table, on whatever
 * process, so the player sees the remaining steps before the feed hears of it; any other is
 * finished here and its win published at once. Safe on several processes at once: log appends
 * are conditional and settlement idempotent. Wins kept until their player saw them (a crash's
 * credits done at start among them) go out once they are as old as an abandoned unit.
 */
export class Sweeper {
  constructor(
    private readonly play: PlayService,
    private readonly feed: WinFeed,
    private readonly seats: Seats,
    private readonly abandonAfterMs: number,
    private readonly now: () => number,
  ) {}

  /**
   * At start: the credits a crash of some process left undone are done. Their player never saw
   * those reveals end, so each win waits, unseen, until the player is shown the unit (`resumed`
   * on their next table of that game, or the recall), or until it is as old as an abandoned unit.
   */
  async settleStranded(): Promise<void> {
    for (const end of await this.play.settleStrandedUnits()) await this.feed.keepUnshown(end);
  }

  private sweeping = false;

  /** One pass (none while the last one still runs); resolves with how many units it finished. */
  async sweep(): Promise<number> {
    if (this.sweeping) return 0;
    this.sweeping = true;
    try {
      return await this.pass();
    } finally {
      this.sweeping = false;
    }
  }

  private async pass(): Promise<number> {
    this.feed.releaseUnseen({ endedBefore: this.now() - this.abandonAfterMs });
    let finished = 0;
    for (const unit of await this.play.abandoned(this.abandonAfterMs)) {
      if (await this.finishAtItsTable(unit)) {
        finished++;
        continue;
      }
      const completed = await this.play.complete(unit);
      if (!completed.ok) continue;
      for (const end of completed.ended) this.feed.publishUnshown(end);
      finished++;
    }
    return finished;
  }

  private async finishAtItsTable(unit: LiveUnit): Promise<boolean> {
    const roomId = await this.seats.find(unit.sale.playerId, unit.sale.game);
    if (!roomId) return false;
    try {
      // Our own deadline too: Colyseus's IPC may never settle when presence fails under it.
      const call = matchMaker.remoteRoomCall<TableRoom>(roomId, 'completeAbandoned', [unit.sale.unitId], TABLE_CALL_MS);
      const deadline = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('table call timed out')), TABLE_CALL_MS * 2).unref());
      return (await Promise.race([call, deadline])) === true;
    } catch {
      return false; // the table is gone (its process too, maybe): finished here
    }
  }
}
