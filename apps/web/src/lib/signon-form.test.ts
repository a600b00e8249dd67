import { describe, expect, it } from 'vitest';
import { buildSignonForm, safeAction } from './signon-form';

describe('sign-on form', () => {
  it('posts hidden fields to the action', () => {
    const form = buildSignonForm(
      document,
      { action: 'https://webmail.example.com/login', method: 'post', fields: { user: 'info@demo.test', token: 'abc' } },
      'https://webmail.example.com/login',
    );
    expect(form.method).toBe('post');
    expect(form.action).toBe('https://webmail.example.com/login');
    const inputs = Array.from(form.querySelectorAll('input'));
    expect(inputs.map((input) => [input.type, input.name, input.value])).toEqual([
      ['hidden', 'user', 'info@demo.test'],
      ['hidden', 'token', 'abc'],
    ]);
    expect(form.querySelector('input[type="password"]')).toBeNull();
  });

  it("sends a get form with its fields as the query (the panel's own file manager)", () => {
    const form = buildSignonForm(
      document,
      { action: '/service/1/files/', method: 'get', fields: { ftp: '3', path: 'web/img' } },
      'https://panel.test/service/1/files/',
    );
    expect(form.method).toBe('get');
    expect(form.action).toBe('https://panel.test/service/1/files/');
    const query = new URLSearchParams(new FormData(form) as unknown as Record<string, string>).toString();
    expect(query).toBe('ftp=3&path=web%2Fimg');
  });

  it('only posts to http(s) addresses', () => {
    expect(safeAction('/webmail/', 'https://panel.test/admin/1/mail/')).toBe('https://panel.test/webmail/');
    expect(safeAction('javascript:alert(1)', 'https://panel.test/')).toBeNull();
    expect(safeAction('data:text/html,x', 'https://panel.test/')).toBeNull();
  });
});
