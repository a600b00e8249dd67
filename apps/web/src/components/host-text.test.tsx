import { describe, expect, it } from 'vitest';
import { hexGroups } from './hex-text';
import { hostParts } from './host-text';

describe('where long values may wrap', () => {
  it('host names, addresses and paths: after each dot, @ and /, never inside a label', () => {
    expect(hostParts('imap.demo.test')).toEqual(['imap.', 'demo.', 'test']);
    expect(hostParts('info@demo.test')).toEqual(['info@', 'demo.', 'test']);
    expect(hostParts('/www/blog')).toEqual(['/', 'www/', 'blog']);
    expect(hostParts('localhost')).toEqual(['localhost']);
    expect(hostParts('imap.demo.test').join('')).toBe('imap.demo.test');
  });

  it('hex digests: in groups of eight, so no character is left alone on a line', () => {
    const digest = 'ab'.repeat(32);
    expect(hexGroups(digest)).toHaveLength(8);
    expect(hexGroups(digest).every((group) => group.length === 8)).toBe(true);
    expect(hexGroups('abcdef0123')).toEqual(['abcdef01', '23']);
    expect(hexGroups('').length).toBe(0);
  });
});
