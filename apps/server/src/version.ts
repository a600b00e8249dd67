import { readFileSync } from 'node:fs';

/** The panel's version, reported as system.mlcVer in every answer. */
export const PANEL_VERSION: string = JSON.parse(
  readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'),
).version;
