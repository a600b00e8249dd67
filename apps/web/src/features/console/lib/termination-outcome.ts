import type { ProviderTermination } from '@panel247/contract/provider';
import { formatEpoch } from '../../../lib/dates';

/**
 * What a termination's answer means for the staff, as an i18n key and its values, and whether it
 * failed: under way (its last backup being made), done (the backup kept until a day, or none),
 * or a step that kept failing with the server's reason.
 */
export function terminationOutcome(
  termination: ProviderTermination,
  language: string,
): { failed: boolean; key: string; values: Record<string, string> } {
  const { domain } = termination;
  if (termination.state === 'failed') {
    return { failed: true, key: 'console.terminate.failed', values: { domain, error: termination.error } };
  }
  if (termination.state === 'terminating')
    return { failed: false, key: 'console.terminate.started', values: { domain } };
  if (termination.keptUntil === null)
    return { failed: false, key: 'console.terminate.done_no_backup', values: { domain } };
  return {
    failed: false,
    key: 'console.terminate.done',
    values: { domain, date: formatEpoch(termination.keptUntil, language, 'day') },
  };
}
