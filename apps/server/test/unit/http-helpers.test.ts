import { loginParamsSchema } from '@panel247/contract/user';
import { describe, expect, it } from 'vitest';
import { contentDisposition } from '../../src/http/envelope.ts';
import { parseFormBody } from '../../src/http/form-body.ts';
import { forLog } from '../../src/http/request-context.ts';
import { toFieldErrors } from '../../src/http/zod-field-errors.ts';

describe('HTTP helpers', () => {
  it('writes RFC 6266 file names with an ASCII fallback', () => {
    expect(contentDisposition('dump.sql')).toBe(`attachment; filename="dump.sql"; filename*=UTF-8''dump.sql`);
    expect(contentDisposition('copia "año".sql')).toBe(
      `attachment; filename="copia _a_o_.sql"; filename*=UTF-8''copia%20%22a%C3%B1o%22.sql`,
    );
  });

  it('keeps CR/LF out of log lines', () => {
    expect(forLog('admin\r\n{"level":60}')).toBe('admin??{"level":60}');
    expect(forLog('x'.repeat(500))).toHaveLength(200);
  });

  it('parses repeated and bracketed form keys into lists', () => {
    expect(parseFormBody('dns%5B%5D=a&dns%5B%5D=b&x=1')).toEqual({ dns: ['a', 'b'], x: '1' });
    expect(parseFormBody('')).toEqual({});
  });

  it('maps zod issues to one field error per field, in order, with i18n keys', () => {
    const input = { domainName: 'bad domain', username: '', password: 'x'.repeat(500) };
    const parsed = loginParamsSchema.safeParse(input);
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    const errors = toFieldErrors(parsed.error, input);
    expect(errors.fields).toEqual([
      { field: 'domainName', messageKey: 'validation.domain', params: {} },
      { field: 'username', messageKey: 'validation.required', params: { min: 1 } },
      { field: 'password', messageKey: 'validation.too_long', params: { max: 128 } },
    ]);
  });
});
