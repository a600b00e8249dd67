// @vitest-environment node
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import ca from '../locales/ca.json';
import en from '../locales/en.json';
import es from '../locales/es.json';
import { AREA_GROUPS, CONSOLE_GROUPS, type LocaleTree, localePart, withFallback } from './locale-parts';

const trees = { es, en, ca } as Record<string, LocaleTree>;

function keys(tree: LocaleTree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : keys(value, `${prefix}${key}.`),
  );
}

function lookup(tree: LocaleTree, key: string): unknown {
  return key.split('.').reduce<unknown>((node, part) => (node as LocaleTree | undefined)?.[part], tree);
}

describe('texts cut into a start, an areas and a console part', () => {
  it('puts every text of every language into exactly one part', () => {
    for (const language of ['es', 'en', 'ca']) {
      const start = keys(localePart(trees, language, 'start'));
      const areas = keys(localePart(trees, language, 'areas'));
      const console = keys(localePart(trees, language, 'console'));
      expect(start.filter((key) => areas.includes(key) || console.includes(key))).toEqual([]);
      expect(areas.filter((key) => console.includes(key))).toEqual([]);
      expect([...start, ...areas, ...console].sort()).toEqual(keys(trees.es as LocaleTree).sort());
    }
  });

  it('keeps the console’s texts in a part of their own, out of the login page’s and the customers’ areas', () => {
    const fixture = { es: { login: { title: 'Acceso' }, dns: { x: 'y' }, console: { title: 'Consola' } } };
    expect(localePart(fixture, 'es', 'console')).toEqual({ console: { title: 'Consola' } });
    expect(localePart(fixture, 'es', 'start')).toEqual({ login: { title: 'Acceso' } });
    expect(localePart(fixture, 'es', 'areas')).toEqual({ dns: { x: 'y' } });
    expect(Object.keys(localePart(trees, 'es', 'console'))).toEqual(CONSOLE_GROUPS);
  });

  it('keeps the areas of the panel out of the start part, and a new group in it', () => {
    const start = localePart(
      { es: { login: { title: 'Acceso' }, dns: { x: 'y' }, brand_new: { a: 'b' } } },
      'es',
      'start',
    );
    expect(start).toEqual({ login: { title: 'Acceso' }, brand_new: { a: 'b' } });
    expect(Object.keys(localePart(trees, 'es', 'areas'))).toEqual(
      Object.keys(es).filter((group) => AREA_GROUPS.includes(group)),
    );
  });
});

describe('Catalan falls back to Spanish', () => {
  it('fills a text Catalan lacks with the Spanish one, and keeps the Catalan ones', () => {
    const fixture = {
      es: { login: { title: 'Accede a tu panel', submit: 'Entrar' }, dns: { empty: 'Zona vacía' } },
      ca: { login: { title: 'Accedeix al teu tauler' } },
    };
    expect(localePart(fixture, 'ca', 'start')).toEqual({
      login: { title: 'Accedeix al teu tauler', submit: 'Entrar' },
    });
    expect(localePart(fixture, 'ca', 'areas')).toEqual({ dns: { empty: 'Zona vacía' } });
    // Only Catalan falls back: English ships as it is.
    expect(localePart({ ...fixture, en: { login: { title: 'Sign in' } } }, 'en', 'start')).toEqual({
      login: { title: 'Sign in' },
    });
  });

  it('with the real files: a key removed from ca shows the Spanish text, the others stay Catalan', () => {
    const partial = structuredClone(ca) as LocaleTree;
    delete (partial.login as LocaleTree).submit;
    const start = localePart({ es, ca: partial } as Record<string, LocaleTree>, 'ca', 'start');
    expect(lookup(start, 'login.submit')).toBe(lookup(es as LocaleTree, 'login.submit'));
    expect(lookup(start, 'login.title')).toBe(lookup(ca as LocaleTree, 'login.title'));
    expect(lookup(start, 'login.title')).not.toBe(lookup(es as LocaleTree, 'login.title'));
  });

  it('keeps a nested group Catalan lacks entirely', () => {
    expect(withFallback({}, { a: { b: 'x' } })).toEqual({ a: { b: 'x' } });
    expect(withFallback({ a: 'odd' }, { a: { b: 'x' } })).toEqual({ a: { b: 'x' } });
  });
});

const SRC = path.resolve(import.meta.dirname, '..');

/** The modules a logged-out visitor can reach without the layout: static imports from these roots. */
const PUBLIC_ROOTS = [
  'main.tsx',
  'features/auth/routes/login-route.tsx',
  'features/auth/components/forgot-password-modal.tsx',
  'features/not-found/routes/not-found-route.tsx',
  'components/altcha-widget.tsx',
  'components/third-party-captcha.tsx',
];

function resolveImport(from: string, spec: string): string | null {
  const base = path.resolve(path.dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`]) {
    if (
      candidate.startsWith(SRC) &&
      /\.tsx?$/.test(candidate) &&
      statSync(candidate, { throwIfNoEntry: false })?.isFile()
    )
      return candidate;
  }
  return null;
}

function publicModules(): string[] {
  const seen = new Set<string>();
  const queue = PUBLIC_ROOTS.map((relative) => path.join(SRC, relative));
  while (queue.length) {
    const file = queue.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    // Static imports only: what a lazy import() brings is a separate decision of its own.
    for (const match of text.matchAll(/^(?:import|export)\s[^;]*?from\s*'(\.[^']+)'/gm)) {
      const target = match[1] ? resolveImport(file, match[1]) : null;
      if (target) queue.push(target);
    }
  }
  return [...seen];
}

describe('the start part covers the public pages', () => {
  it('finds the login route’s modules', () => {
    const found = publicModules().map((file) => path.relative(SRC, file));
    expect(found).toContain('features/auth/components/login-form.tsx');
    expect(found).toContain('components/captcha.tsx');
    expect(readdirSync(path.join(SRC, 'locales'))).toContain('es.json');
  });

  it('uses no text group of the areas (nor the console’s) on a page shown without a session', () => {
    const used: string[] = [];
    for (const file of publicModules()) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/\bt\(\s*['`]([a-z_]+)\./g))
        used.push(`${path.relative(SRC, file)}: ${match[1]}`);
      for (const match of text.matchAll(/i18nKey="([a-z_]+)\./g)) used.push(`${path.relative(SRC, file)}: ${match[1]}`);
    }
    expect(used.length).toBeGreaterThan(20);
    const later = [...AREA_GROUPS, ...CONSOLE_GROUPS];
    expect(used.filter((entry) => later.includes(entry.split(': ')[1] as string))).toEqual([]);
  });
});
