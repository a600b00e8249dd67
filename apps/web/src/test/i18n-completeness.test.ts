// @vitest-environment node
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import ca from '../locales/ca.json';
import en from '../locales/en.json';
import es from '../locales/es.json';

type Tree = { [key: string]: string | Tree };

function keys(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : keys(value, `${prefix}${key}.`),
  );
}

const SRC = path.resolve(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [full] : [];
  });
}

describe('locale files', () => {
  const esKeys = new Set(keys(es as Tree));
  const enKeys = new Set(keys(en as Tree));

  it('es has every key en has', () => {
    expect([...enKeys].filter((key) => !esKeys.has(key))).toEqual([]);
  });

  it('en has every key es has', () => {
    expect([...esKeys].filter((key) => !enKeys.has(key))).toEqual([]);
  });

  // The rule (DESIGN.md): es and en complete; ca may lack texts, which then come from es.
  it('ca has no key es lacks (it may lack some: those fall back to es)', () => {
    const caKeys = new Set(keys(ca as Tree));
    expect([...caKeys].filter((key) => !esKeys.has(key))).toEqual([]);
  });

  it('every literal key used in the code exists in es', () => {
    const used = new Set<string>();
    for (const file of sourceFiles(SRC)) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/\bt\(\s*'([a-z_]+(?:\.[a-zA-Z_]+)+)'/g)) if (match[1]) used.add(match[1]);
      for (const match of text.matchAll(/i18nKey="([a-z_.]+)"/g)) if (match[1]) used.add(match[1]);
    }
    expect(used.size).toBeGreaterThan(50);
    // A key called with a count is i18next's plural: its forms `_one` and `_other` are the texts.
    const present = (key: string) => esKeys.has(key) || (esKeys.has(`${key}_one`) && esKeys.has(`${key}_other`));
    expect([...used].filter((key) => !present(key))).toEqual([]);
  });

  it('has a text for each of the 22 colours, three theme modes and the legal sections', () => {
    expect(Object.keys((es as Tree).colors as Tree)).toHaveLength(22);
    expect(Object.keys((es as Tree).theme as Tree)).toEqual(['system', 'light', 'dark']);
    for (const section of ['identification', 'conditions', 'privacy', 'liability', 'contact', 'law']) {
      for (const tree of [es, en, ca] as Tree[]) {
        expect(typeof ((tree.legal as Tree)[section] as Tree).body).toBe('string');
      }
    }
  });
});
