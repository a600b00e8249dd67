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
}

export async function newContext(browser: Browser, options: NewPageOptions = {}): Promise<BrowserContext> {
  return browser.newContext({
    viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
    colorScheme: options.colorScheme ?? 'light',
    locale: options.locale ?? 'es-ES',
  });
}

/** Collects page errors so a test can assert the app did not crash. */
export function trackErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => {
    if (!/ResizeObserver/.test(error.message)) errors.push(error.message);
  });
  return errors;
}
