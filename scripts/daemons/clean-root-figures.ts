import { readFileSync, statSync } from 'node:fs';
import { cachedLayerTarball, type PackageLayer, startCleanRoot } from './clean-root.ts';
import { BOOKWORM_SYSTEMD, cachedRootTarball } from './clean-root-cache.ts';
import { execFileAsync } from './daemon-harness.ts';

/**
 * Measures the clean root's figures for docs/OPERATIONS.md: the cached tarball (built or reused), a
 * start, a reboot, and a realistic `apt-get install` inside (the package list of
 * scripts/install-system-deps.sh without the e2e browser and debootstrap) cached as a second
 * tarball. Run as root: `npx tsx scripts/daemons/clean-root-figures.ts`.
 */

const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;
const megabytes = (file: string) => `${(statSync(file).size / 1e6).toFixed(0)} MB`;

async function diskUsage(folder: string): Promise<string> {
  const { stdout } = await execFileAsync('du', ['-sh', '--one-file-system', folder]);
  return stdout.split('\t')[0] ?? '?';
}

/** The test tiers' packages, as install-system-deps.sh lists them, with the same debconf answers. */
export function systemDepsLayer(): PackageLayer {
  const script = readFileSync(new URL('../install-system-deps.sh', import.meta.url), 'utf8');
  const list = /PACKAGES=\(([^)]*)\)/.exec(script)?.[1] ?? '';
  const packages = list.split(/\s+/).filter((name) => name !== '' && name !== 'chromium' && name !== 'debootstrap');
  const preseed = [...script.matchAll(/^echo "([^"]+)" \| \$SUDO debconf-set-selections$/gm)].map(
    (match) => match[1] as string,
  );
  return { packages, preseed };
}

let started = Date.now();
const base = await cachedRootTarball(BOOKWORM_SYSTEMD);
console.log(`base tarball ${base.built ? 'built' : 'reused'} in ${seconds(started)}: ${megabytes(base.tarball)}`);

started = Date.now();
const root = await startCleanRoot();
try {
  console.log(`unpacked and started in ${seconds(started)}; ${await root.boot()} after ${seconds(started)}`);
  console.log(`root folder ${await diskUsage(root.folder)}`);
  started = Date.now();
  await root.reboot();
  console.log(`reboot in ${seconds(started)}`);
} finally {
  started = Date.now();
  await root.stop();
  console.log(`stopped in ${seconds(started)}`);
}

const layer = systemDepsLayer();
started = Date.now();
const installed = await cachedLayerTarball(BOOKWORM_SYSTEMD, layer);
console.log(
  `tarball with ${layer.packages.length} packages ${installed.built ? 'built' : 'reused'} in ${seconds(started)}: ${megabytes(installed.tarball)}`,
);
started = Date.now();
const ready = await startCleanRoot({ layer });
try {
  console.log(
    `with the packages: unpacked and started in ${seconds(started)}; ${await ready.boot()} after ${seconds(started)}`,
  );
  const failed = (await ready.systemctl('--failed', '--no-legend', '--plain')).stdout.trim();
  console.log(`failed units: ${failed || 'none'}`);
} finally {
  await ready.stop();
}
