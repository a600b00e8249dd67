import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CleanRoot, requireCleanRootTools, startCleanRoot } from '../../../../scripts/daemons/clean-root.ts';
import {
  BOOKWORM_SYSTEMD,
  CLEAN_ROOT_CACHE,
  cachedRootTarball,
  cachedTarball,
} from '../../../../scripts/daemons/clean-root-cache.ts';
import { execFileAsync } from '../../../../scripts/daemons/daemon-harness.ts';
import { retrying } from '../support/retrying.ts';

/**
 * The harness the install's proof runs in: a clean Debian 12 root, booted with its own systemd as
 * PID 1 in its own namespaces, reached from outside at its own address. Missing debootstrap or
 * unshare fails the test (requireCleanRootTools throws), in CI and elsewhere.
 */

const PROBE_UNIT = `[Unit]
Description=The harness's network probe
After=network.target

[Service]
ExecStartPre=/bin/mkdir -p /run/probe
ExecStartPre=/bin/sh -c 'echo booted > /run/probe/mark'
ExecStart=/usr/bin/python3 -m http.server 80 --directory /srv/probe
Restart=always

[Install]
WantedBy=multi-user.target
`;

async function hostGet(url: string): Promise<string> {
  const answer = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  if (!answer.ok) throw new Error(`${url} answered ${answer.status}`);
  return answer.text();
}

/** Retries while a daemon that was just (re)started opens its port; never a fixed wait. */
const eventually = <T>(attempt: () => Promise<T>, timeoutMs = 60_000) => retrying(attempt, timeoutMs, 200);

describe('a clean Debian 12 root in its own namespaces', () => {
  let root: CleanRoot;
  let staleUnshare: number;
  let hostFiles: string;

  beforeAll(async () => {
    requireCleanRootTools();
    // a run killed in the middle leaves its slot: a dead owner, a live unshare, a veth and a folder
    staleUnshare = leaveStaleSlot(240);
    hostFiles = mkdtempSync(path.join(tmpdir(), 'p247-clean-root-bind-'));
    writeFileSync(path.join(hostFiles, 'from-host.txt'), 'seen inside\n');
    root = await startCleanRoot({ binds: [{ host: hostFiles, inside: '/srv/host-files', readOnly: true }] });
  }, 900_000);
  afterAll(async () => {
    await root?.stop();
    rmSync(hostFiles, { recursive: true, force: true });
  });

  it('reuses the cached tarball, also when two callers ask at once', async () => {
    const [one, two] = await Promise.all([cachedRootTarball(BOOKWORM_SYSTEMD), cachedRootTarball(BOOKWORM_SYSTEMD)]);
    expect(one.tarball).toBe(two.tarball);
    expect([one.built, two.built]).toEqual([false, false]);
  });

  it('builds a missing tarball once for two callers, written aside, and takes over a dead builder lock', async () => {
    const key = `lock-check-${process.pid}`;
    const tarball = path.join(CLEAN_ROOT_CACHE, `${key}.tar`);
    writeFileSync(`${tarball}.lock`, `${2 ** 22 + 1}\n`); // a builder that was killed
    let builds = 0;
    const build = async (part: string) => {
      builds++;
      expect(existsSync(tarball)).toBe(false);
      writeFileSync(part, 'built');
      await new Promise((resolve) => setTimeout(resolve, 1500));
    };
    try {
      const [one, two] = await Promise.all([cachedTarball(key, build), cachedTarball(key, build)]);
      expect(builds).toBe(1);
      expect([one.built, two.built].sort()).toEqual([false, true]);
      expect(readFileSync(tarball, 'utf8')).toBe('built');
      expect(readdirSync(CLEAN_ROOT_CACHE).filter((name) => name.startsWith(key))).toEqual([`${key}.tar`]);
    } finally {
      rmSync(tarball, { force: true });
    }
  });

  it('removed what the killed run left behind', async () => {
    expect(existsSync(`/proc/${staleUnshare}`)).toBe(false);
    expect(existsSync('/run/panel247-clean-root/slot-240.json')).toBe(false);
    expect(existsSync('/var/tmp/panel247-clean-root/slot-240')).toBe(false);
    const links = await execFileAsync('ip', ['-o', 'link', 'show']);
    expect(links.stdout).not.toContain('p247r240h');
  });

  it('boots Debian 12 with its own systemd 252 as PID 1, its own name and its own address', async () => {
    expect(await root.boot()).toBe('running');
    expect((await root.runOk('cat', ['/proc/1/comm'])).trim()).toBe('systemd');
    expect(await root.runOk('systemctl', ['--version'])).toMatch(/^systemd 252 /);
    expect((await root.runOk('cat', ['/etc/debian_version'])).trim()).toMatch(/^12\./);
    expect((await root.runOk('hostname')).trim()).toBe(root.hostname);
    expect(await root.runOk('ip', ['-o', '-4', 'addr', 'show', 'dev', 'eth0'])).toContain(`${root.address}/30`);
    // its PID namespace: the host's processes are not there
    const pids = (await root.runOk('ls', ['/proc'])).split(/\s+/).filter((name) => /^\d+$/.test(name));
    expect(pids.length).toBeLessThan(50);
    expect(await root.runOk('findmnt', ['-n', '-o', 'FSTYPE', '/run'])).toContain('tmpfs');
  });

  it('runs arguments as given, never through a shell', async () => {
    expect((await root.runOk('echo', ['$HOME; id'])).trim()).toBe('$HOME; id');
    await expect(root.run('sh -c id')).rejects.toThrow(/not a command name/);
  });

  it('sees a host folder bound read-only, also after a reboot', async () => {
    expect(await root.runOk('cat', ['/srv/host-files/from-host.txt'])).toBe('seen inside\n');
    expect((await root.run('touch', ['/srv/host-files/written-inside'])).stderr).toMatch(/Read-only file system/);
    await expect(
      startCleanRoot({ binds: [{ host: hostFiles, inside: '/srv/../etc', readOnly: true }] }),
    ).rejects.toThrow(/not a folder inside the root/);
  });

  it('starts and restarts a unit whose daemon answers at the root own address from the host', async () => {
    await root.runOk('mkdir', ['-p', '/srv/probe']);
    writeFileSync(`${root.folder}/srv/probe/index.html`, 'clean root\n');
    writeFileSync(`${root.folder}/etc/systemd/system/probe.service`, PROBE_UNIT);
    await root.runOk('systemctl', ['daemon-reload']);
    await root.runOk('systemctl', ['enable', '--now', 'probe.service']);
    expect(await eventually(() => hostGet(`http://${root.address}/`))).toBe('clean root\n');
    const before = (await root.runOk('systemctl', ['show', '-p', 'MainPID', '--value', 'probe.service'])).trim();
    await root.runOk('systemctl', ['restart', 'probe.service']);
    const after = (await root.runOk('systemctl', ['show', '-p', 'MainPID', '--value', 'probe.service'])).trim();
    expect(after).not.toBe(before);
    expect(await eventually(() => hostGet(`http://${root.address}/`))).toBe('clean root\n');
  });

  it('reboots as a machine does: /run and /tmp emptied, the disk kept, enabled units back', async () => {
    await root.runOk('touch', ['/run/left-over', '/tmp/left-over', '/var/kept']);
    const pid1 = root.pid1();
    expect(await root.reboot()).toBe('running');
    expect(root.pid1()).not.toBe(pid1);
    expect((await root.run('test', ['-e', '/run/left-over'])).code).toBe(1);
    expect((await root.run('test', ['-e', '/tmp/left-over'])).code).toBe(1);
    expect((await root.run('test', ['-e', '/var/kept'])).code).toBe(0);
    expect((await root.runOk('cat', ['/run/probe/mark'])).trim()).toBe('booted');
    expect(await root.runOk('cat', ['/srv/host-files/from-host.txt'])).toBe('seen inside\n');
    expect(await eventually(() => hostGet(`http://${root.address}/`))).toBe('clean root\n');
  });

  it('installs a package with apt-get from the machine mirror, also after the reboot', async () => {
    await root.runOk('apt-get', ['update', '-q']);
    await root.runOk('apt-get', ['install', '-y', '-q', '--no-install-recommends', 'netcat-openbsd']);
    expect(await root.runOk('dpkg', ['-s', 'netcat-openbsd'])).toContain('Status: install ok installed');
  });

  it('leaves nothing behind when stopped', async () => {
    const { folder } = root;
    const slot = /slot-(\d+)$/.exec(folder)?.[1] as string;
    await root.stop();
    expect(existsSync(folder)).toBe(false);
    // removing the folder never reached into what was bound there
    expect(readFileSync(path.join(hostFiles, 'from-host.txt'), 'utf8')).toBe('seen inside\n');
    expect(existsSync(`/run/panel247-clean-root/slot-${slot}.json`)).toBe(false);
    expect(readdirSync('/sys/fs/cgroup/systemd')).not.toContain(`panel247-clean-root-${slot}`);
    const links = await execFileAsync('ip', ['-o', 'link', 'show']);
    expect(links.stdout).not.toContain(`p247r${slot}h`);
    await expect(hostGet(`http://${root.address}/`)).rejects.toThrow();
  });
});

