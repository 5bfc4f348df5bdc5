import type { TokenVerifier } from '../auth/tokens';
import type { Config } from '../config';
import type { DealerStore } from '../dealer/types';
import type { WinFeed } from '../feed/win-feed';
import type { PlayService } from '../play/play-service';
import type { ProtectionService } from '../play/protection-service';
import type { ActionLog } from '../action-log/action-log';
import type { LaunchStore } from '../auth/launch-store';
import type { Seats } from '../rooms/seats';
import type { Pacer } from '../play/pacing';
import type { CheckpointLog } from './checkpoints';
import type { SeamlessWallet } from './seamless-wallet';

/** What one process's rooms and routes are given when the server starts (`startServer`). */
export interface Services {
  readonly config: Config;
  readonly verifier: TokenVerifier;
  readonly dealer: DealerStore;
  readonly actions: ActionLog;
  readonly play: PlayService;
  readonly protection: ProtectionService;
  readonly feed: WinFeed;
  /** The log of page roots: its signed checkpoints and proofs (docs/fairness.md, "Checkpoints"). */
  readonly checkpoints: CheckpointLog;
  /** The operator's launches: signatures seen, one-use codes and handles, sessions ended (launch-routes.ts). */
  readonly launches: LaunchStore;
  /** Which table each seated player has open (rooms/seats.ts). */
  readonly seats: Seats;
  /** The server's pace of play: no two units of a player start closer than their game's (src/play/pacing.ts). */
  readonly pacer: Pacer;
  /** Now, by the store's clock (store-clock.ts): every time stamped and every time the law reads. */
  readonly now: () => number;
  /** WALLET_MODE=seamless: the operator's wallet, its outbox and sender (docs/integration.md). */
  readonly seamless?: SeamlessWallet;
}
