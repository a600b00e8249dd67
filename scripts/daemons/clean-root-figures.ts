import { readFileSync, statSync } from 'node:fs';
import { startCleanRoot } from './clean-root.ts';
import { BOOKWORM_SYSTEMD, cachedRootTarball } from './clean-root-cache.ts';
import { execFileAsync } from './daemon-harness.ts';

/**
 * Measures the clean root's figures for docs/OPERATIONS.md: the cached tarball (build or reuse),
 * a start, a reboot, and a realistic `apt-get install` inside (the package list of
 * scripts/install-system-deps.sh without the e2e browser), plus what a second tarball with those
 * packages would weigh and cost to unpack. Run as root: `npx tsx scripts/daemons/clean-root-figures.ts`.
 */

const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

async function diskUsage(folder: string): Promise<string> {
  const { stdout } = await execFileAsync('du', ['-sh', '--one-file-system', folder]);
  return stdout.split('\t')[0] ?? '?';
}

function systemPackages(): string[] {
  const script = readFileSync(new URL('../install-system-deps.sh', import.meta.url), 'utf8');
  const list = /PACKAGES=\(([^)]*)\)/.exec(script)?.[1] ?? '';
  return list.split(/\s+/).filter((name) => name !== '' && name !== 'chromium' && name !== 'debootstrap');
}

let started = Date.now();
const { tarball, built } = await cachedRootTarball(BOOKWORM_SYSTEMD);
console.log(
  `tarball ${built ? 'built' : 'reused'} in ${seconds(started)}: ${(statSync(tarball).size / 1e6).toFixed(0)} MB`,
);

started = Date.now();
const root = await startCleanRoot();
try {
  console.log(`unpacked and started in ${seconds(started)}; ${await root.boot()} after ${seconds(started)}`);
  console.log(`root folder ${await diskUsage(root.folder)}`);
  started = Date.now();
  await root.reboot();
  console.log(`reboot in ${seconds(started)}`);

  started = Date.now();
  await root.runOk('apt-get', ['update', '-q']);
  console.log(`apt-get update in ${seconds(started)}`);
  const preseed = [
    'postfix postfix/main_mailer_type select No configuration',
    'proftpd-core shared/proftpd/inetd_or_standalone select standalone',
    'phpmyadmin phpmyadmin/dbconfig-install boolean false',
    'phpmyadmin phpmyadmin/reconfigure-webserver multiselect',
    'roundcube-core roundcube/dbconfig-install boolean false',
    'roundcube-core roundcube/reconfigure-webserver multiselect',
  ];
  await root.runOk('debconf-set-selections', [], { input: `${preseed.join('\n')}\n` });
  const packages = systemPackages();
  started = Date.now();
  await root.runOk('apt-get', ['install', '-y', '-q', '--no-install-recommends', ...packages], {
    timeoutMs: 3_600_000,
  });
  console.log(`apt-get install of ${packages.length} packages in ${seconds(started)}`);
  console.log(`root folder after the install ${await diskUsage(root.folder)}`);
  console.log(
    `after the install: ${await root.boot()}; failed units: ${(await root.systemctl('--failed', '--no-legend', '--plain')).stdout.trim() || 'none'}`,
  );
  started = Date.now();
  await execFileAsync('tar', ['-C', root.folder, '--numeric-owner', '-cf', '/var/tmp/clean-root-installed.tar', '.']);
  console.log(
    `a tarball with the packages: written in ${seconds(started)}, ${(statSync('/var/tmp/clean-root-installed.tar').size / 1e6).toFixed(0)} MB`,
  );
  started = Date.now();
  await execFileAsync('mkdir', ['-p', '/var/tmp/clean-root-installed']);
  await execFileAsync('tar', [
    '-C',
    '/var/tmp/clean-root-installed',
    '--numeric-owner',
    '-xf',
    '/var/tmp/clean-root-installed.tar',
  ]);
  console.log(`unpacked in ${seconds(started)}`);
} finally {
  await execFileAsync('rm', ['-rf', '/var/tmp/clean-root-installed', '/var/tmp/clean-root-installed.tar']);
  started = Date.now();
  await root.stop();
  console.log(`stopped in ${seconds(started)}`);
}
