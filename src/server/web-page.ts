import { existsSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type Application, type NextFunction, type Request, type Response } from 'express';
import { connectSources, frameAncestors } from './edge';

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

/** The page's text files, which the build also writes compressed beside themselves (`.br`, `.gz`). */
export const COMPRESSIBLE = /\.(?:js|css|html|svg)$/;

/**
 * The page may load only itself and talk only to this server and the deployment's other
 * processes (HTTP and WebSocket: `connectSources`); it may be framed only by the operator's
 * sites, when there are any (`frameAncestors`).
 */
function contentSecurityPolicy(publicAddresses: readonly string[], operatorOrigins: readonly string[]): string {
  return [
    "default-src 'self'",
    `connect-src ${connectSources(publicAddresses).join(' ')}`,
    "img-src 'self' data:",
    `frame-ancestors ${frameAncestors(operatorOrigins).join(' ')}`,
    "base-uri 'none'",
    "form-action 'self'",
  ].join('; ');
}

function secure(res: Response, path: string, policy: string): void {
  res.set({
    'content-security-policy': policy,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    // Bundled files carry their hash in their name: kept; the page itself is always asked again.
    'cache-control': path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
  });
}

/**
 * Sends the brotli (else gzip) copy the build made of a text file, when the browser takes it;
 * anything else goes on to the plain files.
 */
function precompressed(policy: string, req: Request, res: Response, next: NextFunction): void {
  const path = req.path.endsWith('/') ? `${req.path}index.html` : req.path;
  if ((req.method !== 'GET' && req.method !== 'HEAD') || !COMPRESSIBLE.test(path)) return next();
  // Browsers name gzip before br at the same weight ("gzip, deflate, br, zstd"): brotli, the
  // smaller copy, is sent whenever it is taken at all.
  const encoding = req.acceptsEncodings('br') ? 'br' : req.acceptsEncodings('gzip') ? 'gzip' : undefined;
  if (encoding === undefined) return next();
  const file = join(WEB_DIST, normalize(`/${path}`) + (encoding === 'br' ? '.br' : '.gz'));
  if (!existsSync(file)) return next();
  secure(res, path, policy);
  res.set({ 'content-encoding': encoding, vary: 'accept-encoding' });
  res.type(extname(path));
  res.sendFile(file, { cacheControl: false, dotfiles: 'deny' }, (err) => err && next(err));
}

/** Serves the browser page at `/`, from its built folder; `/favicon.ico` is its SVG icon. */
export function mountWebPage(app: Application, publicAddresses: readonly string[], operatorOrigins: readonly string[]): void {
  const policy = contentSecurityPolicy(publicAddresses, operatorOrigins);
  app.use(precompressed.bind(undefined, policy));
  app.use(express.static(WEB_DIST, { index: 'index.html', dotfiles: 'ignore', fallthrough: true, setHeaders: (res, path) => secure(res, path, policy) }));
  app.get('/favicon.ico', (req, res, next) => {
    req.url = '/favicon.svg';
    precompressed(policy, req, res, () => res.type('svg').sendFile(join(WEB_DIST, 'favicon.svg'), { cacheControl: false }, (err) => err && next(err)));
  });
  app.get('/', (_req, res) => {
    // Reached only when the page is not built (npm start builds it first).
    res.status(503).type('text/plain').send(existsSync(WEB_DIST)
      ? 'the page is missing from web/dist: run npm run build:web'
      : 'the page is not built: run npm run build:web (npm start does it)');
  });
}
