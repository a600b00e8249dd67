import { describe, expect, it } from 'vitest';
import { isRedirectionPath, isServiceFolder, isSubdomainName, MAX_SEGMENTS } from '../src/hosting-rules.ts';

describe('hosting rules', () => {
  it('takes RFC 1123 labels as a subdomain, at most 190 characters', () => {
    for (const good of ['www', 'a', 'shop.eu', 'x-1.y2', `${'a'.repeat(63)}.b`])
      expect(isSubdomainName(good)).toBe(true);
    for (const bad of ['', '-a', 'a-', 'a..b', '.a', 'a.', 'a_b', 'WWW', 'ñu', 'a b', `${'a'.repeat(64)}`]) {
      expect(isSubdomainName(bad)).toBe(false);
    }
    expect(isSubdomainName(`${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(62)}`)).toBe(true);
    expect(isSubdomainName(`${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}`)).toBe(false);
  });

  it('takes folders of letters, digits and . _ - below the home, never . or ..', () => {
    for (const good of ['', 'web', 'a/b.c/d_e-f', 'A1/.hidden']) expect(isServiceFolder(good)).toBe(true);
    for (const bad of ['..', 'a/../b', 'a/./b', 'a//b', '/a', 'a/', 'a b', 'a~b', 'a$b', 'x'.repeat(65)]) {
      expect(isServiceFolder(bad)).toBe(false);
    }
    expect(isServiceFolder(Array(MAX_SEGMENTS).fill('a').join('/'))).toBe(true);
    expect(
      isServiceFolder(
        Array(MAX_SEGMENTS + 1)
          .fill('a')
          .join('/'),
      ),
    ).toBe(false);
  });

  it('takes redirection paths like folders, with ~ too', () => {
    for (const good of ['', 'shop', '~user/old.html', 'a/b-c_d']) expect(isRedirectionPath(good)).toBe(true);
    for (const bad of ['..', 'a/..', 'a//b', 'a?b', 'a b', 'a;b', 'a{b}']) expect(isRedirectionPath(bad)).toBe(false);
    expect(
      isRedirectionPath(
        Array(MAX_SEGMENTS + 1)
          .fill('a')
          .join('/'),
      ),
    ).toBe(false);
  });
});
