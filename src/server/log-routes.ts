import type { Application, Request } from 'express';
import { parseBlockId } from '../ids';
import type { CheckpointLog } from './checkpoints';
import { asyncRoute, sendRefusal } from './edge';

const WHOLE = /^(0|[1-9][0-9]{0,14})$/;

/** A query field that is one whole number (not a list, not text), or undefined. */
function whole(req: Request, name: string): number | undefined {
  const value = req.query[name];
  return typeof value === 'string' && WHOLE.test(value) ? Number(value) : undefined;
}

/** Whether the query has exactly these fields. */
function hasOnly(req: Request, names: readonly string[]): boolean {
  const keys = Object.keys(req.query);
  return keys.length === names.length && names.every((n) => keys.includes(n));
}

/**
 * The log of page roots' public routes, no token (docs/fairness.md, "Checkpoints"): its keys,
 * its latest signed checkpoint, and proofs of inclusion and consistency. Read-only; what a
 * hostile client sends is whole numbers and a block id, checked before any read.
 */
export function mountLogRoutes(app: Application, log: CheckpointLog): void {
  app.get('/fairness/log/key', (_req, res) => {
    res.json(log.keys);
  });

  app.get('/fairness/log/checkpoint', asyncRoute(async (_req, res) => {
    res.json(await log.checkpoint());
  }));

  app.get('/fairness/log/consistency', asyncRoute(async (req, res) => {
    const [from, to] = [whole(req, 'from'), whole(req, 'to')];
    if (!hasOnly(req, ['from', 'to']) || from === undefined || to === undefined || from > to) {
      return sendRefusal(res, 400, 'fairness/log_malformed', 'from and to: whole numbers, from ≤ to');
    }
    const reply = await log.consistency(from, to);
    if (!reply) return sendRefusal(res, 404, 'fairness/log_not_found', `the log has fewer than ${to} leaves`);
    res.json(reply);
  }));

  app.get('/fairness/log/inclusion', asyncRoute(async (req, res) => {
    const byIndex = hasOnly(req, ['index']);
    const index = whole(req, 'index');
    const blockId = typeof req.query['blockId'] === 'string' ? req.query['blockId'] : '';
    const page = whole(req, 'page');
    if (byIndex ? index === undefined : !hasOnly(req, ['blockId', 'page']) || !parseBlockId(blockId) || page === undefined) {
      return sendRefusal(res, 400, 'fairness/log_malformed', 'give blockId and page, or index');
    }
    const reply = byIndex ? await log.inclusion(index!) : await log.inclusionOf(blockId, page!);
    if (!reply) return sendRefusal(res, 404, 'fairness/log_not_found', byIndex ? `no leaf ${index} in the log` : `page ${page} of ${blockId} is not in the log`);
    res.json(reply);
  }));
}
