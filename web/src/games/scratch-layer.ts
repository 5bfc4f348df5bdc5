/**
 * The silver layer of a scratch card: one canvas over a grid, silver over each covered cell,
 * that the pointer clears where it passes. One canvas a grid, not one a cell: Chromium commits
 * each canvas to the compositor as a resource of its own, and 24 new ones made the covers' first
 * frame the page's longest task on a slow phone (docs/client.md, « Measured »). It only decides
 * WHEN a cell is uncovered (once enough of it is scratched, or at once for a tap): what is under
 * it comes from the game.
 */

/** The brush's radius, as a share of a cell's height. */
const BRUSH = 0.42;
/** Share of a cell scratched that reveals it. */
const ENOUGH = 0.35;
/** Pointer travel (px) under which a press is a tap. */
const TAP = 8;
const SAMPLE_COLS = 8;
const SAMPLE_ROWS = 5;

/** A covered cell's button: its index in the grid's `data-index`. */
const CELL = '[data-index]';

/** Where a cell's silver lies on its grid's canvas, in CSS pixels. */
interface Box {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** A grid's canvas once sized: the cells it has silver over. */
interface Silver {
  readonly context: CanvasRenderingContext2D;
  readonly painted: Map<number, Box>;
}

const SILVER = new WeakMap<HTMLCanvasElement, Silver>();
const unsynced = new Set<HTMLCanvasElement>();

/**
 * Brings a grid's canvas (a child of the grid, over all of it) in line with the grid's covered
 * cells after a render: silver painted over a cell newly covered, cleared off a cell no longer
 * covered. The canvases a render brings are measured together, then painted, at the start of the
 * next frame (before it is laid out and painted: the cells never show without their silver), a
 * task apart from the render's: the two together made one task over 50 ms on a slow phone.
 * Measured together: measuring one after painting another would lay the page out again for each.
 */
export function syncCovers(canvas: HTMLCanvasElement): void {
  if (unsynced.add(canvas).size === 1) requestAnimationFrame(syncUnsynced);
}

function syncUnsynced(): void {
  const canvases = [...unsynced].filter((canvas) => canvas.isConnected);
  unsynced.clear();
  // Cells uncovered: their silver cleared where it was painted, no layout needed.
  const fresh = canvases.flatMap((canvas) => {
    const cells = [...canvas.parentElement!.querySelectorAll<HTMLElement>(CELL)];
    const silver = SILVER.get(canvas);
    if (silver) {
      const covered = new Set(cells.map(indexOf));
      for (const [index, box] of silver.painted) {
        if (covered.has(index)) continue;
        silver.context.clearRect(box.x, box.y, box.width, box.height);
        silver.painted.delete(index);
      }
    }
    const unpainted = cells.filter((cell) => !silver?.painted.has(indexOf(cell)));
    return unpainted.length > 0 ? [{ canvas, unpainted }] : [];
  });
  const measured = fresh.map(({ canvas, unpainted }) => ({ canvas, grid: canvas.getBoundingClientRect(), cells: unpainted.map(measure) }));
  for (const { canvas, grid, cells } of measured) paint(canvas, grid, cells);
}

function indexOf(cell: HTMLElement): number {
  return Number(cell.dataset['index']);
}

interface Measured {
  readonly index: number;
  /** The cell's padding box (the silver leaves its border in view). */
  readonly rect: DOMRect;
  readonly border: number;
  readonly radius: number;
}

function measure(cell: HTMLElement): Measured {
  const border = cell.clientLeft;
  return { index: indexOf(cell), rect: cell.getBoundingClientRect(), border, radius: Math.max(0, parseFloat(getComputedStyle(cell).borderTopLeftRadius) - border) };
}

/** Silver stripes with a sheen over each cell, at the screen's resolution; the canvas sized at its first painting. */
function paint(canvas: HTMLCanvasElement, grid: DOMRect, cells: readonly Measured[]): void {
  let silver = SILVER.get(canvas);
  const ratio = window.devicePixelRatio || 1;
  if (!silver) {
    canvas.width = Math.max(1, Math.round(grid.width * ratio));
    canvas.height = Math.max(1, Math.round(grid.height * ratio));
    const context = coverContext(canvas);
    if (!context) return;
    context.scale(ratio, ratio);
    SILVER.set(canvas, (silver = { context, painted: new Map() }));
  }
  const ctx = silver.context;
  ctx.globalCompositeOperation = 'source-over';
  for (const { index, rect, border, radius } of cells) {
    const box = { x: rect.left - grid.left + border, y: rect.top - grid.top + border, width: rect.width - 2 * border, height: rect.height - 2 * border };
    const { width, height } = box;
    silver.painted.set(index, box);
    ctx.save();
    ctx.translate(box.x, box.y);
    ctx.beginPath();
    ctx.roundRect(0, 0, width, height, radius);
    ctx.clip();
    ctx.fillStyle = '#a9aac0';
    ctx.fillRect(0, 0, width, height);
    ctx.strokeStyle = '#c8c9da';
    ctx.lineWidth = 2;
    // The stripes in one path: one stroke to draw.
    ctx.beginPath();
    for (let x = -height; x < width; x += 6) {
      ctx.moveTo(x, height);
      ctx.lineTo(x + height, 0);
    }
    ctx.stroke();
    const sheen = ctx.createRadialGradient(width * 0.3, height * 0.25, 0, width * 0.3, height * 0.25, width * 0.5);
    sheen.addColorStop(0, '#ffffff66');
    sheen.addColorStop(1, '#ffffff00');
    ctx.fillStyle = sheen;
    ctx.fillRect(0, 0, width, height);
    ctx.restore();
  }
}

/**
 * A grid's 2D context, drawn by the CPU (`willReadFrequently`): a GPU-backed one is flushed to
 * the GPU process in each frame that changes it (traced at 4 × CPU slowdown, the scratch's and
 * the covers' longest tasks are shorter so: docs/client.md).
 */
function coverContext(canvas: HTMLCanvasElement): CanvasRenderingContext2D | null {
  return canvas.getContext('2d', { willReadFrequently: true });
}

interface Cover {
  readonly index: number;
  readonly cell: HTMLElement;
  readonly rect: DOMRect;
  /** Which of the cell's sample points are scratched. */
  readonly scratched: Uint8Array;
}

/**
 * One press on the grid: the silver under the pointer's path is cleared and the covered cells
 * it passes measured; `onEnough` gets the cells that passed `ENOUGH` (each once), `tapped` says
 * whether the press was a tap (and on which cell).
 */
export class ScratchStroke {
  private readonly covers: Cover[];
  private readonly canvas: HTMLCanvasElement | null;
  private readonly origin: DOMRect | undefined;
  private last: { x: number; y: number };
  private travelled = 0;
  private readonly start: { x: number; y: number };
  private readonly sent = new Set<number>();

