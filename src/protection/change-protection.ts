import { LIMIT_KINDS, TIME_LIMIT_KINDS } from '../protocol/protection';
import type { ProtectionUpdate } from './types';
import type { RunScript, ScriptArg } from '../redis-scripts/loader';

/** changeProtection-3.lua: applies and journals one change of a player's protection (and its archive entry). */
export async function changeProtection(
  run: RunScript<'changeProtection'>,
  keys: { readonly wallet: string; readonly protection: string; readonly archive: string },
  playerId: string,
  update: ProtectionUpdate,
  now: number,
): Promise<void> {
  const args: ScriptArg[] = [update.what, now, playerId];
  switch (update.what) {
    case 'limits':
      args.push(update.raiseDelayMs);
      for (const kind of [...LIMIT_KINDS, ...TIME_LIMIT_KINDS]) {
        const amount = update.limits[kind];
        if (amount !== undefined) args.push(kind, amount ?? '');
      }
      break;
    case 'operator_limits':
      args.push(update.limits.stake_week ?? '', update.limits.stake_day ?? '');
      break;
    case 'exclusion':
      args.push(update.until);
      break;
    case 'block':
      args.push(update.reason, update.until ?? '');
      break;
    case 'refusal':
      args.push(update.code);
      break;
    case 'reality_check_interval':
      args.push(update.ms ?? '');
      break;
    case 'reality_check_ack':
      args.push(update.settings.realityCheckMs, update.settings.sessionIdleMs);
      break;
    default:
      break;
  }
  await run('changeProtection', [keys.wallet, keys.protection, keys.archive], args);
}
