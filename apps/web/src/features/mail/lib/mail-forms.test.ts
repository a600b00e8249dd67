// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { aliasServerErrors, quotaError, validateAliasForm, validateMailboxForm } from './mail-forms';

describe('mail forms', () => {
  it('needs an account name (a local part) and a password', () => {
    expect(validateMailboxForm({ name: '', password: '', quota: '' })).toEqual({
      name: 'validation.required',
      password: 'validation.required',
    });
    expect(validateMailboxForm({ name: 'in fo', password: 'x', quota: '' })).toEqual({ name: 'mail.error.name' });
    expect(validateMailboxForm({ name: 'info', password: 'x', quota: 500 })).toEqual({});
    expect(quotaError(0)).toBe('mail.error.quota');
    expect(quotaError(1.5)).toBe('mail.error.quota');
  });

  it('needs an alias name unless it takes the whole domain, and at least one valid target', () => {
    expect(validateAliasForm({ name: '', wholeDomain: false, targets: [''] }, 'create')).toEqual({
      name: 'validation.required',
      targets: 'mail.target_required',
    });
    expect(validateAliasForm({ name: '', wholeDomain: true, targets: ['a@b.es', ''] }, 'create')).toEqual({});
    expect(validateAliasForm({ name: '', wholeDomain: false, targets: ['a@b.es', 'bad'] }, 'edit')).toEqual({
      'targets.1': 'mail.invalid_target',
    });
  });

  it("puts the server's target error on the row it names", () => {
    const error = new ApiError('x', 400, {
      valid: false,
      errors: ['Destino no válido: x@nowhere', 'Ya existe'],
      inputs: ['target', 'name'],
      info: [],
      debug: [],
      job: null,
      statusCode: 0,
      mlcVer: '',
    });
    expect(aliasServerErrors(error, ['a@b.es', 'x@nowhere'])).toEqual({
      'targets.1': 'Destino no válido: x@nowhere',
      name: 'Ya existe',
    });
  });
});
