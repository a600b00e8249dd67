import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import {
  BOOKWORM_SYSTEMD,
  type CachedRoot,
  type CleanRootSpec,
  cachedRootTarball,
  cachedTarball,
  cacheKey,
  type DebianMirror,
  machineMirror,
  PACKAGE_NAME,
  processAlive,
} from './clean-root-cache.ts';
import { execFileAsync, requireBinary } from './daemon-harness.ts';
import { type MirrorProxy, startMirrorProxy } from './mirror-proxy.ts';

/**
 * A clean Debian 12 machine for the install's proof: the cached debootstrap root unpacked into a
 * folder of its own and booted with Debian's systemd 252 as PID 1 inside its own mount, PID, UTS,
 * IPC, cgroup and network namespaces. A veth pair gives it 10.247.<slot>.2/30 (the host side is .1),
 * so its daemons listen on their standard ports and real clients reach them from outside. Commands
 * inside run as root through nsenter with argument arrays. `reboot()` powers systemd off and boots
 * the same folder again: the namespaces go, and with them the tmpfs on /run and /tmp, as at a real
 * boot. `stop()` removes everything; a run that was killed leaves a slot file under
 * /run/panel247-clean-root, and the next start removes what it names.
 *
 * Why this works without systemd on the host: systemd 252 still runs on the cgroup v1 "hybrid"
 * layout this machine has (name=systemd v1 hierarchy plus cgroup2 at /sys/fs/cgroup/unified). The
 * root gets a sub-cgroup in both, a cgroup namespace rooted there, and mounts of both inside, the
 * way systemd-nspawn arranges it; `container=` in the environment makes it behave as a container.
 */

const STATE_DIR = '/run/panel247-clean-root';
const ROOTS_DIR = '/var/tmp/panel247-clean-root';
const SLOTS = 250;
const INSIDE_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
const COMMAND = /^[A-Za-z0-9_./+-]+$/;

/**
 * Runs on the host: moves itself into the root's cgroups, then unshares the namespaces. Fixed
 * text; everything variable comes in as positional arguments ($1 = cgroup name, then the command).
 */
const ENTER_CGROUPS = `set -eu
cgroup=$1; shift
for hierarchy in systemd unified; do echo $$ > "/sys/fs/cgroup/$hierarchy/$cgroup/cgroup.procs"; done
exec unshare --mount --uts --ipc --net --pid --cgroup --fork --kill-child --propagation private -- "$@"`;

/**
 * Runs as PID 1 of the new namespaces, before the chroot: the root's own /proc, a read-only /sys of
 * its network namespace, a minimal /dev (the usual character devices and a private devpts), tmpfs
 * on /run and /tmp, and the two cgroup hierarchies systemd needs. Fixed text; $1 is the folder,
 * $2 the number of host folders to bind, then three arguments each (host path, path inside, ro|rw).
 */
const MOUNT_AND_BOOT = `set -eu
root=$1; binds=$2; shift 2
mount --bind "$root" "$root"
while [ "$binds" -gt 0 ]; do
  mount --bind "$1" "$root$2"
  if [ "$3" = ro ]; then mount -o remount,bind,ro "$root$2"; fi
  shift 3; binds=$((binds - 1))
done
mount -t proc -o nosuid,nodev,noexec proc "$root/proc"
mount -t sysfs -o ro,nosuid,nodev,noexec sysfs "$root/sys"
mount -t tmpfs -o mode=755,nosuid,size=4m tmpfs "$root/dev"
for device in null:1:3 zero:1:5 full:1:7 random:1:8 urandom:1:9 tty:5:0; do
  name=\${device%%:*}; numbers=\${device#*:}
  mknod -m 666 "$root/dev/$name" c "\${numbers%%:*}" "\${numbers#*:}"
done
mkdir -m 755 "$root/dev/pts"; mkdir -m 1777 "$root/dev/shm"
mount -t devpts -o newinstance,ptmxmode=0666,mode=620 devpts "$root/dev/pts"
ln -s pts/ptmx "$root/dev/ptmx"; ln -s /proc/self/fd "$root/dev/fd"
ln -s /proc/self/fd/0 "$root/dev/stdin"; ln -s /proc/self/fd/1 "$root/dev/stdout"; ln -s /proc/self/fd/2 "$root/dev/stderr"
mount -t tmpfs -o mode=755,nosuid,nodev tmpfs "$root/run"
mount -t tmpfs -o mode=1777,nosuid,nodev tmpfs "$root/tmp"
mount -t tmpfs -o mode=755,nosuid,nodev,noexec tmpfs "$root/sys/fs/cgroup"
mkdir "$root/sys/fs/cgroup/systemd" "$root/sys/fs/cgroup/unified"
mount -t cgroup -o none,name=systemd,nosuid,nodev,noexec cgroup "$root/sys/fs/cgroup/systemd"
mount -t cgroup2 -o nosuid,nodev,noexec cgroup2 "$root/sys/fs/cgroup/unified"
cd "$root"
exec chroot "$root" "$@"`;

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  input?: string;
  env?: Record<string, string>;
  timeoutMs?: number;
}

