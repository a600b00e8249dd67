import { describe, expect, it } from 'vitest';
import { problemType } from '../../src/drivers/acme/acme.driver.ts';
import { DaemonError } from '../../src/errors.ts';

describe("an ACME CA's problem", () => {
  it('is read from the problem document acme-client passes on, in the message or the detail', () => {
    expect(problemType(new Error('urn:ietf:params:acme:error:rateLimited: too many certificates'))).toBe('rateLimited');
    expect(
      problemType(new DaemonError('acme.error.ca', '{"error":{"type":"urn:ietf:params:acme:error:caa","detail":"x"}}')),
    ).toBe('caa');
    expect(problemType(new DaemonError('acme.error.ca', 'urn:ietf:params:acme:error:unauthorized'))).toBe(
      'unauthorized',
    );
    expect(problemType(new Error('socket hang up'))).toBeUndefined();
  });
});
