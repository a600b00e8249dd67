import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { newContext, trackErrors } from './browser';

/**
 * A second signed-in user for a `describe` block (the read-only viewer): its own browser context
 * and page, opened by `open` before the block's tests; after them, the page must not have logged
 * any error, and the context closes. Read `page` inside the tests (it exists from `beforeAll` on).
 */
export function pageSession(browser: () => Browser, open: (page: Page) => Promise<void>): { readonly page: Page } {
  const session = {} as { page: Page };
  let close: (() => Promise<void>) | undefined;
  let errors: string[] = [];
  beforeAll(async () => {
    const context = await newContext(browser());
    close = () => context.close();
    session.page = await context.newPage();
    errors = trackErrors(session.page);
    await open(session.page);
  });
  afterAll(async () => {
    expect(errors).toEqual([]);
    await close?.();
  });
  return session;
}
