import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Flags for a closed network: nothing phones home, nothing is downloaded. */
const QUIET_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The machine's Chromium when it has one, else the one the npm package `@sparticuz/chromium` ships. */
async function chromiumPath(): Promise<{ executablePath: string; args: string[] }> {
  for (const path of ['/usr/bin/chromium', '/usr/bin/chromium-browser']) {
    if (existsSync(path)) return { executablePath: path, args: [] };
  }
  const { default: packaged } = await import('@sparticuz/chromium');
  // Its flags are for a serverless function; these would weaken the page (web security) or
  // take the whole browser down with one closed context (single process).
  const unwanted = new Set(['--single-process', '--disable-web-security', '--allow-running-insecure-content', '--disable-site-isolation-trials']);
  return { executablePath: await packaged.executablePath(), args: packaged.args.filter((a) => !unwanted.has(a)) };
}

/**
 * A headless Chromium, never one downloaded at run time. Playwright gives each launch a fresh
 * temporary profile (it refuses a --user-data-dir of ours) and removes it on close. `flags`: more
 * of Chromium's (a test's self-signed certificate trusted by its key, say).
 */
export async function launchBrowser(flags: readonly string[] = []): Promise<Browser> {
  const { executablePath, args } = await chromiumPath();
  return chromium.launch({ executablePath, args: [...new Set([...args, ...QUIET_FLAGS, ...flags])], headless: true, timeout: 60_000 });
}
