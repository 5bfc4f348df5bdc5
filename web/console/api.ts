import type { BlocksReport } from '../../src/reports/operator-report';
import type { BlockRow, LiveState, ProtectionRow, ReportPage } from '../../src/reports/report-rows';
import type { DayRow, HourRow, PlayerRow } from '../../src/reports/sales-books';

/** The console talks to the server that served it, with the operator's token. */
export class Unauthorised extends Error {}

export type { BlockRow, BlocksReport, DayRow, HourRow, LiveState, PlayerRow, ProtectionRow };
type Page<T> = ReportPage<T>;

async function get<T>(token: string, path: string): Promise<T> {
  const res = await fetch(path, { headers: { authorization: `Bearer ${token}` } });
  if (res.status === 401) throw new Unauthorised('this token is not the operator’s');
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`);
  return (await res.json()) as T;
}

/** Every row of a report, page after page (at most `max`). */
async function all<T>(token: string, report: string, max = 5_000): Promise<T[]> {
  const rows: T[] = [];
  let offset: number | null = 0;
  while (offset !== null && rows.length < max) {
    const page: Page<T> = await get<Page<T>>(token, `/admin/reports/${report}?offset=${offset}&limit=500`);
    rows.push(...page.rows);
    offset = page.next;
  }
  return rows;
}

export interface Snapshot {
  readonly live: LiveState;
  readonly days: DayRow[];
  readonly hours: HourRow[];
  readonly blocks: BlockRow[];
  readonly players: Page<PlayerRow & { protectionEvents: number | null }>;
  readonly protection: Page<ProtectionRow>;
  readonly emissions: BlocksReport;
}

export const operator = {
  /** Checks the token: the live state answers only the operator. */
  live: (token: string) => get<LiveState>(token, '/admin/reports/live'),
  async snapshot(token: string): Promise<Snapshot> {
    const [live, days, hours, blocks, players, protection, emissions] = await Promise.all([
      operator.live(token),
      all<DayRow>(token, 'days'),
      all<HourRow>(token, 'hours'),
      all<BlockRow>(token, 'blocks'),
      get<Page<PlayerRow & { protectionEvents: number | null }>>(token, '/admin/reports/players?limit=20'),
      get<Page<ProtectionRow>>(token, '/admin/reports/protection?limit=50'),
      get<BlocksReport>(token, '/admin/blocks'),
    ]);
    return { live, days, hours, blocks, players, protection, emissions };
  },
};
