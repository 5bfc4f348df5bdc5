/**
 * "No feed win before its player's client got the last step", checked exactly after a chaos run.
 *
 * Feed wins carry no unit id (a spectator must not learn one), only the pseudonym, game, price
 * and amount; this run's pseudonyms are unique per player, so each win a spectator got is
 * matched to one of that player's units with the same game, price and prize. A win is in order
 * when the unit it is matched to had been seen finished by the player's own client by the end
 * of the event-loop turn in which the spectator read the win (both clients live in the harness:
 * one clock; the end of the turn, because one turn reads every socket that became readable
 * together, in the kernel's order). The rule has two exceptions the server is allowed: a unit
 * the server finished itself (abandoned: `completedBy: server`), and a win kept unseen that is
 * released once it is as old as an abandoned unit. Anything else is a mismatch: a win ahead of
 * its player, or a win that matches no unit at all. A win matching only units already matched
 * is counted as repeated (published twice), not as a mismatch of the books. Pure.
 */

export interface FeedWinSeen {
  /** Which spectator got it: each spectator's wins are matched on their own. */
  readonly spectator: number;
  readonly pseudonym: string;
  readonly game: string;
  readonly stake: number;
  readonly amount: number;
  /** Harness clock (performance.now) at the end of the event-loop turn that read the win. */
  readonly checkedAt: number;
  /** Wall clock (ms since the epoch) when it was read. */
  readonly wallAt: number;
}

export interface UnitSighting {
  readonly pseudonym: string;
  readonly unitId: string;
  readonly game: string;
  readonly stake: number;
  /** The final prize (from the recall); null: never finished. */
  readonly prize: number | null;
  /** Harness clock when the player's client first saw the unit finished; undefined: never. */
  readonly seenAt: number | undefined;
  readonly completedBy: 'player' | 'server' | null;
  /** When the server ended the reveal (wall clock ms); null while unfinished. */
  readonly finishedAt: number | null;
}

export interface FeedOrderResult {
  readonly wins: number;
  /** After the player's client saw the unit finished. */
  readonly inOrder: number;
  /** Units the server finished (abandoned). */
  readonly serverCompleted: number;
  /** Wins released unseen, once as old as an abandoned unit. */
  readonly releasedUnseen: number;
  readonly repeated: number;
  /** Mismatches: ahead of the player, or matching no unit. */
  readonly ahead: number;
  readonly phantom: number;
  readonly problems: readonly string[];
}

/** Clock slack (ms) of "as old as an abandoned unit": the reveal's end is stored to the millisecond. */
const RELEASE_SLACK_MS = 50;
const MAX_PROBLEMS = 50;

export function checkFeedOrder(wins: readonly FeedWinSeen[], units: readonly UnitSighting[], abandonAfterMs: number): FeedOrderResult {
  const key = (pseudonym: string, game: string, stake: number, prize: number) => `${pseudonym}|${game}|${stake}|${prize}`;
  const groups = new Map<string, UnitSighting[]>();
  for (const u of units) {
    if (u.prize === null || u.prize <= 0) continue;
    const k = key(u.pseudonym, u.game, u.stake, u.prize);
    const list = groups.get(k);
    if (list) list.push(u);
    else groups.set(k, [u]);
  }
  const problems: string[] = [];
  const counts = { inOrder: 0, serverCompleted: 0, releasedUnseen: 0, repeated: 0, ahead: 0, phantom: 0 };
  const bySpectator = new Map<number, FeedWinSeen[]>();
  for (const w of wins) {
    const list = bySpectator.get(w.spectator);
    if (list) list.push(w);
    else bySpectator.set(w.spectator, [w]);
  }
  for (const [spectator, list] of bySpectator) {
    const matched = new Set<string>();
    for (const w of [...list].sort((a, b) => a.checkedAt - b.checkedAt)) {
      const group = groups.get(key(w.pseudonym, w.game, w.stake, w.amount)) ?? [];
      const free = group.filter((u) => !matched.has(u.unitId));
      // Earliest seen first: every later win can still use what a later sighting allows.
      const seen = free.filter((u) => u.seenAt !== undefined && u.seenAt <= w.checkedAt).sort((a, b) => a.seenAt! - b.seenAt!)[0];
      const server = free.find((u) => u.completedBy === 'server');
      const released = free.find((u) => u.finishedAt !== null && w.wallAt + RELEASE_SLACK_MS >= u.finishedAt + abandonAfterMs);
      const take = seen ?? server ?? released;
      if (take) {
        matched.add(take.unitId);
        if (take === seen) counts.inOrder++;
        else if (take === server) counts.serverCompleted++;
        else counts.releasedUnseen++;
        continue;
      }
      const what = `a ${w.game} win of ${w.amount} cents at ${w.stake} for ${w.pseudonym}`;
      if (free.length > 0) {
        const unit = free[0]!;
        matched.add(unit.unitId);
        counts.ahead++;
        if (problems.length < MAX_PROBLEMS) {
          const lead = unit.seenAt === undefined ? 'its client never saw the unit finished' : `${(unit.seenAt - w.checkedAt).toFixed(1)} ms before its client saw the unit finished`;
          problems.push(`feed spectator ${spectator} got ${what} (unit ${unit.unitId}) ${lead}`);
        }
      } else if (group.length > 0) {
        counts.repeated++;
      } else {
        counts.phantom++;
        if (problems.length < MAX_PROBLEMS) problems.push(`feed spectator ${spectator} got ${what} that matches none of the player's finished units`);
      }
    }
  }
  return { wins: wins.length, ...counts, problems };
}
