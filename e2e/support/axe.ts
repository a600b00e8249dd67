import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';

export interface AxeProblem {
  id: string;
  impact: string | null | undefined;
  help: string;
  targets: string[];
}

/** Serious or critical axe-core violations of the page as it is now (none is the bar). */
export async function seriousViolations(page: Page): Promise<AxeProblem[]> {
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
