import { readFileSync } from 'node:fs';
import { repoPath } from './paths.ts';

/** The panel's version, reported as system.mlcVer in every answer. */
export const PANEL_VERSION: string = JSON.parse(readFileSync(repoPath('package.json'), 'utf8')).version;
