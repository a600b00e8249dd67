// @vitest-environment node
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '..');
const FEATURES = path.join(SRC, 'features');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(full) : /\.(ts|tsx)$/.test(name) ? [full] : [];
  });
}

function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const match of text.matchAll(
    /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g,
  )) {
    const spec = match[1] ?? match[2];
    if (spec) found.push(spec);
  }
  return found;
}

function featureOf(file: string): string | null {
  const relative = path.relative(FEATURES, file);
  if (relative.startsWith('..')) return null;
  return relative.split(path.sep)[0] ?? null;
}

/** The import boundary rule, as a pure function so it can be tested on its own. */
export function crossFeatureImports(list: string[]): string[] {
  const problems: string[] = [];
  for (const file of list) {
    const own = featureOf(file);
    for (const spec of imports(file)) {
      if (!spec.startsWith('.')) continue;
      const target = path.resolve(path.dirname(file), spec);
      const other = featureOf(target);
      if (own && other && other !== own) problems.push(`${path.relative(SRC, file)} → ${spec}`);
      // shared code (lib, components, api) must never reach into a feature
      if (!own && other && !path.relative(SRC, file).startsWith(`app${path.sep}`)) {
        problems.push(`${path.relative(SRC, file)} → ${spec}`);
      }
    }
  }
  return problems;
}

describe('import boundaries', () => {
  const all = files(SRC).filter((file) => !/\.test\.tsx?$/.test(file));

  it('no feature imports another feature, and shared code imports no feature', () => {
    expect(crossFeatureImports(all)).toEqual([]);
  });

  it('has no barrel files', () => {
    expect(all.filter((file) => /[/\\]index\.tsx?$/.test(file)).map((file) => path.relative(SRC, file))).toEqual([]);
  });

  it('uses kebab-case file names', () => {
    const bad = all
      .map((file) => path.basename(file))
      .filter((name) => !/^[a-z0-9]+(-[a-z0-9]+)*(\.[a-z0-9]+)*\.(ts|tsx)$/.test(name) && name !== 'vite-env.d.ts');
    expect(bad).toEqual([]);
  });

  it('keeps zod out of the login route: its modules import contract schemas as types only', () => {
    const loginFiles = [
      'features/auth/routes/login-route.tsx',
      'features/auth/components/login-form.tsx',
      'features/auth/components/login-fields.tsx',
      'features/auth/api/login.ts',
      'lib/api-client.ts',
      'app/root.tsx',
      'main.tsx',
    ];
    for (const relative of loginFiles) {
      const text = readFileSync(path.join(SRC, relative), 'utf8');
      expect(text, relative).not.toMatch(/from 'zod'/);
      for (const match of text.matchAll(/^import\s+(type\s+)?[^;]*from '@panel247\/contract\/(\w+)'/gm)) {
        const isType = Boolean(match[1]);
        const module = match[2] ?? '';
        if (!['constants', 'routes'].includes(module))
          expect(isType, `${relative} imports ${module} as a value`).toBe(true);
      }
    }
  });

  it('detects a cross-feature import', () => {
    const probe = path.join(FEATURES, 'dashboard', 'routes', 'dashboard-route.tsx');
    const spec = '../../auth/components/login-form';
    const target = path.resolve(path.dirname(probe), spec);
    expect(featureOf(target)).toBe('auth');
    expect(featureOf(probe)).toBe('dashboard');
  });
});
