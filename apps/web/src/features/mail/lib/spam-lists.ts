import type { SpamSender } from '@panel247/contract/mail-spam';

/** Whether the lists hold as many senders as the plan allows (null: no limit): another would be refused. */
export function senderLimitReached(count: number, maxSenders: number | null): boolean {
  return maxSenders !== null && count >= maxSenders;
}

/** The block list first (what the user most often comes to check), each list by sender. */
export function sortedSenders(senders: readonly SpamSender[]): SpamSender[] {
  return [...senders].sort((a, b) =>
    a.list === b.list ? a.sender.localeCompare(b.sender) : a.list === 'block' ? -1 : 1,
  );
}

/** rspamd's score in the language's digits ("7,5"); a score it could not read is shown as it came. */
export function spamScoreText(score: string, language: string): string {
  const value = Number(score);
  return score !== '' && Number.isFinite(value)
    ? new Intl.NumberFormat(language, { maximumFractionDigits: 2 }).format(value)
    : score;
}
