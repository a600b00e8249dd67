import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { launchBrowser, type NewPageOptions, newContext, trackErrors } from './browser';
import { type PanelServer, type StartOptions, startServer } from './server';

/** A describe block's own panel server and Chromium; read the fields inside hooks and tests. */
export interface BrowserSuite {
  server: PanelServer;
  browser: Browser;
}

/** The same, plus one signed-in page shared by the block's tests (one login per file). */
export interface PageSuite extends BrowserSuite {
  context: BrowserContext;
  page: Page;
  /** The page's errors so far (see `trackErrors`). */
  errors: string[];
}

/**
 * Starts a server (then `prepare`, such as extra data through the CLI) and Chromium before the
 * block's tests; closes both after them.
 */
export function browserSuite(start: StartOptions, prepare?: (server: PanelServer) => Promise<void>): BrowserSuite {
  const suite = {} as BrowserSuite;
  beforeAll(async () => {
    suite.server = await startServer(start);
    await prepare?.(suite.server);
    suite.browser = await launchBrowser();
  });
  afterAll(async () => {
    await suite.browser?.close();
    await suite.server?.stop();
  });
  return suite;
}

/**
 * `browserSuite` with one page, brought by `open` to where the tests start (usually signed in
 * and on the view under test). After the tests the page must not have logged an error, unless
 * the block checks `errors` itself (`checkErrors: false`).
 */
export function pageSuite(
  start: StartOptions,
  open: (page: Page, server: PanelServer) => Promise<void>,
  options: { clipboard?: boolean; checkErrors?: boolean; context?: NewPageOptions } = {},
): PageSuite {
  const suite = browserSuite(start) as PageSuite;
  beforeAll(async () => {
    suite.context = await newContext(suite.browser, options.context);
    if (options.clipboard) {
      await suite.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.server.url });
    }
    suite.page = await suite.context.newPage();
    suite.errors = trackErrors(suite.page);
    await open(suite.page, suite.server);
  });
  // after hooks run last-registered first: this one before the browser and server stop
  afterAll(async () => {
    if (options.checkErrors !== false) expect(suite.errors).toEqual([]);
    await suite.context?.close();
  });
  return suite;
}