export interface CleanRoot {
  /** The root's own address (the veth inside), e.g. 10.247.3.2. */
  address: string;
  /** The host side of the veth pair, where the mirror proxy listens. */
  hostAddress: string;
  /** The root's folder on the host. */
  folder: string;
  hostname: string;
  /** The host PID of the root's PID 1 (systemd); changes at every boot. */
  pid1(): number;
  /** Runs a command inside as root; never throws on a non-zero exit. */
  run(command: string, args?: string[], options?: RunOptions): Promise<RunResult>;
  /** Like run, but throws with the output when the command fails. */
  runOk(command: string, args?: string[], options?: RunOptions): Promise<string>;
  systemctl(...args: string[]): Promise<RunResult>;
  /**
   * Boots systemd again if it was powered off; answers `is-system-running --wait` (`running`, or
   * `degraded` when a unit failed). startCleanRoot returns a root that has already booted.
   */
  boot(): Promise<string>;
  /** Powers off (every unit stops, the namespaces and their /run and /tmp go) and boots again. */
  reboot(): Promise<string>;
  /** Powers off and leaves the folder as a stopped machine's disk (boot() starts it again). */
  powerOff(): Promise<void>;
  stop(): Promise<void>;
}

export interface CleanRootOptions {
  spec?: CleanRootSpec;
  /** Packages installed once with apt-get and cached as a second tarball (see cachedLayerTarball). */
  layer?: PackageLayer;
  hostname?: string;
  /** Host folders seen inside (the panel's files for the install, say), bound at every boot. */
  binds?: Bind[];
}

export interface Bind {
  host: string;
  /** An absolute path inside the root, created when missing. */
  inside: string;
  readOnly: boolean;
}

const HOSTNAME = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;
const INSIDE_FOLDER = /^(\/[A-Za-z0-9_.+-]+)+$/;

export interface PackageLayer {
  packages: string[];
  /** debconf-set-selections lines given before the install (`postfix postfix/main_mailer_type select …`). */
  preseed: string[];
}

/** Throws a clear error when a tool the harness needs is missing: tests fail, never skip. */
export function requireCleanRootTools(): void {
  requireBinary('debootstrap', 'debootstrap');
  requireBinary('unshare', 'util-linux');
  requireBinary('nsenter', 'util-linux');
  requireBinary('ip', 'iproute2');
  requireBinary('tar', 'tar');
  for (const hierarchy of ['systemd', 'unified']) {
    if (!existsSync(`/sys/fs/cgroup/${hierarchy}`)) {
      throw new Error(`/sys/fs/cgroup/${hierarchy} is missing: the clean root needs the cgroup hybrid layout`);
    }
  }
}

interface SlotState {
  owner: number;
  unshare: number;
  folder: string;
  hostVeth: string;
  cgroup: string;
}

