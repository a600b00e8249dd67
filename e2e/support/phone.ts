import type { Locator, Page } from 'playwright-core';

/** The phone the layouts are checked at (an iPhone 12–15's viewport). */
export const PHONE = { width: 390, height: 844 };

/** Whether the element is drawn, and wholly inside the phone's width (nothing to scroll sideways to). */
export async function insideViewport(locator: Locator): Promise<{ visible: boolean; left: number; right: number }> {
  await locator.scrollIntoViewIfNeeded();
  const box = await locator.boundingBox();
  return {
    visible: await locator.isVisible(),
    left: Math.round(box?.x ?? -1),
    right: Math.round((box?.x ?? 0) + (box?.width ?? PHONE.width + 1)),
  };
}

/** The page's widest element is no wider than the screen: no row, badge or host pushes it out. */
export async function pageWidth(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth);
}
