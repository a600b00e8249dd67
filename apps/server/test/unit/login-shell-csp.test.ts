import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { computeSecurityHeaders, PANEL_HELMET_OPTIONS, SHELL_SCRIPT_HASH } from '../../src/http/security-headers.ts';

const SHELL = new URL('../../../web/shell/login-shell.html', import.meta.url);

describe('the login frame’s inline script and the Content-Security-Policy', () => {
  it('allows exactly the frame’s one inline script, by its hash', () => {
    const scripts = [...readFileSync(SHELL, 'utf8').matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1] ?? '');
    expect(scripts).toHaveLength(1);
    const hash = `'sha256-${createHash('sha256')
      .update(scripts[0] ?? '')
      .digest('base64')}'`;
    expect(SHELL_SCRIPT_HASH, 'the script changed: put its new hash in security-headers.ts').toBe(hash);
    const policy = computeSecurityHeaders(PANEL_HELMET_OPTIONS)['content-security-policy'] ?? '';
    const scriptSrc = policy.split(';').find((directive) => directive.trim().startsWith('script-src')) ?? '';
    expect(scriptSrc).toContain(hash);
    expect(scriptSrc).not.toContain("'unsafe-inline'");
  });
});
