import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.join(import.meta.dirname, '../../src');
const MODULES = path.join(SRC, 'modules');
const DRIVERS = path.join(SRC, 'drivers');

/** Every .ts file under `dir`, relative to src/. */
function sources(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => path.relative(SRC, path.join(dir, file)));
}

const read = (file: string) => readFileSync(path.join(SRC, file), 'utf8');

/** Where each file imports from, as written. */
function imports(file: string): string[] {
  return [...read(file).matchAll(/^\s*(?:import|export)\b[^'"]*?from '([^']+)'/gm)].map((match) => match[1] as string);
}

/**
 * The layers of the server (docs/ARCHITECTURE.md): routes → services → repositories and drivers.
 * A module's repositories and routes are its own: another module reaches it through its service
 * (or its plain types and helpers); routes are registered by app.ts only. SQL lives in
 * repositories (and the database layer); process and file-system effects live in drivers, which
 * know nothing of the modules that use them.
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

  it('runs Kysely queries only in repositories and the database layer', () => {
    const query =
      /\.(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto|with)\(|(?<![.\w])sql(<[^>]*>)?`/;
    const offences = sources(SRC).filter(
      (file) => !file.endsWith('.repository.ts') && !file.startsWith(`db${path.sep}`) && query.test(read(file)),
    );
    expect(offences).toEqual([]);
  });

  it('starts no process and touches no file under modules/: drivers do', () => {
    const effects = /^node:(child_process|fs|fs\/promises)$/;
    const offences = sources(MODULES).flatMap((file) =>
      imports(file)
        .filter((target) => effects.test(target))
        .map((target) => `${file} → ${target}`),
    );
    expect(offences).toEqual([]);
  });

  it('drivers import no module', () => {
    const offences = sources(DRIVERS).flatMap((file) =>
      imports(file)
        .filter((target) => target.includes('/modules/'))
        .map((target) => `${file} → ${target}`),
    );
    expect(offences).toEqual([]);
  });

  it('keeps Fastify to the HTTP side: no service, driver, job or composition file imports it', () => {
    const http = (file: string) =>
      file.startsWith(`http${path.sep}`) || file.endsWith('.routes.ts') || file === 'app.ts';
    const offences = sources(SRC).flatMap((file) =>
      http(file)
        ? []
        : imports(file)
            .filter((target) => target === 'fastify' || target.startsWith('@fastify/'))
            .map((target) => `${file} → ${target}`),
    );
    expect(offences).toEqual([]);
  });
});
