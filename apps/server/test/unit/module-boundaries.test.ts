import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const MODULES = path.join(import.meta.dirname, '../../src/modules');

/**
 * A module's repositories and routes are its own: another module reaches it through its service
 * (or its plain types and helpers). Routes are registered by app.ts only.
 */
describe('server module boundaries', () => {
  it('no module imports another module’s repository or routes', () => {
    const offences: string[] = [];
    for (const moduleName of readdirSync(MODULES)) {
      for (const file of readdirSync(path.join(MODULES, moduleName))) {
        const source = readFileSync(path.join(MODULES, moduleName, file), 'utf8');
        for (const [, target] of source.matchAll(/from '\.\.\/([a-z-]+\/[a-z.-]+)'/g)) {
          if (/\.(repository|routes)\.ts$/.test(target as string)) offences.push(`${moduleName}/${file} → ${target}`);
        }
      }
    }
    expect(offences).toEqual([]);
  });

  /**
   * Services own rules and transactions; the queries themselves live in repositories, so a
   * schema change touches one kind of file. `ftp-users-file.ts` reads the view ProFTPD reads and
   * is still to move.
   */
  it('Kysely queries live in repositories only', () => {
    const pending = new Set(['ftp/ftp-users-file.ts']);
    const query = /\.(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\(|(?<![\w.])sql(<[^>]*>)?`/;
    const offences: string[] = [];
    for (const moduleName of readdirSync(MODULES)) {
      for (const file of readdirSync(path.join(MODULES, moduleName))) {
        const name = `${moduleName}/${file}`;
        if (file.endsWith('.repository.ts') || pending.has(name)) continue;
        if (query.test(readFileSync(path.join(MODULES, moduleName, file), 'utf8'))) offences.push(name);
      }
    }
    expect(offences).toEqual([]);
  });
});
