import { render } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import uPlot from 'uplot';
import { operator, Unauthorised, type LiveState, type Snapshot } from './api';
import { Chart } from './chart';
import './console.css';

/**
 * The operator's console (docs/reports.md, "The operator console"): its own page at
 * /console/, signed in with the operator token, reading /admin/reports/* every 10 s. Not part
 * of the player's page: its own entry in the web build, its own bundle.
 */

const TOKEN_KEY = 'operator-token';
const POLL_MS = 10_000;
/** Colours told apart by people with the commoner colour blindnesses (Okabe–Ito). */
const COLOURS = ['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#e69f00', '#56b4e9', '#000000'];
const EUROS = new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' });
const PARIS_TIME = new Intl.DateTimeFormat('fr-FR', { timeZone: 'Europe/Paris', dateStyle: 'short', timeStyle: 'short' });

const euros = (cents: number) => EUROS.format(cents / 100);
const percent = (ratio: number) => `${(ratio * 100).toFixed(1)} %`;
const parisTime = (iso: string) => PARIS_TIME.format(new Date(iso));

interface LiveSample extends Pick<LiveState, 'players' | 'watchers' | 'feedSpectators'> {
  readonly at: number;
}

function SignIn({ onToken, refused }: { onToken: (token: string) => void; refused: string | undefined }) {
  const [token, setToken] = useState('');
  return (
    <main class="sign-in">
      <h1>Operator console</h1>
      <form onSubmit={(e) => { e.preventDefault(); onToken(token.trim()); }}>
        <label for="token">Operator token</label>
        <input id="token" type="password" autocomplete="off" required value={token} onInput={(e) => setToken(e.currentTarget.value)} />
        <button type="submit">Sign in</button>
        {refused && <p class="refused" role="alert">{refused}</p>}
      </form>
    </main>
  );
}

function SalesPerHour({ snapshot }: { snapshot: Snapshot }) {
  const { options, data, games, rows } = useMemo(() => {
    const games = [...new Set(snapshot.hours.map((h) => h.game))].sort();
    const hours = [...new Set(snapshot.hours.map((h) => Date.parse(h.hour) / 1000))].sort((a, b) => a - b);
    const units = (game: string, hour: number) => snapshot.hours.filter((h) => h.game === game && Date.parse(h.hour) / 1000 === hour).reduce((n, h) => n + h.units, 0);
    const data: uPlot.AlignedData = [hours, ...games.map((g) => hours.map((hour) => units(g, hour)))];
    const options: Omit<uPlot.Options, 'width' | 'height'> = {
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1e3), 'Europe/Paris'),
      series: [{}, ...games.map((g, i) => ({ label: g, stroke: COLOURS[i % COLOURS.length], width: 2, points: { show: true, size: 5 } }))],
      axes: [{}, { label: 'units' }],
    };
    const rows = hours.map((hour) => ({ hour, units: games.map((g) => units(g, hour)) }));
    return { options, data, games, rows };
  }, [snapshot]);
  return (
    <Chart id="chart-sales" title="Sales per hour" summary={`Units sold per hour by game, ${rows.length} hours, ${rows.reduce((n, r) => n + r.units.reduce((a, b) => a + b, 0), 0)} units in all`}
      options={options} data={data} rows={rows}
      columns={[{ heading: 'Hour (Paris)', cell: (r) => PARIS_TIME.format(r.hour * 1000) }, ...games.map((g, i) => ({ heading: g, cell: (r: (typeof rows)[number]) => String(r.units[i]) }))]}
      legend={games.map((g, i) => ({ label: g, colour: COLOURS[i % COLOURS.length]! }))} />
  );
}

