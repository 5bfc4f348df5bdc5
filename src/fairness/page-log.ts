import type { Cents } from '../money';

/**
 * The log of page roots (docs/fairness.md, "Checkpoints"): every page root the dealer
 * publishes is appended once, in the order of publication, to one append-only log for the whole
 * deployment, whose Merkle tree (RFC 9162) the server signs. A leaf is the UTF-8 text
 *
 *   `page-root/v1 <scheme> <game> <stake> <blockId> <page> <root> <publishedAt>`
 *
 * one space between fields: the block's commitment scheme (2, 3, …), the game id, the price in
 * cents, the block id, the page index (0-based), the page's root (64 lowercase hex digits), and
 * its publication time (ms since the epoch). Pure (no `node:` import): the browser's verifier
 * reads leaves with it.
 */

const LEAF_TAG = 'page-root/v1';

/** One published page root, as its leaf names it. */
export interface PageLeaf {
  readonly scheme: number;
  readonly game: string;
  readonly stake: Cents;
  readonly blockId: string;
  readonly page: number;
  /** 64 lowercase hex digits. */
  readonly root: string;
  readonly publishedAt: number;
}

const WORD = /^[A-Za-z0-9_.-]{1,80}$/;
const ROOT = /^[0-9a-f]{64}$/;
const WHOLE = /^(0|[1-9][0-9]{0,15})$/;

function whole(text: string | undefined): number | undefined {
  return text !== undefined && WHOLE.test(text) && Number.isSafeInteger(Number(text)) ? Number(text) : undefined;
}

/** The leaf's text; throws on a field that would not read back the same. */
export function encodeLeaf(leaf: PageLeaf): string {
  const text = `${LEAF_TAG} ${leaf.scheme} ${leaf.game} ${leaf.stake} ${leaf.blockId} ${leaf.page} ${leaf.root} ${leaf.publishedAt}`;
  const back = decodeLeaf(text);
  if (!back || (Object.keys(back) as (keyof PageLeaf)[]).some((field) => back[field] !== leaf[field])) throw new RangeError(`not a page leaf: ${text}`);
  return text;
}

/** A leaf's fields, or undefined when the text is not exactly a leaf of this version. */
export function decodeLeaf(text: string): PageLeaf | undefined {
  const [tag, scheme, game, stake, blockId, page, root, publishedAt, ...rest] = text.split(' ');
  const fields = { scheme: whole(scheme), stake: whole(stake), page: whole(page), publishedAt: whole(publishedAt) };
  if (tag !== LEAF_TAG || rest.length > 0 || !WORD.test(game ?? '') || !WORD.test(blockId ?? '') || !ROOT.test(root ?? '')) return undefined;
  if (Object.values(fields).some((v) => v === undefined)) return undefined;
  return { scheme: fields.scheme!, game: game!, stake: fields.stake!, blockId: blockId!, page: fields.page!, root: root!, publishedAt: fields.publishedAt! };
}

/** The one name of a page in the log (what makes each page appear once): `<blockId>:<page>`. */
export function pageLeafId(blockId: string, page: number): string {
  return `${blockId}:${page}`;
}
