// @vitest-environment node
import { FTP_USER_MAX } from '@panel247/contract/ftp-rules';
import { describe, expect, it } from 'vitest';
import { folderError, folderLabel, folderToApi, passwordError, userError, validateFtpCreate } from './ftp-rules';

describe('FTP form rules', () => {
  it('takes the name length from the contract (10, spec section 9)', () => {
    expect(FTP_USER_MAX).toBe(10);
  });

  it('checks the name: required, at most 10, letters, digits and . _ - inside', () => {
    expect(userError('')).toBe('validation.required');
    expect(userError('   ')).toBe('validation.required');
    expect(userError('web')).toBeNull();
    expect(userError('Web.Dev-01')).toBeNull();
    expect(userError('abcdefghijk')).toBe('ftp.user_too_long');
    expect(userError('-web')).toBe('ftp.invalid_user');
    expect(userError('web.')).toBe('ftp.invalid_user');
    expect(userError('we b')).toBe('ftp.invalid_user');
    expect(userError('web@x')).toBe('ftp.invalid_user');
  });

  it('takes folders relative to the home, "/" being the home', () => {
    expect(folderError('')).toBe('validation.required');
    expect(folderError('/')).toBeNull();
    expect(folderError('web')).toBeNull();
    expect(folderError('/web/uploads/')).toBeNull();
    expect(folderError('../etc')).toBe('ftp.invalid_folder');
    expect(folderError('web/../..')).toBe('ftp.invalid_folder');
    expect(folderError('web//x')).toBe('ftp.invalid_folder');
    expect(folderError('we b')).toBe('ftp.invalid_folder');
    expect(folderError(Array.from({ length: 17 }, () => 'a').join('/'))).toBe('ftp.invalid_folder');
    expect(folderToApi('/')).toBe('');
    expect(folderToApi(' /web/uploads/ ')).toBe('web/uploads');
    expect(folderLabel('')).toBe('/');
    expect(folderLabel('web/uploads')).toBe('/web/uploads');
  });

  it('reports every field of the create form', () => {
    expect(validateFtpCreate({ ftpUser: '', password: '', folder: '' })).toEqual({
      ftpUser: 'validation.required',
      password: 'validation.required',
      folder: 'validation.required',
    });
    expect(validateFtpCreate({ ftpUser: 'web', password: 'x', folder: '/' })).toEqual({});
  });

  it('refuses a password past the 72 bytes bcrypt reads, counting accented letters twice', () => {
    expect(passwordError('')).toBe('validation.required');
    expect(passwordError('p'.repeat(72))).toBeNull();
    expect(passwordError('p'.repeat(73))).toBe('ftp.password_too_long');
    expect(passwordError('ñ'.repeat(36))).toBeNull();
    expect(passwordError('ñ'.repeat(37))).toBe('ftp.password_too_long');
  });
});