function PayoutBand({ snapshot, emission }: { snapshot: Snapshot; emission: string }) {
  const { options, data, rows } = useMemo(() => {
    const rows = snapshot.days.filter((d) => d.emissionId === emission).sort((a, b) => a.day.localeCompare(b.day));
    const days = rows.map((d) => Date.parse(`${d.day}T12:00:00Z`) / 1000);
    const data: uPlot.AlignedData = [days, rows.map((d) => d.payoutLow * 100), rows.map((d) => d.payoutHigh * 100), rows.map((d) => d.bandPayout * 100), rows.map((d) => d.tablePayout * 100)];
    const options: Omit<uPlot.Options, 'width' | 'height'> = {
      series: [
        {},
        { label: 'band low', stroke: '#56b4e9', width: 1, points: { show: true, size: 4 } },
        { label: 'band high', stroke: '#56b4e9', width: 1, points: { show: true, size: 4 } },
        { label: 'realised', stroke: '#d55e00', width: 2, points: { show: true, size: 8 } },
        { label: 'prize table', stroke: '#000000', width: 1, dash: [6, 4] },
      ],
      bands: [{ series: [2, 1], fill: 'rgba(86, 180, 233, 0.25)' }],
      // Half a day either side: the first day of sales is one point, drawn in the middle. Up to
      // 1.5 × the larger of the realised and the table's payout: a day of few units has a band
      // reaching the top prizes, which would flatten the rest (the table gives it whole).
      scales: {
        x: { range: (_u, min, max) => [min - 43_200, max + 43_200] },
        y: { range: (): uPlot.Range.MinMax => [0, Math.max(100, 1.5 * Math.max(...rows.map((d) => Math.max(d.bandPayout, d.tablePayout) * 100)))] },
      },
      axes: [{}, { label: 'payout %' }],
    };
    return { options, data, rows };
  }, [snapshot, emission]);
  return (
    <Chart id="chart-payout" title="Payout against its expected band" summary={`Payout per day of ${emission}, realised against the 99.9 % band of the units sold that day and the prize table's`}
      options={options} data={data} rows={rows}
      columns={[
        { heading: 'Day', cell: (d) => d.day }, { heading: 'Units', cell: (d) => String(d.units) }, { heading: 'Stakes', cell: (d) => euros(d.stakes) },
        { heading: 'Prizes', cell: (d) => euros(d.prizes) }, { heading: 'GGR', cell: (d) => euros(d.ggr) }, { heading: 'Payout', cell: (d) => percent(d.payout) },
        { heading: 'Band', cell: (d) => `${percent(d.payoutLow)} – ${percent(d.payoutHigh)} (${d.bandMethod}, the first ${d.bandUnits} units: ${percent(d.bandPayout)})` }, { heading: 'Table', cell: (d) => percent(d.tablePayout) },
      ]}
      legend={[{ label: 'realised', colour: '#d55e00' }, { label: '99.9 % band', colour: '#56b4e9' }, { label: 'prize table', colour: '#000000', dashed: true }]} />
  );
}

function StockPerBlock({ snapshot, emission }: { snapshot: Snapshot; emission: string }) {
  const { options, data, rows } = useMemo(() => {
    const rows = snapshot.blocks.filter((b) => b.emissionId === emission);
    const data: uPlot.AlignedData = [rows.map((_, i) => i), rows.map((b) => (100 * b.left) / b.size)];
    const options: Omit<uPlot.Options, 'width' | 'height'> = {
      scales: { x: { time: false, range: [-0.5, Math.max(rows.length - 0.5, 0.5)] }, y: { range: [0, 100] } },
      series: [{}, { label: 'left %', stroke: '#009e73', fill: 'rgba(0, 158, 115, 0.45)', width: 1, paths: uPlot.paths.bars!({ size: [0.6, 80] }), points: { show: false } }],
      axes: [{ values: (_u, ticks) => ticks.map((t) => (Number.isInteger(t) && rows[t] ? `#${rows[t]!.index}` : '')) }, { label: 'units left %' }],
    };
    return { options, data, rows };
  }, [snapshot, emission]);
  return (
    <Chart id="chart-stock" title="Stock per block" summary={`Units left in each printed block of ${emission}, as a share of the block`}
      options={options} data={data} rows={rows}
      columns={[{ heading: 'Block', cell: (b) => b.blockId }, { heading: 'State', cell: (b) => b.state }, { heading: 'Left', cell: (b) => `${b.left} of ${b.size}` }, { heading: 'Top prizes left', cell: (b) => String(b.topPrizesLeft ?? '') }]}
      legend={[{ label: 'units left, % of the block', colour: '#009e73' }]} />
  );
}

