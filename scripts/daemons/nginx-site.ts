import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { WebIdentity } from './nginx-php.ts';

/**
 * nginx's main file for a harness that serves one kit's server blocks (phpMyAdmin's, Roundcube's,
 * the panel's proxy): an http {} of the run's own, with its pid, logs and temporary folders in
 * `dir`, including `site` as Debian's nginx.conf includes sites-enabled/. Returns the file's path
 * and its error log.
 */
export function writeNginxAround(dir: string, site: string, web: WebIdentity): { config: string; errorLog: string } {
  const temps = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'];
  for (const name of temps) mkdirSync(path.join(dir, `nginx-${name}`), { recursive: true });
  const errorLog = path.join(dir, 'nginx-error.log');
  const config = path.join(dir, 'nginx.conf');
  writeFileSync(
    config,
    [
      ...(web.asRoot ? [`user ${web.user} ${web.group};`] : []),
      'worker_processes 1;',
      `pid ${path.join(dir, 'nginx.pid')};`,
      `error_log ${errorLog} warn;`,
      'events { worker_connections 64; }',
      'http {',
      `  access_log ${path.join(dir, 'nginx-access.log')};`,
      ...temps.map((name) => `  ${name}_temp_path ${path.join(dir, `nginx-${name}`)};`),
      '  include /etc/nginx/mime.types;',
      '  default_type application/octet-stream;',
      `  include ${site};`,
      '}',
      '',
    ].join('\n'),
  );
  return { config, errorLog };
}
