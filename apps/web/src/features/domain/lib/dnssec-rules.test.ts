// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { digestLength, validateDigestForm, validatePubkeyForm } from './dnssec-rules';

const digest = (digesttype: string, value: string, keytag = '2371') =>
  validateDigestForm({ keytag, algorithm: '13', digesttype, digest: value });

describe('DNSSEC create', () => {
  it('wants the exact hex length of the digest type: SHA-1 40, SHA-256 64, GOST 64, SHA-384 96', () => {
    expect([1, 2, 3, 4].map(digestLength)).toEqual([40, 64, 64, 96]);
    expect(digest('1', 'a'.repeat(40))).toEqual({});
    expect(digest('2', 'B'.repeat(64))).toEqual({});
    expect(digest('3', 'c'.repeat(64))).toEqual({});
    expect(digest('4', 'd'.repeat(96))).toEqual({});
    expect(digest('2', 'a'.repeat(40)).digest).toEqual({ key: 'domain.error.digest_length', values: { length: 64 } });
    expect(digest('4', 'a'.repeat(64)).digest?.values).toEqual({ length: 96 });
    expect(digest('2', 'z'.repeat(64)).digest?.key).toBe('domain.error.digest_hex');
    expect(digest('2', '').digest?.key).toBe('validation.required');
  });

  it('keytag 0-65535', () => {
    expect(digest('1', 'a'.repeat(40), '0')).toEqual({});
    expect(digest('1', 'a'.repeat(40), '65535')).toEqual({});
    expect(digest('1', 'a'.repeat(40), '65536').keytag?.key).toBe('domain.error.keytag');
    expect(digest('1', 'a'.repeat(40), '').keytag?.key).toBe('validation.required');
  });

  it('public key: flags 256/257, protocol 3, a base64 key', () => {
    const key = 'mdsswUyr3DPW132mOi8V9xESWE8jTo0dxCjjnopKl+GqJxpVXckHAeF+KkxLbxILfDLUT0rAK9iUzy1L53eKGQ==';
    expect(validatePubkeyForm({ flags: '257', protocols: '3', algorithm: '13', digest: key })).toEqual({});
    expect(
      validatePubkeyForm({
        flags: '256',
        protocols: '3',
        algorithm: '13',
        digest: `${key.slice(0, 40)} ${key.slice(40)}`,
      }),
    ).toEqual({});
    const bad = validatePubkeyForm({ flags: '255', protocols: '2', algorithm: '13', digest: 'not base64!' });
    expect(Object.keys(bad).sort()).toEqual(['digest', 'flags', 'protocols']);
  });
});
