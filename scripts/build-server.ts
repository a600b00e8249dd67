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
import { execFileSync } from 'node:child_process';
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

/**
 * Every package the bundles import must resolve as Node resolves an ES module, which tsx does not
 * (it finds `cronstrue/i18n` as i18n.js; Node, for a package without an exports map, does not, and
 * the installed panel once failed to start on it). Checked by Node itself, from the server's folder.
 */
const externals = [
  ...new Set(
    Object.values(result.metafile.outputs).flatMap((output) =>
      output.imports.filter((item) => item.external && !item.path.startsWith('node:')).map((item) => item.path),
    ),
  ),
].sort();
const unresolved = execFileSync(
  process.execPath,
  [
    '--input-type=module',
    '-e',
    // import.meta.resolve names a legacy package's subpath without looking for the file: checked here
    "import { existsSync } from 'node:fs'; import { fileURLToPath } from 'node:url'; const bad = []; for (const spec of JSON.parse(process.argv[1])) { try { const url = import.meta.resolve(spec); if (url.startsWith('file:') && !existsSync(fileURLToPath(url))) bad.push(spec); } catch { bad.push(spec); } } console.log(JSON.stringify(bad));",
    JSON.stringify(externals),
  ],
  { cwd: path.join(server, 'dist'), encoding: 'utf8' },
);
const bad = JSON.parse(unresolved) as string[];
if (bad.length > 0) {
  console.error(`the bundles import what Node cannot resolve as an ES module: ${bad.join(', ')}`);
  process.exit(1);
}
