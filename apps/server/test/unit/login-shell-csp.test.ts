import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LATE_START_SCRIPT_HASH, lateStart } from '../../src/http/late-start.ts';
import { computeSecurityHeaders, PANEL_HELMET_OPTIONS, SHELL_SCRIPT_HASH } from '../../src/http/security-headers.ts';

const SHELL = new URL('../../../web/shell/login-shell.html', import.meta.url);

const sha256 = (script: string) => `'sha256-${createHash('sha256').update(script).digest('base64')}'`;

const scriptSrc = () =>
  (computeSecurityHeaders(PANEL_HELMET_OPTIONS)['content-security-policy'] ?? '')
    .split(';')
    .find((directive) => directive.trim().startsWith('script-src')) ?? '';

describe('the inline scripts and the Content-Security-Policy', () => {
  it('allows exactly the login frame’s one inline script, by its hash', () => {
    const scripts = [...readFileSync(SHELL, 'utf8').matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1] ?? '');
    expect(scripts).toHaveLength(1);
    const hash = sha256(scripts[0] ?? '');
    expect(SHELL_SCRIPT_HASH, 'the script changed: put its new hash in security-headers.ts').toBe(hash);
    expect(scriptSrc()).toContain(hash);
    expect(scriptSrc()).not.toContain("'unsafe-inline'");
  });

  it('allows the script that starts a drawn page’s app, by its hash, and its list cannot end it', () => {
    const html = lateStart(['/assets/a.js', '/assets/</script><script>alert(1)//.js'], '/assets/index-Ab_1.js');
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1] ?? '');
    expect(scripts).toHaveLength(1);
    expect(sha256(scripts[0] ?? '')).toBe(LATE_START_SCRIPT_HASH);
    expect(scriptSrc()).toContain(LATE_START_SCRIPT_HASH);
    expect(html.match(/<\/script>/g)).toHaveLength(2);
    expect(html).toContain('data-entry="/assets/index-Ab_1.js"');
    // the entry is a path the build wrote: nothing that could leave the attribute
    expect(() => lateStart([], '/assets/x.js" onload="alert(1)')).toThrow();
  });
});
