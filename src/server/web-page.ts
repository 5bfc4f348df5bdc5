import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import express, { type Application, type Response } from 'express';

/**
 * Where the built page is: seen from dist/src/server/ (the bundle of `npm run build`, where each
 * module keeps its source path under dist/), dist/web/dist/, the copy `npm run build` puts in
 * dist/ so that dist/ ships alone; seen from src/server/ (tsx), web/dist/ at the project's root,
 * where `npm run build:web` writes it (web/vite.config.ts). A bundle run from a checkout without
 * its copy falls back to the root's web/dist/.
 */
export const WEB_DIST = [new URL('../../web/dist/', import.meta.url), new URL('../../../web/dist/', import.meta.url)]
  .map((url) => fileURLToPath(url))
  .find((dir) => existsSync(dir)) ?? fileURLToPath(new URL('../../web/dist/', import.meta.url));

/**
 * The page may load only itself and talk only to this server (HTTP and WebSocket: 'self'
 * covers ws: on the same host); it may not be framed (no clickjacking of the buy button).
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

function secure(res: Response, path: string): void {
  res.set({
    'content-security-policy': CONTENT_SECURITY_POLICY,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    // Bundled files carry their hash in their name: kept; the page itself is always asked again.
    'cache-control': path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
  });
}

/** Serves the browser page at `/`, from its built folder. */
export function mountWebPage(app: Application): void {
  app.use(express.static(WEB_DIST, { index: 'index.html', dotfiles: 'ignore', fallthrough: true, setHeaders: secure }));
  app.get('/', (_req, res) => {
    // Reached only when the page is not built (npm start builds it first).
    res.status(503).type('text/plain').send(existsSync(WEB_DIST)
      ? 'the page is missing from web/dist: run npm run build:web'
      : 'the page is not built: run npm run build:web (npm start does it)');
  });
}