export async function startCleanRoot(options: CleanRootOptions = {}): Promise<CleanRoot> {
  requireCleanRootTools();
  if (options.hostname !== undefined && !HOSTNAME.test(options.hostname)) {
    throw new Error(`not a host name: ${options.hostname}`);
  }
  const binds = options.binds ?? [];
  for (const bind of binds) {
    if (!INSIDE_FOLDER.test(bind.inside) || bind.inside.split('/').includes('..')) {
      throw new Error(`not a folder inside the root: ${bind.inside}`);
    }
    if (!existsSync(bind.host)) throw new Error(`no such host folder to bind: ${bind.host}`);
  }
  const mirror = machineMirror();
  const spec = options.spec ?? BOOKWORM_SYSTEMD;
  const { tarball } = options.layer
    ? await cachedLayerTarball(spec, options.layer, mirror)
    : await cachedRootTarball(spec, mirror);
  mkdirSync(STATE_DIR, { recursive: true });
  await removeStaleSlots();
  const slot = claimSlot();
  const names = slotNames(slot);
  const hostname = options.hostname ?? `clean-root-${slot}`;
  const state: SlotState = { owner: process.pid, unshare: 0, ...names };
  saveSlot(slot, state);
  let proxy: MirrorProxy | undefined;
  let boot: Booted | undefined;
  try {
    rmSync(names.folder, { recursive: true, force: true });
    mkdirSync(names.folder, { recursive: true, mode: 0o755 });
    await execFileAsync('tar', ['-C', names.folder, '--numeric-owner', '-xf', tarball]);
    await hostVethUp(names.hostVeth, names.hostAddress);
    proxy = await startMirrorProxy(names.hostAddress, mirror.hosts);
    prepareFolder(names.folder, hostname, names.hostAddress, proxy.port, mirror);
    for (const bind of binds) mkdirSync(path.join(names.folder, bind.inside), { recursive: true });
    boot = await bootRoot(slot, state, binds);
  } catch (error) {
    await proxy?.close();
    await teardown(slot, state);
    throw error;
  }

  let current: Booted = boot;
  const run = (command: string, args: string[] = [], runOptions: RunOptions = {}) =>
    runInside(current.pid1, command, args, runOptions);
  const runOk = async (command: string, args: string[] = [], runOptions: RunOptions = {}) => {
    const result = await run(command, args, runOptions);
    if (result.code !== 0) {
      throw new Error(`${command} ${args.join(' ')} exited ${result.code}: ${result.stderr}${result.stdout}`);
    }
    return result.stdout;
  };
  const systemctl = (...args: string[]) => run('systemctl', args);
  // systemctl answers only once PID 1 has opened its private socket: until then it fails to connect
  const waitRunning = async () => {
    let answer: RunResult = { code: -1, stdout: '', stderr: '' };
    await waitUntilAsync(async () => {
      answer = await run('systemctl', ['is-system-running', '--wait'], { timeoutMs: 300_000 });
      return answer.stdout.trim() !== '';
    }, 300_000);
    if (answer.stdout.trim() === '') throw new Error(`systemd did not answer: ${answer.stderr}`);
    return answer.stdout.trim();
  };
  let stopped = false;
  const cleanRoot: CleanRoot = {
    address: names.address,
    hostAddress: names.hostAddress,
    folder: names.folder,
    hostname,
    pid1: () => current.pid1,
    run,
    runOk,
    systemctl,
    async boot() {
      if (current.exited()) {
        await hostVethUp(names.hostVeth, names.hostAddress);
        current = await bootRoot(slot, state, binds);
      }
      return waitRunning();
    },
    powerOff: () => powerOff(current, run),
    async reboot() {
      await powerOff(current, run);
      await hostVethUp(names.hostVeth, names.hostAddress);
      current = await bootRoot(slot, state, binds);
      return waitRunning();
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await powerOff(current, run);
      await proxy?.close();
      await teardown(slot, state);
    },
  };
  // returned booted: a command run while systemd still boots races its set-up (systemd-tmpfiles
  // empties /tmp under apt's gpgv, for one)
  try {
    await waitRunning();
  } catch (error) {
    await cleanRoot.stop();
    throw error;
  }
  return cleanRoot;
}

/**
 * The base root with `layer` installed by apt-get inside it (a booted root, so postinst scripts
 * meet systemd as on a real machine), powered off and kept as a second tarball. Unpacking it takes
 * seconds where the install takes minutes; the proof of a fresh install still needs the plain root.
 */
export function cachedLayerTarball(
  spec: CleanRootSpec,
  layer: PackageLayer,
  mirror = machineMirror(),
): Promise<CachedRoot> {
  for (const name of layer.packages) if (!PACKAGE_NAME.test(name)) throw new Error(`not a package name: ${name}`);
  const what = JSON.stringify({ packages: [...layer.packages].sort(), preseed: layer.preseed });
  const key = `${cacheKey(spec, mirror)}-with-${createHash('sha256').update(what).digest('hex').slice(0, 12)}`;
  return cachedTarball(key, async (part) => {
    const root = await startCleanRoot({ spec });
    try {
      await root.boot();
      await root.runOk('apt-get', ['update', '-q']);
      await root.runOk('debconf-set-selections', [], { input: `${layer.preseed.join('\n')}\n` });
      await root.runOk('apt-get', ['install', '-y', '-q', '--no-install-recommends', ...layer.packages], {
        timeoutMs: 3_600_000,
      });
      await root.runOk('apt-get', ['clean']);
      await root.powerOff();
      await execFileAsync('tar', ['-C', root.folder, '--numeric-owner', '-cf', part, '.']);
    } finally {
      await root.stop();
    }
  });
}

interface Booted {
  process: ChildProcess;
  pid1: number;
  exited(): boolean;
  output(): string;
  /** Resolves when the unshare process (and with it every process of the root) has exited. */
  done: Promise<void>;
}

