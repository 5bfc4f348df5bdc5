import type { Application } from 'express';
import { parisDay } from '../wallet/reconcile';
import { ledgerLines } from '../wallet/seamless/ledger';
import { isOperator } from './callers';
import { asyncRoute, sendRefusal } from './edge';
import type { Services } from './services';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

/**
 * `GET /admin/wallet-ledger?day=YYYY-MM-DD` (operator token; WALLET_MODE=seamless): the server's
 * wallet ledger of that day in Europe/Paris, one JSON line per movement, in the format of the
 * operator's export, for `npm run reconcile` (docs/integration.md, "Reconciliation").
 */
export function mountWalletLedgerRoute(app: Application, services: Services): void {
  app.get('/admin/wallet-ledger', asyncRoute(async (req, res) => {
    if (!isOperator(req, services)) return sendRefusal(res, 401, 'auth/operator_only', 'operator token required');
    const { seamless } = services;
    if (!seamless) return sendRefusal(res, 404, 'wallet/not_here', 'the server holds the money itself (WALLET_MODE=internal): it has no seamless ledger');
    const day = req.query['day'];
    if (typeof day !== 'string' || !DAY.test(day) || Number.isNaN(Date.parse(`${day}T00:00:00Z`))) {
      return sendRefusal(res, 400, 'wallet/malformed', 'day must be a date YYYY-MM-DD (a day in Europe/Paris)');
    }
    // A Paris day lies within the UTC day of that date, widened by a few hours each way.
    const midnight = Date.parse(`${day}T00:00:00Z`);
    const txs = await seamless.outbox.created(midnight - DAY_MS / 4, midnight + DAY_MS + DAY_MS / 4);
    const lines = ledgerLines(txs).filter((line) => parisDay(line.at) === day);
    res.type('application/x-ndjson').send(lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
  }));
}
