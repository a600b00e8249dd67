import { existsSync } from 'node:fs';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Whether the browser tests can run. In CI (CI=true) a missing Chromium is an error, never a
 * skip; elsewhere the tests are skipped with a message.
 */
export function chromiumAvailable(): boolean {
  const found = existsSync(CHROMIUM_PATH);
  if (!found && process.env.CI === 'true') {
    throw new Error(`Chromium not found at ${CHROMIUM_PATH}: install Debian's chromium (CI must not skip e2e)`);
  }
  if (!found) console.warn(`e2e: Chromium not found at ${CHROMIUM_PATH}; skipping browser tests`);
  return found;
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export interface NewPageOptions {
  width?: number;
  height?: number;
  colorScheme?: 'light' | 'dark';
  locale?: string;
  timezoneId?: string;
}

export async function newContext(browser: Browser, options: NewPageOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
    colorScheme: options.colorScheme ?? 'light',
    locale: options.locale ?? 'es-ES',
    timezoneId: options.timezoneId,
  });
  context.on('page', navigationsWaitUntilUsable);
  return context;
}

/** The mark of a page whose first screen the server drew, until the app has taken it over (apps/web/src/lib/server-drawn.tsx). */
export const SERVER_DRAWN = '#root[data-server-drawn]';

type Navigation = (...args: unknown[]) => Promise<unknown>;

/**
 * A page the server drew shows its rows before the app has run, inert until the app has taken it
 * over. A person waits for it to respond; so do the tests: a navigation resolves once the page is
 * usable, so a test's first focus, key press or title check meets the app, not its HTML.
 * `waitUntil: 'commit'` keeps the bare navigation, for the tests that watch the first screen itself.
 */
function navigationsWaitUntilUsable(page: Page): void {
  const target = page as unknown as Record<string, Navigation>;
  for (const name of ['goto', 'reload', 'goBack', 'goForward']) {
    const navigate = (target[name] as Navigation).bind(page);
    target[name] = async (...args: unknown[]) => {
      const response = await navigate(...args);
      const options = args.find((arg): arg is { waitUntil?: string } => typeof arg === 'object' && arg !== null);
      if (options?.waitUntil !== 'commit') {
        await page.waitForFunction((selector) => !document.querySelector(selector), SERVER_DRAWN, { timeout: 30_000 });
      }
      return response;
    };
  }
}

/** Collects page errors so a test can assert the app did not crash. */
export function trackErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => {
    if (!/ResizeObserver/.test(error.message)) errors.push(error.message);
  });
  return errors;
}
