import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Where Vite's build lists each module's files (`build.manifest`). */
const MANIFEST = path.join('.vite', 'manifest.json');
/** The module whose stylesheet (Mantine's) every other one builds on: it is linked first. */
const BASE_STYLES = 'src/app/styles.ts';

/** One module's entry: its file, the chunks it imports statically (by key) and its stylesheets. */
interface Chunk {
  file: string;
  imports?: string[];
  css?: string[];
  isEntry?: boolean;
}

/**
 * What the web build made of each of its modules (Vite's manifest, keyed by the module's path from
 * the web app's root), for the pages the server draws: the stylesheets they link and the chunks
 * of the code the app takes them over with. An empty one without a manifest (a build from before).
 */
export class BuildManifest {
  private readonly chunks: Record<string, Chunk>;
  /** The entry's own chunks: index.html already loads and preloads them. */
  private readonly entry: Set<string>;

  constructor(dist: string) {
    const file = path.join(dist, MANIFEST);
    this.chunks = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, Chunk>) : {};
    const entries = Object.keys(this.chunks).filter((key) => this.chunks[key]?.isEntry);
    this.entry = new Set(this.closure(entries).map((key) => this.chunks[key]?.file ?? ''));
  }

  /**
   * Every stylesheet of the build, Mantine's first: the signed-in screens' styles are a few KB
   * beside Mantine's, and a cached file costs nothing, so one list serves every view rather than
   * one per route.
   */
  stylesheets(): string[] {
    const base = this.chunks[BASE_STYLES];
    const first = base ? [base.file, ...(base.css ?? [])].filter((name) => name.endsWith('.css')) : [];
    const rest = Object.values(this.chunks).flatMap((chunk) => [
      ...(chunk.file.endsWith('.css') ? [chunk.file] : []),
      ...(chunk.css ?? []),
    ]);
    return [...new Set([...first, ...rest])].map((name) => `/${name}`);
  }

  /**
   * The script files `modules` load, with every chunk they import statically, but for the entry's
   * own: what a page links (`modulepreload`) so the browser asks for them with the entry script,
   * not once it has run. A module the build does not know is left out.
   */
  scriptsOf(modules: readonly string[]): string[] {
    const files = this.closure(modules)
      .map((key) => this.chunks[key]?.file ?? '')
      .filter((file) => file.endsWith('.js') && !this.entry.has(file));
    return files.map((file) => `/${file}`);
  }

  /** `keys` and every chunk they import statically, each once, in the order they are first met. */
  private closure(keys: readonly string[]): string[] {
    const seen = new Set<string>();
    const visit = (key: string) => {
      const chunk = this.chunks[key];
      if (!chunk || seen.has(key)) return;
      seen.add(key);
      for (const imported of chunk.imports ?? []) visit(imported);
    };
    for (const key of keys) visit(key);
    return [...seen];
  }
}
