import type { GameEvent } from '../../../src/protocol/recall';

const COLS = 5;
const ROWS = 4;

export interface Gem {
  readonly id: number;
  readonly colour: string;
  /** Entered from the top by a refill (animated in). */
  readonly entered: boolean;
}

export interface RainModel {
  /** cells[col][row], row 0 on top. */
  cells: (Gem | null)[][];
  boxes: (string | null)[];
  collected: Record<string, number>;
}

/** The grid rebuilt from the events: shown, collected, fallen, entered. */
export function rainModel(events: readonly GameEvent[]): RainModel {
  let next = 0;
  const model: RainModel = { cells: Array.from({ length: COLS }, () => Array<Gem | null>(ROWS).fill(null)), boxes: Array<string | null>(5).fill(null), collected: {} };
  for (const e of events) {
    switch (e.type) {
      case 'grid_shown':
        (e['grid'] as string[][]).forEach((col, c) => col.forEach((colour, r) => (model.cells[c]![r] = { id: next++, colour, entered: false })));
        break;
      case 'box_opened':
        model.boxes[e['box'] as number] = e['colour'] as string;
        break;
      case 'gems_collected':
        for (const { col, row } of e['cells'] as { col: number; row: number }[]) model.cells[col]![row] = null;
        model.collected[e['colour'] as string] = e['total'] as number;
        break;
      case 'gems_fell': {
        // Moves are applied from the bottom up so that no gem lands on one not yet moved.
        const moves = [...(e['moves'] as { col: number; fromRow: number; toRow: number }[])].sort((a, b) => b.toRow - a.toRow);
        for (const m of moves) {
          model.cells[m.col]![m.toRow] = model.cells[m.col]![m.fromRow]!;
          model.cells[m.col]![m.fromRow] = null;
        }
        break;
      }
      case 'gems_entered':
        for (const { col, row, colour } of e['cells'] as { col: number; row: number; colour: string }[]) model.cells[col]![row] = { id: next++, colour, entered: true };
        break;
    }
  }
  return model;
}

