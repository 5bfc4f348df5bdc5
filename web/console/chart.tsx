import { useEffect, useRef } from 'preact/hooks';
import type { ComponentChildren } from 'preact';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

/** A column of a chart's data table: its heading and how a row shows in it. */
export interface Column<Row> {
  readonly heading: string;
  readonly cell: (row: Row) => string;
}

export interface ChartProps<Row> {
  readonly id: string;
  readonly title: string;
  /** What the chart shows, in one sentence: the canvas's accessible name. */
  readonly summary: string;
  /** uPlot's options without the size, which follows the chart's box. */
  readonly options: Omit<uPlot.Options, 'width' | 'height'>;
  readonly data: uPlot.AlignedData;
  /** The same data as a table, for screen readers and anyone who wants the figures. */
  readonly rows: readonly Row[];
  readonly columns: readonly Column<Row>[];
  /** The legend: uPlot's own is off (a table axe-core cannot read), this is its text. */
  readonly legend: readonly { readonly label: string; readonly colour: string; readonly dashed?: boolean }[];
  readonly children?: ComponentChildren;
}

const HEIGHT = 220;

/**
 * One uPlot chart (a canvas: drawn fast, weightless in the DOM), sized to its box and redrawn
 * when the box or the data changes, with its legend and its data table beside it.
 */
export function Chart<Row>({ id, title, summary, options, data, rows, columns, legend, children }: ChartProps<Row>) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const plot = new uPlot({ ...options, width: element.clientWidth, height: HEIGHT, legend: { show: false } }, data, element);
    element.dataset['points'] = String(data[0].length);
    const resized = new ResizeObserver(() => plot.setSize({ width: element.clientWidth, height: HEIGHT }));
    resized.observe(element);
    return () => {
      resized.disconnect();
      plot.destroy();
    };
  }, [options, data]);
  return (
    <figure class="chart" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{title}</h3>
      {children}
      <div class="plot" id={id} ref={box} role="img" aria-label={summary} />
      <ul class="legend">
        {legend.map((l) => (
          <li key={l.label}><span class={l.dashed ? 'swatch dashed' : 'swatch'} style={{ borderColor: l.colour }} aria-hidden="true" />{l.label}</li>
        ))}
      </ul>
      <details>
        <summary>{title}: the figures</summary>
        <div class="scroll" tabIndex={0} role="region" aria-label={`${title}: the figures, scrollable`}>
          <table>
            <caption class="sr-only">{title}</caption>
            <thead><tr>{columns.map((c) => <th scope="col" key={c.heading}>{c.heading}</th>)}</tr></thead>
            <tbody>{rows.map((row, i) => <tr key={i}>{columns.map((c) => <td key={c.heading}>{c.cell(row)}</td>)}</tr>)}</tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
