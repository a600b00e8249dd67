import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';

export interface AxeProblem {
  id: string;
  impact: string | null | undefined;
  help: string;
  targets: string[];
}

/**
 * Waits until no CSS transition or animation has run for STILL_FRAMES frames in a row. A modal or
 * tooltip that is still fading in has its text at partial opacity, which axe reports as a
 * colour-contrast failure that no user ever sees. One quiet frame is not enough: Mantine mounts a
 * tooltip with its "before" styles and starts the transition a frame later, and a check made in
 * between once let axe run into the fade (mail-auth.test.ts, after a copy button's click).
 */
const STILL_FRAMES = 10;

async function settledAnimations(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as { __stillFrames: number }).__stillFrames = 0;
  });
  await page.waitForFunction(
    (frames) => {
      const moving = document
        .getAnimations()
        // Spinners and skeleton pulses loop for ever; only finite transitions are waited for.
        .filter((animation) => animation.effect?.getTiming().iterations !== Number.POSITIVE_INFINITY)
        .some((animation) => animation.playState === 'running');
      const counter = window as unknown as { __stillFrames: number };
      counter.__stillFrames = moving ? 0 : counter.__stillFrames + 1;
      return counter.__stillFrames >= frames;
    },
    STILL_FRAMES,
    { polling: 'raf', timeout: 5000 },
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
