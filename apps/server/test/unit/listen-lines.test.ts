import { describe, expect, it } from 'vitest';
import { listenAddresses, repeatListenLines } from '../../src/drivers/web/listen-lines.ts';

describe('nginx listen lines for several addresses', () => {
  it('reads one address or several separated by spaces', () => {
    expect(listenAddresses('80')).toEqual(['80']);
    expect(listenAddresses(' 80  [::]:80 ')).toEqual(['80', '[::]:80']);
  });

  it('repeats each line listening at the first address for the others, with its parameters', () => {
    const text = [
      'server {',
      '    listen 443 ssl default_server;',
      '    server_name a.example;',
      '    listen 4430;',
      '}',
    ].join('\n');
    expect(repeatListenLines(text, ['443', '[::]:443'])).toBe(
      [
        'server {',
        '    listen 443 ssl default_server;',
        '    listen [::]:443 ssl default_server;',
        '    server_name a.example;',
        '    listen 4430;',
        '}',
      ].join('\n'),
    );
    expect(repeatListenLines(text, ['443'])).toBe(text);
  });
});
