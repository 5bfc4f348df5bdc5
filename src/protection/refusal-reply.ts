import { blockedRefusal, excludedRefusal, limitNotSetRefusal, limitRefusal, realityCheckRefusal, timeLimitRefusal } from './rules';
import type { ProtectionReply } from '../redis-scripts/errors';
import { int } from '../redis-scripts/reply';

const orNull = (value: unknown): number | null => (int(value) < 0 ? null : int(value));

/** The refusal of a reply of return code -13 … -18 or -20, or undefined for another code. */
export function protectionReply(list: readonly unknown[]): ProtectionReply | undefined {
  switch (int(list[0])) {
    case -13:
      return { refusal: blockedRefusal(orNull(list[1])) };
    case -14:
      return { refusal: excludedRefusal(int(list[1])) };
    case -15:
      return { refusal: limitNotSetRefusal() };
    case -16:
      return { refusal: realityCheckRefusal(int(list[1]), 0), sessionStart: int(list[2]) };
    case -17:
      return { refusal: limitRefusal(int(list[1]) === 1 ? 'stake_week' : 'stake_day', int(list[2]), orNull(list[3]), int(list[4]) === 2 ? 'operator' : 'player') };
    case -18:
      return { refusal: limitRefusal('deposit_week', int(list[1]), orNull(list[2])) };
    case -20:
      return { refusal: timeLimitRefusal(int(list[1]) === 1 ? 'time_week' : 'time_day', int(list[2]), orNull(list[3])) };
    default:
      return undefined;
  }
}