function LivePeople({ samples }: { samples: readonly LiveSample[] }) {
  const { options, data } = useMemo(() => ({
    data: [samples.map((s) => s.at / 1000), samples.map((s) => s.players), samples.map((s) => s.watchers), samples.map((s) => s.feedSpectators)] as uPlot.AlignedData,
    options: {
      tzDate: (ts: number) => uPlot.tzDate(new Date(ts * 1e3), 'Europe/Paris'),
      // The last half hour (or since the first sample, if longer ago): the first sample is one point, at the right.
      scales: { x: { range: (): uPlot.Range.MinMax => [Math.min(samples[0]!.at / 1000, samples.at(-1)!.at / 1000 - 1_800), samples.at(-1)!.at / 1000 + 30] } },
      series: [{}, { label: 'players', stroke: '#0072b2', width: 2 }, { label: 'watchers', stroke: '#d55e00', width: 2 }, { label: 'feed spectators', stroke: '#cc79a7', width: 2, dash: [4, 3] }].map((s) => ({ ...s, points: { show: true, size: 5 } })),
      axes: [{}, { label: 'people' }],
    } as Omit<uPlot.Options, 'width' | 'height'>,
  }), [samples]);
  const last = samples.at(-1);
  return (
    <Chart id="chart-live" title="Players and watchers, live" summary={last ? `Now ${last.players} players, ${last.watchers} watchers, ${last.feedSpectators} feed spectators` : 'No sample yet'}
      options={options} data={data} rows={[...samples].reverse()}
      columns={[{ heading: 'Time (Paris)', cell: (s) => PARIS_TIME.format(s.at) }, { heading: 'Players', cell: (s) => String(s.players) }, { heading: 'Watchers', cell: (s) => String(s.watchers) }, { heading: 'Feed spectators', cell: (s) => String(s.feedSpectators) }]}
      legend={[{ label: 'players', colour: '#0072b2' }, { label: 'watchers', colour: '#d55e00' }, { label: 'feed spectators', colour: '#cc79a7', dashed: true }]} />
  );
}

