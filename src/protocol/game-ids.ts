/** The games this server sells, by the id every message, route and record names them with. */
export const GAME_IDS = [
  'rain-diamonds',
  '500000-carats',
  'noel-de-la-chance',
  'mine-d-or',
  'mysteres-de-la-lampe',
] as const;
export type GameId = (typeof GAME_IDS)[number];
