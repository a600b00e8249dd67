import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';
import { type LocaleTree, withFallback } from './src/lib/locale-parts.ts';

/** The texts the login page's HTML frame shows, by their i18next keys. */
export const SHELL_TEXT_KEYS = [
  'login.page_title',
  'login.title',
  'login.domain',
  'login.user',
  'login.password',
  'main.loading',
] as const;

const LANGUAGES = ['es', 'en', 'ca'] as const;

function lookup(tree: LocaleTree, key: string): string {
  let node: string | LocaleTree | undefined = tree;
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  if (typeof node !== 'string') throw new Error(`shell text ${key} is missing`);
  return node;
}

/** `{ es: { 'login.title': … }, en: …, ca: … }`; Catalan completed from Spanish like its bundles. */
export function shellTexts(trees: Record<string, LocaleTree>): Record<string, Record<string, string>> {
  const es = trees.es ?? {};
  return Object.fromEntries(
    LANGUAGES.map((language) => {
      const tree = language === 'ca' ? withFallback(trees.ca, es) : (trees[language] ?? {});
      return [language, Object.fromEntries(SHELL_TEXT_KEYS.map((key) => [key, lookup(tree, key)]))];
    }),
  );
}

/**
 * Puts the login page's HTML frame (`shell/login-shell.html`) and its texts in every language
 * (`shell-texts.json`) into the build, for the server to fill in and serve inside index.html.
 */
export function loginShell(): Plugin {
  const root = import.meta.dirname;
  const template = path.join(root, 'shell/login-shell.html');
  return {
    name: 'panel247-login-shell',
    apply: 'build',
    generateBundle() {
      const trees: Record<string, LocaleTree> = {};
      for (const language of LANGUAGES) {
        const file = path.join(root, 'src/locales', `${language}.json`);
        this.addWatchFile(file);
        trees[language] = JSON.parse(readFileSync(file, 'utf8')) as LocaleTree;
      }
      this.addWatchFile(template);
      this.emitFile({ type: 'asset', fileName: 'login-shell.html', source: readFileSync(template, 'utf8') });
      this.emitFile({ type: 'asset', fileName: 'shell-texts.json', source: JSON.stringify(shellTexts(trees)) });
    },
  };
}