/** A table of its own, scrolled sideways inside its box on a phone, never the page. */
function Table<Row>({ title, rows, columns }: { title: string; rows: readonly Row[]; columns: readonly { heading: string; cell: (row: Row) => string }[] }) {
  return (
    <section class="table" aria-label={title}>
      <h2>{title}</h2>
      {rows.length === 0 ? <p>None.</p> : (
        <div class="scroll" tabIndex={0} role="region" aria-label={`${title}, scrollable`}>
          <table>
            <thead><tr>{columns.map((c) => <th scope="col" key={c.heading}>{c.heading}</th>)}</tr></thead>
            <tbody>{rows.map((row, i) => <tr key={i}>{columns.map((c) => <td key={c.heading}>{c.cell(row)}</td>)}</tr>)}</tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function Tables({ snapshot }: { snapshot: Snapshot }) {
  const { live } = snapshot;
  return (
    <>
      <Table title="Emissions" rows={snapshot.emissions.emissions} columns={[
        { heading: 'Emission', cell: (e) => e.emissionId }, { heading: 'Game', cell: (e) => e.game }, { heading: 'Price', cell: (e) => euros(e.stake) }, { heading: 'State', cell: (e) => e.state },
        { heading: 'Blocks printed', cell: (e) => `${e.blocks.length} of ${e.blockCount}` }, { heading: 'Units sold', cell: (e) => String(e.blocks.reduce((n, b) => n + b.sold, 0)) },
      ]} />
      <Table title="Blocks" rows={snapshot.blocks} columns={[
        { heading: 'Block', cell: (b) => b.blockId }, { heading: 'State', cell: (b) => b.state }, { heading: 'Sold', cell: (b) => `${b.sold} of ${b.size}` },
        { heading: 'Prizes left', cell: (b) => euros(b.prizesLeft) }, { heading: 'Top prize', cell: (b) => (b.topPrize === null ? '' : `${euros(b.topPrize)} × ${b.topPrizesLeft} left`) },
        { heading: 'Left per prize (cents×units)', cell: (b) => b.tiersLeft },
      ]} />
      <Table title={`Players (the ${snapshot.players.rows.length} who staked most, of ${snapshot.players.total})`} rows={snapshot.players.rows} columns={[
        { heading: 'Player', cell: (p) => p.playerId }, { heading: 'Units', cell: (p) => String(p.units) }, { heading: 'Staked', cell: (p) => euros(p.staked) },
        { heading: 'Won', cell: (p) => euros(p.won) }, { heading: 'Net', cell: (p) => euros(p.net) }, { heading: 'Protection events', cell: (p) => String(p.protectionEvents ?? '') },
      ]} />
      <Table title="Protection journal" rows={snapshot.protection.rows} columns={[
        { heading: 'Time (Paris)', cell: (r) => parisTime(r.at) }, { heading: 'Player', cell: (r) => r.playerId }, { heading: 'By', cell: (r) => r.by },
        { heading: 'What', cell: (r) => [r.what, r.kind, r.reason, r.code].filter(Boolean).join(' ') }, { heading: 'Amount', cell: (r) => (r.amount === null ? '' : euros(r.amount)) },
      ]} />
      <section class="table" aria-label="Archive">
        <h2>Archive</h2>
        {live.archive ? (
          <dl class="archive">
            <dt>Behind by</dt><dd>{live.archiveLagSeconds === null ? 'unknown' : `${Math.round(live.archiveLagSeconds)} s`}</dd>
            <dt>Day files</dt><dd>{live.archiveDayFiles}</dd>
            <dt>Newest day</dt><dd>{live.archiveNewestDay ?? 'none yet'}</dd>
          </dl>
        ) : <p>This process writes no archive (ARCHIVE_DIR is not set).</p>}
      </section>
    </>
  );
}

function Console({ token, onSignOut }: { token: string; onSignOut: (refused?: string) => void }) {
  const [snapshot, setSnapshot] = useState<Snapshot>();
  const [samples, setSamples] = useState<LiveSample[]>([]);
  const [emission, setEmission] = useState<string>();
  const [failure, setFailure] = useState<string>();
  useEffect(() => {
    let stopped = false;
    const poll = async () => {
      try {
        const next = await operator.snapshot(token);
        if (stopped) return;
        setSnapshot(next);
        setFailure(undefined);
        setSamples((s) => [...s.slice(-359), { at: Date.parse(next.live.at), players: next.live.players, watchers: next.live.watchers, feedSpectators: next.live.feedSpectators }]);
      } catch (err) {
        if (err instanceof Unauthorised) onSignOut('Refused: this token is not the operator’s.');
        else setFailure(String((err as Error).message));
      }
    };
    void poll();
    const timer = setInterval(poll, POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [token]);
  const emissions = snapshot?.emissions.emissions ?? [];
  // The emission shown by default: the one that sold most.
  const shown = emission ?? [...emissions].sort((a, b) => b.blocks.reduce((n, x) => n + x.sold, 0) - a.blocks.reduce((n, x) => n + x.sold, 0))[0]?.emissionId;
  return (
    <>
      <header class="bar">
        <h1>Operator console</h1>
        <p aria-live="polite">{snapshot ? `Updated ${parisTime(snapshot.live.at)} (Paris)` : 'Loading…'}{failure && ` — failed: ${failure}`}</p>
        <button type="button" onClick={() => onSignOut()}>Sign out</button>
      </header>
      {snapshot && shown && (
        <main>
          <div class="charts">
            <SalesPerHour snapshot={snapshot} />
            <LivePeople samples={samples} />
            <section class="emission" aria-label="One emission">
              <label for="emission">Emission</label>
              <select id="emission" value={shown} onChange={(e) => setEmission(e.currentTarget.value)}>
                {emissions.map((e) => <option key={e.emissionId} value={e.emissionId}>{e.emissionId}</option>)}
              </select>
            </section>
            <PayoutBand snapshot={snapshot} emission={shown} />
            <StockPerBlock snapshot={snapshot} emission={shown} />
          </div>
          <Tables snapshot={snapshot} />
        </main>
      )}
    </>
  );
}

function App() {
  const [token, setToken] = useState<string | undefined>(() => sessionStorage.getItem(TOKEN_KEY) ?? undefined);
  const [refused, setRefused] = useState<string>();
  const signIn = async (candidate: string) => {
    try {
      await operator.live(candidate);
      sessionStorage.setItem(TOKEN_KEY, candidate);
      setRefused(undefined);
      setToken(candidate);
    } catch (err) {
      setRefused(err instanceof Unauthorised ? 'Refused: this token is not the operator’s.' : `Sign-in failed: ${(err as Error).message}`);
    }
  };
  const signOut = (reason?: string) => {
    sessionStorage.removeItem(TOKEN_KEY);
    setToken(undefined);
    setRefused(reason);
  };
  return token ? <Console token={token} onSignOut={signOut} /> : <SignIn onToken={signIn} refused={refused} />;
}

render(<App />, document.getElementById('console')!);
