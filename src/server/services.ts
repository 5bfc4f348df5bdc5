import type { TokenVerifier } from '../auth/tokens';
import type { Config } from '../config';
import type { DealerStore } from '../dealer/types';
import type { PlayService } from '../play/play-service';
import type { ActionLog } from '../units/action-log';

/** What rooms and routes share in one process; set once by `startServer`. */
export interface Services {
  readonly config: Config;
  readonly verifier: TokenVerifier;
  readonly dealer: DealerStore;
  readonly actions: ActionLog;
  readonly play: PlayService;
}

let current: Services | undefined;

export function setServices(services: Services | undefined): void {
  current = services;
}

export function services(): Services {
  if (!current) throw new Error('services used before the server started');
  return current;
}