  constructor(grid: HTMLElement, x: number, y: number, private readonly onEnough: (indexes: number[]) => void) {
    this.covers = [...grid.querySelectorAll<HTMLElement>(CELL)].map((cell) => ({ index: indexOf(cell), cell, rect: cell.getBoundingClientRect(), scratched: scratchedOf(cell) }));
    this.canvas = grid.querySelector('canvas');
    this.origin = this.canvas?.getBoundingClientRect();
    this.start = { x, y };
    this.last = { x, y };
    this.stamp(x, y);
  }

  /** The pointer moved: clears along the segment from its last place, every few pixels. */
  move(x: number, y: number): void {
    const length = Math.hypot(x - this.last.x, y - this.last.y);
    const steps = Math.max(1, Math.ceil(length / 4));
    for (let k = 1; k <= steps; k++) this.stamp(this.last.x + ((x - this.last.x) * k) / steps, this.last.y + ((y - this.last.y) * k) / steps);
    this.travelled += length;
    this.last = { x, y };
  }

  /** The cell a tap landed on (a press that hardly moved), else undefined. */
  tapped(): number | undefined {
    if (this.travelled >= TAP) return undefined;
    return this.covers.find((c) => inside(c.rect, this.start.x, this.start.y))?.index;
  }

  private stamp(x: number, y: number): void {
    const enough: number[] = [];
    let touched = false;
    for (const cover of this.covers) {
      const r = cover.rect.height * BRUSH;
      if (x < cover.rect.left - r || x > cover.rect.right + r || y < cover.rect.top - r || y > cover.rect.bottom + r) continue;
      touched = true;
      const lx = x - cover.rect.left;
      const ly = y - cover.rect.top;
      for (let i = 0; i < SAMPLE_COLS; i++) {
        for (let j = 0; j < SAMPLE_ROWS; j++) {
          const sx = ((i + 0.5) / SAMPLE_COLS) * cover.rect.width;
          const sy = ((j + 0.5) / SAMPLE_ROWS) * cover.rect.height;
          if (Math.hypot(sx - lx, sy - ly) <= r) cover.scratched[i * SAMPLE_ROWS + j] = 1;
        }
      }
      const share = cover.scratched.reduce((n, v) => n + v, 0) / cover.scratched.length;
      // Written only when it changed: each write invalidates the cell's style.
      const percent = String(Math.round(share * 100));
      if (cover.cell.dataset['scratched'] !== percent) cover.cell.dataset['scratched'] = percent;
      if (share >= ENOUGH && !this.sent.has(cover.index)) {
        this.sent.add(cover.index);
        enough.push(cover.index);
      }
    }
    const ctx = this.canvas && SILVER.get(this.canvas)?.context;
    if (touched && ctx && this.origin) {
      // Erases by the source's alpha: an opaque brush clears the silver whole. The cells of a grid are of one height.
      ctx.globalCompositeOperation = 'destination-out';
      ctx.fillStyle = '#000';
      ctx.beginPath();
      ctx.arc(x - this.origin.left, y - this.origin.top, this.covers[0]!.rect.height * BRUSH, 0, Math.PI * 2);
      ctx.fill();
    }
    if (enough.length > 0) this.onEnough(enough);
  }
}

function inside(rect: DOMRect, x: number, y: number): boolean {
  return x >= rect.left && x <= rect.right && y >= rect.top && y <= rect.bottom;
}

/** A cell's scratched samples, kept on the element between strokes (a cell may be scratched in several). */
const SCRATCHED = new WeakMap<Element, Uint8Array>();
function scratchedOf(cell: Element): Uint8Array {
  let samples = SCRATCHED.get(cell);
  if (!samples) SCRATCHED.set(cell, (samples = new Uint8Array(SAMPLE_COLS * SAMPLE_ROWS)));
  return samples;
}