function slotNames(slot: number) {
  return {
    folder: path.join(ROOTS_DIR, `slot-${slot}`),
    hostVeth: `p247r${slot}h`,
    rootVeth: `p247r${slot}c`,
    cgroup: `panel247-clean-root-${slot}`,
    address: `10.247.${slot}.2`,
    hostAddress: `10.247.${slot}.1`,
  };
}

function slotFile(slot: number): string {
  return path.join(STATE_DIR, `slot-${slot}.json`);
}

/** Takes the first free slot by creating its state file exclusively (two test processes never share one). */
function claimSlot(): number {
  for (let slot = 1; slot <= SLOTS; slot++) {
    try {
      closeSync(openSync(slotFile(slot), 'wx'));
      return slot;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  throw new Error(`all ${SLOTS} clean-root slots are taken (${STATE_DIR})`);
}

function saveSlot(slot: number, state: SlotState): void {
  writeFileSync(slotFile(slot), `${JSON.stringify(state)}\n`);
}

/** A slot whose owner process is gone was left by a killed run: remove its namespaces, veth and folder. */
async function removeStaleSlots(): Promise<void> {
  for (const entry of readdirSync(STATE_DIR)) {
    const match = /^slot-(\d+)\.json$/.exec(entry);
    if (!match) continue;
    const slot = Number(match[1]);
    let state: SlotState;
    try {
      state = JSON.parse(readFileSync(slotFile(slot), 'utf8')) as SlotState;
    } catch {
      // empty while its owner writes it; still empty a minute later, its owner died in between
      const age = Date.now() - (statSync(slotFile(slot), { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 60_000) rmSync(slotFile(slot), { force: true });
      continue;
    }
    if (processAlive(state.owner)) continue;
    await teardown(slot, { ...state, ...slotNames(slot) });
  }
}

async function teardown(slot: number, state: SlotState): Promise<void> {
  if (state.unshare && isOurUnshare(state.unshare, state.folder)) {
    // --kill-child: PID 1 dies with unshare, and the kernel kills the rest of the PID namespace
    process.kill(state.unshare, 'SIGKILL');
    await waitUntil(() => !processAlive(state.unshare), 10_000);
  }
  await execFileAsync('ip', ['link', 'del', state.hostVeth]).catch(() => undefined);
  await removeCgroups(state.cgroup);
  // the mounts lived in the root's own mount namespace, gone with its processes: a plain folder is left
  rmSync(state.folder, { recursive: true, force: true });
  rmSync(slotFile(slot), { force: true });
}

/** The slot's own unshare (its command line names the slot's folder), not a process that reused the PID. */
function isOurUnshare(pid: number, folder: string): boolean {
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return args[0]?.endsWith('unshare') === true && args.includes(folder);
  } catch {
    return false;
  }
}

async function removeCgroups(name: string): Promise<void> {
  for (const hierarchy of ['systemd', 'unified']) {
    const top = `/sys/fs/cgroup/${hierarchy}/${name}`;
    await waitUntil(() => {
      try {
        removeCgroupTree(top);
        return true;
      } catch {
        return false; // a process still exiting keeps its cgroup busy for a moment
      }
    }, 10_000);
  }
}

function removeCgroupTree(folder: string): void {
  if (!existsSync(folder)) return;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (entry.isDirectory()) removeCgroupTree(path.join(folder, entry.name));
  }
  rmdirSync(folder);
}

async function waitUntil(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return check();
}

async function waitUntilAsync(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return false;
}

/** The host side of the veth pair; created again after a power-off (the pair dies with the namespace). */
async function hostVethUp(hostVeth: string, hostAddress: string): Promise<void> {
  const rootVeth = hostVeth.replace(/h$/, 'c');
  await execFileAsync('ip', ['link', 'del', hostVeth]).catch(() => undefined);
  await execFileAsync('ip', ['link', 'add', hostVeth, 'type', 'veth', 'peer', 'name', rootVeth]);
  await execFileAsync('ip', ['addr', 'add', `${hostAddress}/30`, 'dev', hostVeth]);
  await execFileAsync('ip', ['link', 'set', hostVeth, 'up']);
}

/** What the root needs to know about itself: its name, its address, and apt's way out through the proxy. */
function prepareFolder(folder: string, hostname: string, hostAddress: string, proxyPort: number, mirror: DebianMirror) {
  const address = hostAddress.replace(/\.1$/, '.2');
  writeFileSync(path.join(folder, 'etc/hostname'), `${hostname}\n`);
  writeFileSync(
    path.join(folder, 'etc/hosts'),
    `127.0.0.1\tlocalhost\n${address}\t${hostname}\n::1\tlocalhost ip6-localhost ip6-loopback\n`,
  );
  // systemd treats an empty machine-id as "first boot" and makes one; the tarball's copy stays shared
  writeFileSync(path.join(folder, 'etc/machine-id'), '');
  writeFileSync(
    path.join(folder, 'etc/apt/apt.conf.d/00clean-root-proxy'),
    `// only the machine's mirror (${mirror.hosts.join(', ')}), through the harness's proxy on the host side\n` +
      `Acquire::http::Proxy "http://${hostAddress}:${proxyPort}/";\nAcquire::http::Pipeline-Depth "0";\n`,
  );
}

async function bootRoot(slot: number, state: SlotState, binds: Bind[]): Promise<Booted> {
  const names = slotNames(slot);
  for (const hierarchy of ['systemd', 'unified']) {
    mkdirSync(`/sys/fs/cgroup/${hierarchy}/${names.cgroup}`, { recursive: true });
  }
  const child = spawn(
    'sh',
    [
      '-c',
      ENTER_CGROUPS,
      'clean-root-enter',
      names.cgroup,
      'sh',
      '-c',
      MOUNT_AND_BOOT,
      'clean-root-boot',
      names.folder,
      String(binds.length),
      ...binds.flatMap((bind) => [bind.host, bind.inside, bind.readOnly ? 'ro' : 'rw']),
      '/lib/systemd/systemd',
    ],
    {
      env: { PATH: INSIDE_PATH, container: 'panel247-clean-root', LANG: 'C.UTF-8' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk).slice(-65_536);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let exited = false;
  const done = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true;
      resolve();
    }),
  );
  const unshare = child.pid as number;
  saveSlot(slot, { ...state, unshare });
  state.unshare = unshare;
  let pid1 = 0;
  const found = await waitUntil(() => {
    if (exited) return true;
    pid1 = systemdChild(unshare);
    return pid1 > 0;
  }, 30_000);
  if (!found || exited || pid1 === 0) {
    throw new Error(`the clean root did not boot systemd: ${output}`);
  }
  await execFileAsync('ip', ['link', 'set', names.rootVeth, 'netns', String(pid1)]);
  const net = (args: string[]) => execFileAsync('nsenter', ['--target', String(pid1), '--net', '--', 'ip', ...args]);
  await net(['link', 'set', names.rootVeth, 'name', 'eth0']);
  await net(['addr', 'add', `${names.address}/30`, 'dev', 'eth0']);
  await net(['link', 'set', 'eth0', 'up']);
  await net(['link', 'set', 'lo', 'up']);
  await net(['route', 'add', 'default', 'via', names.hostAddress]);
  return { process: child, pid1, exited: () => exited, output: () => output, done };
}

/** The host PID of unshare's child once it has become systemd (sh, then chroot, then exec). */
function systemdChild(unshare: number): number {
  try {
    const children = readFileSync(`/proc/${unshare}/task/${unshare}/children`, 'utf8').trim().split(/\s+/);
    const child = Number(children[0]);
    if (!child) return 0;
    return readlinkSync(`/proc/${child}/exe`).endsWith('/systemd') ? child : 0;
  } catch {
    return 0;
  }
}

/** `systemctl poweroff` as at a real shutdown; systemd's reboot() then ends the PID namespace. */
async function powerOff(booted: Booted, run: (command: string, args: string[]) => Promise<RunResult>) {
  if (booted.exited()) return;
  await run('systemctl', ['poweroff', '--no-block']);
  const timer = setTimeout(() => booted.process.kill('SIGKILL'), 90_000);
  await booted.done;
  clearTimeout(timer);
}

async function runInside(pid1: number, command: string, args: string[], options: RunOptions): Promise<RunResult> {
  if (!COMMAND.test(command)) throw new Error(`not a command name: ${command}`);
  return new Promise((resolve) => {
    const child = execFile(
      'nsenter',
      [
        '--target',
        String(pid1),
        '--mount',
        '--uts',
        '--ipc',
        '--net',
        '--pid',
        '--cgroup',
        '--root',
        '--wd=/',
        '--',
        command,
        ...args,
      ],
      {
        env: { PATH: INSIDE_PATH, HOME: '/root', LANG: 'C.UTF-8', DEBIAN_FRONTEND: 'noninteractive', ...options.env },
        maxBuffer: 64 * 1024 * 1024,
        timeout: options.timeoutMs ?? 600_000,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
    else child.stdin?.end();
  });
}
