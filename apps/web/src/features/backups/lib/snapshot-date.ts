import { formatEpoch } from '../../../lib/dates';

/** A snapshot's time (epoch seconds) as the list and the restore dialog name it. */
export function snapshotDate(seconds: number, language: string): string {
  return formatEpoch(seconds, language);
}
