// @vitest-environment node
import type { SpamSender } from '@panel247/contract/mail-spam';
import { describe, expect, it } from 'vitest';
import { senderLimitReached, sortedSenders, spamScoreText } from './spam-lists';

const sender = (id: number, list: SpamSender['list'], name: string): SpamSender => ({
  id,
  list,
  sender: name,
  createdAt: 0,
});

describe('spam lists', () => {
  it('is full at the plan’s limit, never without one', () => {
    expect(senderLimitReached(2, 3)).toBe(false);
    expect(senderLimitReached(3, 3)).toBe(true);
    expect(senderLimitReached(500, null)).toBe(false);
  });

  it('puts the block list first, each list by sender', () => {
    const sorted = sortedSenders([
      sender(1, 'allow', 'b.example'),
      sender(2, 'block', 'z.example'),
      sender(3, 'allow', 'a.example'),
      sender(4, 'block', 'ana@y.example'),
    ]);
    expect(sorted.map((one) => one.id)).toEqual([4, 2, 3, 1]);
  });

  it('writes the score in the language’s digits', () => {
    expect(spamScoreText('7.5', 'es')).toBe('7,5');
    expect(spamScoreText('12', 'en')).toBe('12');
    expect(spamScoreText('n/a', 'es')).toBe('n/a');
  });
});
