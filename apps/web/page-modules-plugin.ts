import path from 'node:path';
import { type Plugin, parseAst } from 'vite';

/** The file whose `lazyPage(...)` calls name the routes' code (src/app/lazy-page.tsx). */
const ROUTER = path.join('src', 'app', 'router.tsx');

interface Node {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && typeof (value as Node).type === 'string';
}

/** Every node under `node` (itself included) that `test` accepts, in source order. */
function nodesUnder(node: unknown, test: (node: Node) => boolean, found: Node[] = []): Node[] {
  if (Array.isArray(node)) {
    for (const child of node) nodesUnder(child, test, found);
  } else if (isNode(node)) {
    if (test(node)) found.push(node);
    for (const [key, child] of Object.entries(node)) if (key !== 'type') nodesUnder(child, test, found);
  }
  return found;
}

const isLazyPageCall = (node: Node) =>
  node.type === 'CallExpression' &&
  (node.callee as Node).type === 'Identifier' &&
  (node.callee as Node).name === 'lazyPage';
const isImport = (node: Node) => node.type === 'ImportExpression' && (node.source as Node).type === 'Literal';

/**
 * Gives each `lazyPage(() => import('…'))` of the router a second argument: the modules it imports,
 * named as Vite's manifest names them (their path from the web app's root). The server's renderer
 * is built with it, so a signed-in page can link the chunks of the view it names
 * (`<link rel="modulepreload">`, apps/server/src/http/build-manifest.ts) instead of the browser
 * finding them only once the entry script runs. The browser's build has no use for the names.
 *
 * Written here rather than by hand beside each import: the two could drift apart unnoticed.
 */
export function pageModules(): Plugin {
  let root = '';
  return {
    name: 'panel247-page-modules',
    enforce: 'pre',
    configResolved(config) {
      root = config.root;
    },
    async transform(code, id) {
      if (path.relative(root, id.split('?')[0] ?? id) !== ROUTER) return undefined;
      const insertions: { at: number; text: string }[] = [];
      for (const call of nodesUnder(parseAst(code, { lang: 'tsx' }), isLazyPageCall)) {
        const modules: string[] = [];
        for (const load of nodesUnder(call.arguments, isImport)) {
          const specifier = String((load.source as Node).value);
          const resolved = await this.resolve(specifier, id);
          if (!resolved) this.error(`${ROUTER}: cannot resolve ${specifier}`);
          modules.push(path.relative(root, resolved.id).split(path.sep).join('/'));
        }
        const last = (call.arguments as Node[]).at(-1);
        if (last) insertions.push({ at: last.end, text: `, ${JSON.stringify(modules)}` });
      }
      // from the end, so each offset still points where it did; no source map is needed, as no
      // line is added or moved
      let result = code;
      for (const { at, text } of insertions.sort((a, b) => b.at - a.at)) {
        result = result.slice(0, at) + text + result.slice(at);
      }
      return { code: result, map: null };
    },
  };
}
