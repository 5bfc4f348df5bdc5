import type { GameId } from './game-ids';
import type { Cents } from './money';

/**
 * The public view of the commitments (`GET /fairness/blocks`, `GET /fairness/blocks/:blockId`,
 * no token; docs/fairness.md): what the server, verify-unit and the page's « Vérifier » share.
 */

/** A block's life: printed, open (selling), closed (sold out; its seed public once every unit of it has ended). */
export type BlockState = 'printed' | 'open' | 'closed';

/** Which block this is, and where it stands: what the dealer's listing and the public one share. */
export interface BlockPlace {
  readonly blockId: string;
  readonly emissionId: string;
  readonly game: GameId;
  readonly stake: Cents;
  /** 0-based index of the block in its emission. */
  readonly index: number;
  readonly size: number;
  readonly state: BlockState;
}

export interface PublicBlock extends BlockPlace {
  /** 1: commitment only; 2: Merkle pages too (`merkle-sha256/v2`); 3: unit seeds in the leaves (`merkle-sha256/v3`). */
  readonly scheme: 1 | 2 | 3;
  /** Hex, published when the block was printed (docs/fairness.md, "The commitment"). */
  readonly commitment: string;
  /** Hex, once the block is closed and every unit of it has ended (settled); null before. */
  readonly seed: string | null;
  /** Schemes 2 and 3: pages in the block, and how many have their root published. */
  readonly pageCount: number | null;
  readonly pagesPublished: number | null;
}

export interface PublicPage {
  readonly page: number;
  readonly firstPosition: number;
  readonly root: string;
  readonly publishedAt: string;
}

export interface PublicBlockDetail extends PublicBlock {
  readonly merkleScheme: 'merkle-sha256/v2' | 'merkle-sha256/v3' | null;
  readonly positionsPerPage: number | null;
  readonly pages: readonly PublicPage[];
  /** The Merkle root over all page roots, once every page is published; null before. */
  readonly root: string | null;
}
