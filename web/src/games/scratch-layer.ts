/**
 * The silver layer of a scratch card: a canvas over each covered cell that the pointer clears
 * where it passes. It only decides WHEN the page asks the server to reveal a cell (once enough
 * of it is scratched, or at once for a tap): what is under it comes from the server's answer.
 */

/** The brush's radius, as a share of the cell's height. */
const BRUSH = 0.42;
/** Share of a cell scratched that reveals it. */
const ENOUGH = 0.35;
/** Pointer travel (px) under which a press is a tap. */
const TAP = 8;
const SAMPLE_COLS = 8;
const SAMPLE_ROWS = 5;

const unpainted: HTMLCanvasElement[] = [];

/**
 * Paints a cell's cover once: silver stripes with a sheen, at the screen's resolution. The
 * covers a render brings are measured together, then painted, once the render is done:
 * measuring one after sizing another would lay the page out again for each.
 */
export function paintCover(canvas: HTMLCanvasElement): void {
  if (canvas.dataset['painted']) return;
  canvas.dataset['painted'] = '1';
  if (unpainted.push(canvas) === 1) queueMicrotask(paintUnpainted);
}

function paintUnpainted(): void {
  const sizes = unpainted.map((canvas) => canvas.getBoundingClientRect());
  unpainted.splice(0).forEach((canvas, i) => paint(canvas, sizes[i]!));
}

function paint(canvas: HTMLCanvasElement, { width, height }: DOMRect): void {
  const ratio = window.devicePixelRatio || 1;
  canvas.width = Math.max(1, Math.round(width * ratio));
  canvas.height = Math.max(1, Math.round(height * ratio));
  const ctx = coverContext(canvas);
  if (!ctx) return;
  ctx.scale(ratio, ratio);
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
}

/**
 * A cover's 2D context, drawn by the CPU (`willReadFrequently`): the covers are small and many,
 * and a GPU-backed one is flushed to the GPU process in each frame that changes it (traced at
 * 4 × CPU slowdown, the scratch's and the covers' longest tasks are shorter so: docs/client.md).
 */
function coverContext(canvas: HTMLCanvasElement): CanvasRenderingContext2D | null {
  return canvas.getContext('2d', { willReadFrequently: true });
}

interface Cover {
  readonly index: number;
  readonly canvas: HTMLCanvasElement;
  readonly context: CanvasRenderingContext2D | null;
  readonly rect: DOMRect;
  /** Which of the cell's sample points are scratched. */
  readonly scratched: Uint8Array;
}

/**
 * One press on the grid: the covers under the pointer's path are cleared and measured;
 * `onEnough` gets the cells that passed `ENOUGH` (each once), `end` says whether the press was
 * a tap (and on which cell).
 */
export class ScratchStroke {
  private readonly covers: Cover[];
  private last: { x: number; y: number };
  private travelled = 0;
  private readonly start: { x: number; y: number };
  private readonly sent = new Set<number>();

  constructor(grid: HTMLElement, x: number, y: number, private readonly onEnough: (indexes: number[]) => void) {
    this.covers = [...grid.querySelectorAll<HTMLElement>('[data-index]')].flatMap((cell) => {
      const canvas = cell.querySelector('canvas');
      return canvas ? [{ index: Number(cell.dataset['index']), canvas, context: coverContext(canvas), rect: cell.getBoundingClientRect(), scratched: scratchedOf(cell) }] : [];
    });
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
    for (const cover of this.covers) {
      const r = cover.rect.height * BRUSH;
      if (x < cover.rect.left - r || x > cover.rect.right + r || y < cover.rect.top - r || y > cover.rect.bottom + r) continue;
      const lx = x - cover.rect.left;
      const ly = y - cover.rect.top;
      const ctx = cover.context;
      if (ctx) {
        // Erases by the source's alpha: an opaque brush clears the silver whole.
        ctx.globalCompositeOperation = 'destination-out';
        ctx.fillStyle = '#000';
        ctx.beginPath();
        ctx.arc(lx, ly, r, 0, Math.PI * 2);
        ctx.fill();
      }
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
      if (cover.canvas.parentElement!.dataset['scratched'] !== percent) cover.canvas.parentElement!.dataset['scratched'] = percent;
      if (share >= ENOUGH && !this.sent.has(cover.index)) {
        this.sent.add(cover.index);
        enough.push(cover.index);
      }
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