/**
 * What a run killed with SIGKILL leaves: its slot file naming a process that is gone, an unshare
 * that still holds namespaces, the host side of a veth pair and the unpacked folder.
 */
function leaveStaleSlot(slot: number): number {
  // its command line names its folder, as the harness's unshare does
  const folder = `/var/tmp/panel247-clean-root/slot-${slot}`;
  mkdirSync(`${folder}/etc`, { recursive: true });
  writeFileSync(`${folder}/etc/hostname`, 'left over\n');
  // started through a shell that exits at once, so the unshare is nobody's child here, as after a crash
  const unshare = Number(
    execFileSync(
      'sh',
      [
        '-c',
        'unshare --pid --net --fork --kill-child -- sh -c "sleep infinity" stale "$1" >/dev/null 2>&1 & echo $!',
        'leave',
        folder,
      ],
      { encoding: 'utf8' },
    ).trim(),
  );
  mkdirSync('/run/panel247-clean-root', { recursive: true });
  const deadOwner = 2 ** 22 + 1; // above the largest pid_max Linux allows: no process has it
  writeFileSync(
    `/run/panel247-clean-root/slot-${slot}.json`,
    JSON.stringify({
      owner: deadOwner,
      unshare,
      folder,
      hostVeth: `p247r${slot}h`,
      cgroup: `panel247-clean-root-${slot}`,
    }),
  );
  execFileSync('ip', ['link', 'add', `p247r${slot}h`, 'type', 'veth', 'peer', 'name', `p247r${slot}c`]);
  expect(readFileSync(`${folder}/etc/hostname`, 'utf8')).toBe('left over\n');
  return unshare;
}
