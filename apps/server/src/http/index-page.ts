import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Language } from '@panel247/contract/constants';
import { type BootData, bootScript } from './boot-data.ts';
import { BuildManifest } from './build-manifest.ts';
import { lateStart } from './late-start.ts';
import type { DrawnScreen } from './server-draw.ts';
import type { ViewHints } from './view-hints.ts';

/** Where index.html takes the login page's frame (apps/web/index.html). */
const SHELL_MARK = '<!--panel247:shell-->';

/** The entry script as the build writes it into index.html's head: a path of the build's, nothing else. */
const ENTRY_SCRIPT = /<script type="module" crossorigin src="([\w./-]+)"><\/script>/;

/** The links index.html has for the entry script's own chunks, as the build writes them. */
const MODULE_PRELOAD = /<link rel="modulepreload" crossorigin href="([\w./-]+)">/g;

/** The template's title (an escaped text). */
const TITLE = /<title>([^<]*)<\/title>/;

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
  /**
   * The page is drawn on the server in this colour scheme (server-draw.ts): its head links the
   * stylesheets, and names the scheme Mantine's provider sets once the app runs.
   */
  scheme?: ViewHints['scheme'];
  /** The app's first screen, drawn on the server; none on a drawn page: its drawing failed. */
  screen?: DrawnScreen;
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
  /** The entry script's path; none in a page without one (a test's). */
  private readonly entry: string | undefined;

  constructor(dist: string) {
    this.index = readFileSync(path.join(dist, 'index.html'), 'utf8');
    if (!this.index.includes('</head>')) throw new Error(`${dist}/index.html has no </head>`);
    this.entry = ENTRY_SCRIPT.exec(this.index)?.[1];
    this.manifest = new BuildManifest(dist);
    this.stylesheets = this.manifest.stylesheets();
    const shellFile = path.join(dist, 'login-shell.html');
    const textsFile = path.join(dist, 'shell-texts.json');
    // A build from before the frame existed still serves, without it.
    // Its leading comment is for the template's readers, not for every visitor's download.
    this.shell = existsSync(shellFile) ? readFileSync(shellFile, 'utf8').replace(/^<!--[\s\S]*?-->\s*/, '') : '';
    this.texts = existsSync(textsFile) ? JSON.parse(readFileSync(textsFile, 'utf8')) : {};
  }

  /** The whole page (`parts` joined). */
  render(page: PageRequest): string {
    const { head, rest } = this.parts(page);
    return head + rest;
  }

  /**
   * The page in two parts: its head but for the title, which depends only on what is known before
   * a drawing starts (the language, the session hint, a drawn page's scheme and stylesheets), and
   * the rest, from the title on. A drawn page's head leaves at once (web-app.ts), so the browser
   * commits the page and loads its stylesheets while the server draws the rows (its scripts wait
   * for the rows: late-start.ts).
   */
  parts(page: PageRequest): { head: string; rest: string } {
    // Every replacement below is a function: `$&` and the like in a brand's name are not patterns.
    let attributes = `lang="${page.language}"${page.sessionCookie ? '' : ' data-session="none"'}`;
    // the scheme Mantine's provider sets once the app runs, there before the first paint
    if (page.scheme) attributes += ` data-mantine-color-scheme="${page.scheme}"`;
    let html = this.index.replace(/<html lang="[a-z]+">/, () => `<html ${attributes}>`);
    let title = TITLE.exec(html)?.[1] ?? '';
    html = html.replace(TITLE, '');
    const texts = this.texts[page.language];
    if (page.shell && this.shell && texts) {
      const { brand, captcha, year } = page.shell;
      title = escapeHtml(`${texts['login.page_title']} / ${brand.company}`);
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
    if (page.scheme) {
      const links = this.stylesheets.map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`);
      html = html.replace('</head>', () => `${links.join('')}</head>`);
    }
    html = this.withScripts(html, page);
    if (page.screen) {
      // the view's title; #root inert until the app has hydrated it (apps/web/src/lib/server-drawn.tsx)
      const { html: drawn, title: viewTitle } = page.screen;
      if (viewTitle) title = escapeHtml(viewTitle);
      html = html.replace(
        '<div id="root"></div>',
        () => `<div id="root" data-server-drawn inert aria-disabled="true">${drawn}</div>`,
      );
    }
    if (page.boot) {
      const script = bootScript(page.boot);
      html = html.replace('<div id="root"', () => `${script}<div id="root"`);
    }
    // the title last in the head: the one part of it a drawing names
    const end = html.indexOf('</head>');
    return { head: html.slice(0, end), rest: `<title>${title}</title>${html.slice(end)}` };
  }

  /**
   * The page's scripts. The chunks the app draws or takes the page over with are asked for with
   * the entry script rather than once it has run (in the module scripts' CORS mode, as Vite's
   * links). A page the app draws links them in its HTML, at the body's end, for the preload
   * scanner to ask for them at once: nothing shows before the code. A drawn page starts the app
   * once its rows are on screen (late-start.ts): its head, sent before the drawing settles, holds
   * no script and no link to one (a `modulepreload`, or even a `preload`, of the entry cost a
   * returning visit 100-200 ms before the rows' frame), and a script after the rows links the
   * entry's chunks and the view's and runs the entry. A drawing that failed after the head left
   * links them and runs the entry from the body's end.
   */
  private withScripts(html: string, page: PageRequest): string {
    const chunks = this.manifest.scriptsOf(page.modules ?? []);
    const links = (hrefs: string[]) =>
      hrefs.map((href) => `<link rel="modulepreload" crossorigin href="${escapeHtml(href)}">`).join('');
    let scripts = links(chunks);
    if (page.scheme && this.entry) {
      const own = [...html.matchAll(MODULE_PRELOAD)].map((link) => link[1] ?? '');
      html = html.replace(ENTRY_SCRIPT, '').replace(MODULE_PRELOAD, '');
      const all = [...own, ...chunks];
      scripts = page.screen
        ? lateStart(all, this.entry)
        : `${links(all)}<script type="module" crossorigin src="${this.entry}"></script>`;
    }
    return scripts ? html.replace('</body>', () => `${scripts}</body>`) : html;
  }
}
