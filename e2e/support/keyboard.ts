import type { Page } from 'playwright-core';

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
