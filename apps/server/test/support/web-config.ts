import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The nginx configuration the web driver wrote for one service, as one text: its nginx.conf
 * followed by its hosts' files (sites/*.conf, in name order). '' when the service has none.
 */
export function serviceNginxConfig(liveDir: string): string {
  const main = path.join(liveDir, 'nginx.conf');
  if (!existsSync(main)) return '';
  const sites = path.join(liveDir, 'sites');
  const hosts = existsSync(sites)
    ? readdirSync(sites)
        .filter((name) => name.endsWith('.conf'))
        .sort()
    : [];
  return [main, ...hosts.map((name) => path.join(sites, name))].map((file) => readFileSync(file, 'utf8')).join('\n');
}

/** Every file under a service's folder (relative name → content), to compare before and after. */
export function serviceFiles(liveDir: string): Record<string, string> {
  if (!existsSync(liveDir)) return {};
  const files: Record<string, string> = {};
  for (const entry of readdirSync(liveDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    files[path.relative(liveDir, file)] = readFileSync(file, 'utf8');
  }
  return files;
}
