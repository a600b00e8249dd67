import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';

export interface AxeProblem {
  id: string;
  impact: string | null | undefined;
  help: string;
  targets: string[];
}

/**
 * Waits until no CSS transition or animation is running. A modal that is still fading in has its
 * text at partial opacity, which axe reports as a colour-contrast failure that no user ever sees.
 */
async function settledAnimations(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      document
        .getAnimations()
        // Spinners and skeleton pulses loop for ever; only finite transitions are waited for.
        .filter((animation) => animation.effect?.getTiming().iterations !== Number.POSITIVE_INFINITY)
        .every((animation) => animation.playState !== 'running'),
    undefined,
    { timeout: 5000 },
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
      targets: violation.nodes.map((node) => node.target.join(' ')),
    }));
}
