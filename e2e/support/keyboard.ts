import type { Locator, Page } from 'playwright-core';

/** The focused element as `tag:label` (its aria-label, its label's text or its own text). */
export function describeFocus(page: Page): Promise<string> {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return 'body';
    const label =
      element.getAttribute('aria-label') ??
      (element.id ? document.querySelector(`label[for="${element.id}"]`)?.textContent : null) ??
      element.closest('label')?.textContent ??
      element.textContent ??
      '';
    return `${element.tagName.toLowerCase()}:${label.replace(/\s+/g, ' ').trim()}`;
  });
}

/** Presses Tab `count` times and describes each focused element, in order. */
export async function tabStops(page: Page, count: number): Promise<string[]> {
  const stops: string[] = [];
  for (let i = 0; i < count; i++) {
    await page.keyboard.press('Tab');
    stops.push(await describeFocus(page));
  }
  return stops;
}

/**
 * Closes a dialog as a person does, with Escape twice within DOUBLE_ESCAPE_MS (200 ms), and waits
 * until it is gone. On a busy 2-core machine Playwright's two presses, each a round trip to the
 * browser, arrived once further apart than that (the dialog rightly stayed); a person's do not, so
 * a pair that came too late is pressed again, while the dialog is still there.
 */
export async function closeWithDoubleEscape(
  page: Page,
  dialog: Locator,
  state: 'detached' | 'hidden' = 'detached',
): Promise<void> {
  const pairs = 5;
  for (let pair = 1; ; pair++) {
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    try {
      await dialog.waitFor({ state, timeout: pair < pairs ? 3000 : 30_000 });
      return;
    } catch (error) {
      if (pair >= pairs) throw error;
    }
  }
}
