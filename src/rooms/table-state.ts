import { ArraySchema, Schema, type } from '@colyseus/schema';

/**
 * What a table streams to its clients. Only revealed values ever enter it: each step holds the
 * events a reveal step produced (JSON), and steps are appended, so each patch carries just the
 * new step. The balance is private and goes by message, never through this state.
 */
export class StepState extends Schema {
  @type('uint16') seq = 0;
  /** 'purchase', 'player' or 'server'. */
  @type('string') by = '';
  /** JSON array of the step's events, as the game's reducer gave them. */
  @type('string') events = '[]';
}

export class UnitState extends Schema {
  @type('string') unitId = '';
  @type('uint32') stake = 0;
  /** 'in_progress' or 'finished'. */
  @type('string') status = 'in_progress';
  /** Set when the reveal ends, never before. */
  @type('uint32') prize = 0;
  @type([StepState]) steps = new ArraySchema<StepState>();
}

export class TableState extends Schema {
  @type('string') game = '';
  /** The units of the current purchase (two when both lamp units are played at once). */
  @type([UnitState]) units = new ArraySchema<UnitState>();
}
