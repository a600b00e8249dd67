import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';
import { LOCALE_MODULE_PREFIX, type LocalePart, type LocaleTree, localePart } from './src/lib/locale-parts.ts';

const LANGUAGES = ['es', 'en', 'ca'];
const PARTS: LocalePart[] = ['start', 'areas', 'console'];

/**
 * Serves `virtual:locale/{lang}-{part}`: one part of a language's texts, cut and completed by
 * `localePart` from `src/locales/*.json`, so each becomes its own small chunk.
 */
export function localeBundles(): Plugin {
  const dir = path.join(import.meta.dirname, 'src/locales');
  return {
    name: 'panel247-locale-bundles',
    resolveId(id) {
      return id.startsWith(LOCALE_MODULE_PREFIX) ? `\0${id}` : undefined;
    },
    load(id) {
      if (!id.startsWith(`\0${LOCALE_MODULE_PREFIX}`)) return undefined;
      const [language = '', part = ''] = id.slice(LOCALE_MODULE_PREFIX.length + 1).split('-');
      if (!LANGUAGES.includes(language) || !PARTS.includes(part as LocalePart)) {
        throw new Error(`unknown locale bundle ${id.slice(1)}`);
      }
      const trees: Record<string, LocaleTree> = {};
      for (const lang of LANGUAGES) {
        const file = path.join(dir, `${lang}.json`);
        this.addWatchFile(file);
        trees[lang] = JSON.parse(readFileSync(file, 'utf8')) as LocaleTree;
      }
      // JSON.parse of one string literal is quicker to start than a large object literal.
      const json = JSON.stringify(localePart(trees, language, part as LocalePart));
      return `export default JSON.parse(${JSON.stringify(json)});`;
    },
  };
}
