import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';

export interface AxeProblem {
  id: string;
  impact: string | null | undefined;
  help: string;
  targets: string[];
}

/**
 * Waits until no CSS transition or animation has run for STILL_MS. A modal or tooltip that is
 * still fading in has its text at partial opacity, which axe reports as a colour-contrast failure
 * that no user ever sees. One quiet moment is not enough: Mantine mounts a tooltip with its
 * "before" styles and starts the transition a frame later, and a check made in between once let
 * axe run into the fade (mail-auth.test.ts, after a copy button's click). Timed rather than
 * counted in frames: a page in a background tab gets no animation frames at all. An element whose
 * inline opacity is between 0 and 1 counts as moving too (a notification on its way in or out
 * once failed the backups test on a loaded machine).
 */
const STILL_MS = 150;

async function settledAnimations(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as { __stillSince: number | null }).__stillSince = null;
  });
  await page.waitForFunction(
    (stillMs) => {
      const moving =
        document
          .getAnimations()
          // Spinners and skeleton pulses loop for ever; only finite transitions are waited for.
          .filter((animation) => animation.effect?.getTiming().iterations !== Number.POSITIVE_INFINITY)
          .some((animation) => animation.playState === 'running') ||
        // Mantine's Transition writes the opacity inline for each step: a notification that is
        // coming or going is half transparent before or after its CSS transition runs.
        [...document.querySelectorAll<HTMLElement>('[style*="opacity"]')].some((element) => {
          const opacity = Number.parseFloat(element.style.opacity);
          return opacity > 0 && opacity < 1;
        });
      const state = window as unknown as { __stillSince: number | null };
      if (moving) state.__stillSince = null;
      else state.__stillSince ??= performance.now();
      return state.__stillSince !== null && performance.now() - state.__stillSince >= stillMs;
    },
    STILL_MS,
    { polling: 25, timeout: 5000 },
  );
}

/** Serious or critical axe-core violations of the page once it is still (none is the bar). */
export async function seriousViolations(page: Page): Promise<AxeProblem[]> {
  await settledAnimations(page);
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      // The element's opening tag says which one it is where the target is only a generated id.
      targets: violation.nodes.map((node) => `${node.target.join(' ')} ${node.html.slice(0, 160)}`),
    }));
}
