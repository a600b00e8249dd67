import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Language } from '@panel247/contract/constants';
import { chooseEncoding } from './answer-encoding.ts';
import { type BootData, bootScript } from './boot-data.ts';
import { BuildManifest } from './build-manifest.ts';
import { latePreloads } from './late-preloads.ts';
import type { DrawnPage } from './server-draw.ts';

/** Where index.html takes the login page's frame (apps/web/index.html). */
const SHELL_MARK = '<!--panel247:shell-->';

/** What the login frame shows of the brand. */
export interface ShellBrand {
  company: string;
  logo: string;
}

export interface PageRequest {
  language: Language;
  /** The request carried a session cookie: without one, the app need not ask who is logged in. */
  sessionCookie: boolean;
  /** Draw the login page's frame (the /login/ route, with a captcha the frame knows). */
  shell?: { brand: ShellBrand; captcha: 'altcha' | 'none'; year: number };
  /** A signed-in visit's first answers, carried by the page (boot-data.ts). */
  boot?: BootData;
  /** The app's first screen, drawn on the server (server-draw.ts). */
  drawn?: DrawnPage;
  /** The modules the app draws or takes the page over with (server-draw.ts): their chunks are linked. */
  modules?: string[];
}

export function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] as string,
  );
}

/** `{{name}}` → the HTML-escaped value; an unknown name is a bug in the template, not a blank. */
function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_match, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`login shell: no value for {{${name}}}`);
    return escapeHtml(value);
  });
}

/**
 * index.html as each visitor gets it: in the visitor's language (`lang`), with a hint when no
 * session cookie came, and on the login route with the page's frame drawn in HTML (the brand's
 * name and logo, the title and field labels in that language), so the first paint needs no script.
 * The build writes the frame and its texts beside index.html (apps/web/shell-plugin.ts).
 */
export class IndexPage {
  private readonly index: string;
  private readonly shell: string;
  private readonly texts: Record<string, Record<string, string>>;
  private readonly manifest: BuildManifest;
  private readonly stylesheets: string[];

  constructor(dist: string) {
    this.index = readFileSync(path.join(dist, 'index.html'), 'utf8');
    this.manifest = new BuildManifest(dist);
    this.stylesheets = this.manifest.stylesheets();
    const shellFile = path.join(dist, 'login-shell.html');
    const textsFile = path.join(dist, 'shell-texts.json');
    // A build from before the frame existed still serves, without it.
    // Its leading comment is for the template's readers, not for every visitor's download.
    this.shell = existsSync(shellFile) ? readFileSync(shellFile, 'utf8').replace(/^<!--[\s\S]*?-->\s*/, '') : '';
    this.texts = existsSync(textsFile) ? JSON.parse(readFileSync(textsFile, 'utf8')) : {};
  }

  // Every replacement below is a function: `$&` and the like in a brand's name are not patterns.
  render(page: PageRequest): string {
    let attributes = `lang="${page.language}"${page.sessionCookie ? '' : ' data-session="none"'}`;
    // the scheme Mantine's provider sets once the app runs, there before the first paint
    if (page.drawn) attributes += ` data-mantine-color-scheme="${page.drawn.scheme}"`;
    let html = this.index.replace(/<html lang="[a-z]+">/, () => `<html ${attributes}>`);
    const texts = this.texts[page.language];
    if (page.shell && this.shell && texts) {
      const { brand, captcha, year } = page.shell;
      const title = `${texts['login.page_title']} / ${brand.company}`;
      html = html.replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(title)}</title>`);
      const frame = fill(this.shell, {
        company: brand.company,
        logo: brand.logo,
        captcha,
        year: String(year),
        title: texts['login.title'] ?? '',
        domain: texts['login.domain'] ?? '',
        user: texts['login.user'] ?? '',
        password: texts['login.password'] ?? '',
        loading: texts['main.loading'] ?? '',
      });
      html = html.replace(SHELL_MARK, () => frame);
    }
    // drawn: the stylesheets the app would load before its first render, linked so the HTML is
    // painted styled
    if (page.drawn) {
      const links = this.stylesheets.map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`);
      html = html.replace('</head>', () => `${links.join('')}</head>`);
    }
    // the chunks the app draws or takes the page over with, asked with the entry script rather
    // than once it has run (in the module scripts' CORS mode, as Vite's links). A page the app
    // draws links them in its HTML, at the body's end, for the preload scanner to ask for them at
    // once: nothing shows before the code. A drawn page has them linked by a script after its
    // rows (late-preloads.ts), so a warm visit does not compile them before the rows are parsed.
    const preloads = this.manifest.scriptsOf(page.modules ?? []);
    if (preloads.length) {
      const links = page.drawn
        ? latePreloads(preloads)
        : preloads.map((href) => `<link rel="modulepreload" crossorigin href="${escapeHtml(href)}">`).join('');
      html = html.replace('</body>', () => `${links}</body>`);
    }
    if (page.drawn) {
      // the view's title; #root inert until the app has hydrated it (apps/web/src/lib/server-drawn.tsx)
      const { html: drawn, title } = page.drawn;
      if (title) html = html.replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(title)}</title>`);
      html = html.replace(
        '<div id="root"></div>',
        () => `<div id="root" data-server-drawn inert aria-disabled="true">${drawn}</div>`,
      );
    }
    if (page.boot) {
      const script = bootScript(page.boot);
      html = html.replace('<div id="root"', () => `${script}<div id="root"`);
    }
    return html;
  }
}

/** The page compressed as the client accepts it; it is a few KB, so compressing per request is cheap. */
export function encodePage(html: string, acceptEncoding: string | undefined): { body: Buffer; encoding?: string } {
  const body = Buffer.from(html);
  const encoding = chooseEncoding(acceptEncoding);
  if (encoding === 'br') {
    return { body: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }), encoding };
  }
  if (encoding === 'gzip') return { body: gzipSync(body), encoding };
  return { body };
}
