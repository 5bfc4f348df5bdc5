import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Application } from 'express';
import { gameCatalog } from '../games/catalog';
import { paceOf, type PaceSettings } from '../play/pacing';

/**
 * `GET /games`: the game catalog (src/games/catalog.ts), public and the same for everyone, so
 * encoded once and cacheable by any proxy for a while: it does not change while running. Each
 * game carries its pace, the server's settings. It is a sixth of a first visit as plain JSON:
 * compressed once too, brotli or gzip as the browser takes (brotli first, as for the page's files).
 */
export function mountCatalogRoutes(app: Application, pace: PaceSettings): void {
  const body = Buffer.from(JSON.stringify(gameCatalog((game) => paceOf(pace, game))));
  const encoded = {
    br: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
    gzip: gzipSync(body, { level: constants.Z_BEST_COMPRESSION }),
  };
  app.get('/games', (req, res) => {
    const encoding = req.acceptsEncodings('br') ? 'br' : req.acceptsEncodings('gzip') ? 'gzip' : undefined;
    res.set({ 'cache-control': 'public, max-age=60', vary: 'accept-encoding' }).type('application/json');
    if (encoding) res.set('content-encoding', encoding).send(encoded[encoding]);
    else res.send(body);
  });
}
