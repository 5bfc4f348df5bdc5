import type { Browser, BrowserContext, Page } from 'playwright-core';

/** One browser tab, with what it tried that its CSP blocked and every request line it sent. */
export interface Tab {
  readonly origin: string;
  readonly context: BrowserContext;
  readonly page: Page;
  /** `securitypolicyviolation` events and the console's CSP complaints. */
  readonly violations: string[];
  /** Every URL the tab asked for: HTTP requests and WebSocket upgrades, as a proxy would log them. */
  readonly requests: string[];
  readonly sockets: string[];
}

/** A tab in a context of its own (its own storage: another person), watched for CSP violations and requests. */
export async function openTab(browser: Browser, origin: string): Promise<Tab> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const tab: Tab = { origin, context, page, violations: [], requests: [], sockets: [] };
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`));
    // Every socket the page opens, so that a test can cut one as a network failure would.
    const sockets: WebSocket[] = ((window as unknown as { sockets: WebSocket[] }).sockets = []);
    window.WebSocket = class extends window.WebSocket {
      constructor(...args: ConstructorParameters<typeof WebSocket>) {
        super(...args);
        sockets.push(this);
      }
    };
  });
  page.on('console', (message) => {
    if (/Content Security Policy|CSP violation/i.test(message.text())) tab.violations.push(message.text());
  });
  page.on('request', (request) => tab.requests.push(request.url()));
  page.on('websocket', (socket) => {
    tab.requests.push(socket.url());
    tab.sockets.push(socket.url());
  });
  return tab;
}
