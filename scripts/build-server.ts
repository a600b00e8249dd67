/**
 * Builds the server's production bundles: apps/server/dist/main.js (the panel), agent.js (the
 * node agent) and panel.js (the CLI), plain ESM JavaScript that Node runs without a TypeScript
 * loader (tsx's transform of every file at start cost a first start 8.8 s and 216 MB held).
 *
 * esbuild (the server's own dependency: it bundles the confined file workers at run time too)
 * bundles the panel's sources and the workspace's contract package; every other package stays an
 * import of node_modules, as npm installed it (native addons, files they read beside them). The
 * bundles sit three levels below the repository like the sources (src/paths.ts), so the
 * repository's files are found the same way from either.
 */
import path from 'node:path';
import { build, type Plugin } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const server = path.join(root, 'apps/server');

/**
 * Bare imports stay imports, except the workspace's own TypeScript packages and JSON data (which
 * Node would want imported with an attribute the bundle's import no longer carries).
 */
const nodeModulesStayExternal: Plugin = {
  name: 'node-modules-stay-external',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@panel247/') || args.path.endsWith('.json')
        ? undefined
        : { path: args.path, external: true },
    );
  },
};

const started = Date.now();
const result = await build({
  entryPoints: {
    main: path.join(server, 'src/main.ts'),
    agent: path.join(server, 'src/agent-main.ts'),
    panel: path.join(server, 'src/cli/panel.ts'),
  },
  outdir: path.join(server, 'dist'),
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  // a bundled CommonJS helper may still call require()
  banner: {
    js: "import { createRequire as __panelRequire } from 'node:module'; const require = __panelRequire(import.meta.url);",
  },
  plugins: [nodeModulesStayExternal],
  logLevel: 'warning',
  metafile: true,
});
const bytes = Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
console.log(`server bundles in apps/server/dist: ${(bytes / 1024 / 1024).toFixed(1)} MB in ${Date.now() - started} ms`);
