// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { keyLimitReached, SERVICE_LOGIN, sftpKeyPayload, validateSftpKey } from './sftp-key-form';

describe('SSH key form', () => {
  it('asks for a login and a key on one line that is not the private half', () => {
    expect(validateSftpKey({ ftpId: '', name: '', key: ' ' })).toEqual({
      ftpId: 'sftp.error_login',
      key: 'validation.required',
    });
    expect(validateSftpKey({ ftpId: '3', name: '', key: '-----BEGIN OPENSSH PRIVATE KEY-----' })).toEqual({
      key: 'sftp.error_private',
    });
    expect(validateSftpKey({ ftpId: '3', name: '', key: 'ssh-ed25519 AAAA a\nssh-ed25519 BBBB b' })).toEqual({
      key: 'sftp.error_one_line',
    });
    expect(validateSftpKey({ ftpId: SERVICE_LOGIN, name: '', key: ' ssh-ed25519 AAAA a ' })).toEqual({});
  });

  it('sends the service’s own login as an empty account, everything trimmed', () => {
    expect(sftpKeyPayload({ ftpId: SERVICE_LOGIN, name: ' casa ', key: ' ssh-ed25519 AAAA a\n' })).toEqual({
      ftpId: '',
      name: 'casa',
      key: 'ssh-ed25519 AAAA a',
    });
    expect(sftpKeyPayload({ ftpId: '7', name: '', key: 'k' }).ftpId).toBe('7');
  });

  it('knows when the plan has no room for another key', () => {
    expect(keyLimitReached(2, 2)).toBe(true);
    expect(keyLimitReached(1, 2)).toBe(false);
    expect(keyLimitReached(500, null)).toBe(false);
  });
});
