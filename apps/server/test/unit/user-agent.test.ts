import { describe, expect, it } from 'vitest';
import { describeUserAgent } from '../../src/modules/auth/user-agent.ts';

describe('a session’s user agent, as the sessions list shows it', () => {
  it.each([
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
      { browser: 'Safari 18', os: 'macOS Catalina', device: 'desktop' },
    ],
    [
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
      { browser: 'Chrome 131', os: 'Android 14', device: 'mobile' },
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
      { browser: 'Microsoft Edge 131', os: 'Windows 10', device: 'desktop' },
    ],
    [
      'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      { browser: 'Safari 17', os: 'iOS 17.5', device: 'tablet' },
    ],
  ])('names the browser, its major version and the system: %s', (userAgent, expected) => {
    expect(describeUserAgent(userAgent)).toEqual(expected);
  });

  it('leaves what it cannot name empty instead of echoing the header', () => {
    expect(describeUserAgent('')).toEqual({ browser: '', os: '', device: 'other' });
    expect(describeUserAgent('   ')).toEqual({ browser: '', os: '', device: 'other' });
    const odd = describeUserAgent('<script>alert(1)</script>');
    expect(odd.os).toBe('');
    expect(odd.device).toBe('other');
    expect(JSON.stringify(odd)).not.toContain('<script>');
    // An unknown client keeps a short name of its own, but never a sentence or a long string.
    expect(describeUserAgent('MyBot/1.0 (+https://bot.example)').browser).toBe('MyBot 1');
    expect(describeUserAgent('Call +1 555 0100 now: your bank/1.0 (x)').browser).toBe('');
    expect(describeUserAgent(`${'a'.repeat(300)}/1 x`).browser).toBe('');
  });
});
