import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  lchownSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { ConfinedWorkers } from '../../src/drivers/files/confined/confined-workers.ts';
import type { FileOwner, WorkerRequest } from '../../src/drivers/files/confined/protocol.ts';
import { ServiceFiles } from '../../src/drivers/files/service-files.ts';
import { ConflictError, FieldErrors, NotFoundError } from '../../src/errors.ts';

const isRoot = process.getuid?.() === 0;
/** Debian's `nobody`: a user with no rights of its own, standing in for a service's user. */
const NOBODY: FileOwner = { uid: 65534, gid: 65534 };

/** Gives a tree to `owner`, as if its service had written it (links included, not followed). */
function giveTo(top: string, owner: FileOwner | undefined): void {
  if (!owner) return;
  execFileSync('chown', ['-hR', `${owner.uid}:${owner.gid}`, top]);
}

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function zipNames(bytes: Buffer): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: false }, (error, zip) => {
      if (error) return reject(error);
      const names: string[] = [];
      zip.on('entry', (entry: yauzl.Entry) => names.push(entry.fileName));
      zip.on('end', () => resolve(names));
      zip.on('error', reject);
    });
  });
}

describe('the confined file worker', () => {
  let top: string;
  /** Customer A's home, where the operations run. */
  let home: string;
  /** Customer B's home, and the panel's own data: what A must never reach. */
  let other: string;
  let panelData: string;
  let workers: ConfinedWorkers;
  let files: ServiceFiles;
  const owner = isRoot ? NOBODY : undefined;
  const place = () => ({ home, folder: '', owner });
  const call = <T>(request: Omit<WorkerRequest, 'base' | 'owner'> & { base?: string }) =>
    workers.call<T>({ base: home, owner, ...request });

  beforeAll(() => {
    top = mkdtempSync(path.join(tmpdir(), 'p247-confined-'));
    chmodSync(top, 0o755);
    home = path.join(top, 'a.test');
    other = path.join(top, 'b.test');
    panelData = path.join(top, 'panel');
    mkdirSync(path.join(home, 'site'), { recursive: true });
    writeFileSync(path.join(home, 'site', 'index.php'), '<?php echo "a";\n');
    mkdirSync(path.join(other, 'site'), { recursive: true });
    writeFileSync(path.join(other, 'site', 'index.php'), '<?php echo "b";\n');
    mkdirSync(panelData, { mode: 0o700 });
    writeFileSync(path.join(panelData, 'secret.key'), 'the panel key', { mode: 0o600 });
    chmodSync(other, 0o750);
    giveTo(home, owner);
    chmodSync(home, 0o750);
    workers = new ConfinedWorkers({ timeoutMs: 20_000 });
    files = new ServiceFiles(workers, path.join(panelData, 'uploads'));
  });
  afterAll(async () => {
    await workers.close();
    rmSync(top, { recursive: true, force: true });
  });

  it('lists, reads and zips through a link that stays inside, and refuses one that leads out', async () => {
    symlinkSync('site', path.join(home, 'www'));
    symlinkSync(other, path.join(home, 'neighbour'));
    symlinkSync('/etc/shadow', path.join(home, 'site', 'shadow'));
    symlinkSync(path.join(home, 'site', 'index.php'), path.join(home, 'absolute-inside.php'));
    giveTo(home, owner);
    expect((await files.list(place(), 'www')).map((entry) => entry.name)).toEqual(['index.php', 'shadow']);
    expect(await files.read(place(), 'absolute-inside.php')).toBe('<?php echo "a";\n');
    await expect(files.list(place(), 'neighbour')).rejects.toMatchObject({ messageKey: 'files.error.outside' });
    await expect(files.read(place(), 'neighbour/site/index.php')).rejects.toBeInstanceOf(ConflictError);
    await expect(files.read(place(), 'site/shadow')).rejects.toMatchObject({ messageKey: 'files.error.outside' });
    await expect(files.save(place(), 'neighbour/site/index.php', 'owned')).rejects.toBeInstanceOf(ConflictError);
    const zip = await files.zip(place(), '');
    const names = await zipNames(await bytesOf(zip.stream));
    expect(names).toContain('files/site/index.php');
    expect(names.some((name) => name.includes('shadow') || name.includes('neighbour'))).toBe(false);
    expect(readFileSync(path.join(other, 'site', 'index.php'), 'utf8')).toBe('<?php echo "b";\n');
  });

  it('walks an FTP account’s folder without following it when it was swapped for a link', async () => {
    mkdirSync(path.join(home, 'ftp-folder'));
    giveTo(path.join(home, 'ftp-folder'), owner);
    expect(await files.list({ ...place(), folder: 'ftp-folder' }, '')).toEqual([]);
    rmSync(path.join(home, 'ftp-folder'), { recursive: true });
    symlinkSync(other, path.join(home, 'ftp-folder'));
    giveTo(path.join(home, 'ftp-folder'), owner);
    await expect(files.list({ ...place(), folder: 'ftp-folder' }, '')).rejects.toBeInstanceOf(NotFoundError);
    await expect(files.save({ ...place(), folder: 'ftp-folder' }, 'site/index.php', 'x')).rejects.toBeInstanceOf(
      NotFoundError,
    );
    expect(readFileSync(path.join(other, 'site', 'index.php'), 'utf8')).toBe('<?php echo "b";\n');
  });

  it('writes the last chunk of an upload into the folder as it is then: a folder swapped for a link meanwhile is refused', async () => {
    mkdirSync(path.join(home, 'uploads'));
    giveTo(path.join(home, 'uploads'), owner);
    const target = { key: 'a'.repeat(64), folder: 'uploads', name: 'index.php', size: 6 };
    expect(await files.uploadChunk(place(), target, 0, Readable.from([Buffer.from('pwn')]))).toBe(3);
    // Between two chunks (or while the last one's body is still arriving), the folder becomes a link.
    renameSync(path.join(home, 'uploads'), path.join(home, 'uploads-moved'));
    symlinkSync(path.join(other, 'site'), path.join(home, 'uploads'));
    giveTo(path.join(home, 'uploads'), owner);
    await expect(files.uploadChunk(place(), target, 3, Readable.from([Buffer.from('ned')]))).rejects.toBeInstanceOf(
      ConflictError,
    );
    expect(readFileSync(path.join(other, 'site', 'index.php'), 'utf8')).toBe('<?php echo "b";\n');
  });

  it('lists a FIFO as a special file and never opens it; the panel keeps answering', async () => {
    execFileSync('mkfifo', [path.join(home, 'site', 'pipe')]);
    giveTo(path.join(home, 'site', 'pipe'), owner);
    const listed = await files.list(place(), 'site');
    expect(listed.find((entry) => entry.name === 'pipe')).toMatchObject({ type: 'special', size: 0, editable: false });
    const started = Date.now();
    await expect(files.read(place(), 'site/pipe')).rejects.toMatchObject({ messageKey: 'files.error.not_a_file' });
    await expect(files.download(place(), 'site/pipe')).rejects.toBeInstanceOf(NotFoundError);
    // Many at once: none of them waits on the FIFO, so none holds a slot or a thread.
    await Promise.all(
      Array.from({ length: 12 }, () => expect(files.read(place(), 'site/pipe')).rejects.toBeInstanceOf(NotFoundError)),
    );
    const zip = await files.zip(place(), 'site');
    expect(await zipNames(await bytesOf(zip.stream))).not.toContain('site/pipe');
    // A bound far above the time taken, only to name a hang as such.
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('zips a file that grows meanwhile to the size it had, and the zip ends', async () => {
    const growing = path.join(home, 'site', 'growing.log');
    writeFileSync(growing, 'x'.repeat(200_000));
    giveTo(growing, owner);
    let writing = true;
    const grow = (async () => {
      while (writing) await appendFile(growing, 'y'.repeat(10_000));
    })();
    try {
      const zip = await files.zip(place(), 'site');
      const names = await zipNames(await bytesOf(zip.stream));
      expect(names).toContain('site/growing.log');
    } finally {
      writing = false;
      await grow;
    }
  });

  it('extracts into a new folder, and counts an archive’s entries against the room left', async () => {
    const source = path.join(top, 'pack-source');
    mkdirSync(path.join(source, 'web'), { recursive: true });
    writeFileSync(path.join(source, 'web', 'index.html'), '<h1>hola</h1>');
    execFileSync('tar', ['czf', path.join(home, 'pack.tar.gz'), '-C', source, 'web']);
    giveTo(path.join(home, 'pack.tar.gz'), owner);
    expect(await files.extract(place(), 'pack.tar.gz', 1_000_000)).toBe('pack');
    expect(readFileSync(path.join(home, 'pack', 'web', 'index.html'), 'utf8')).toBe('<h1>hola</h1>');
    await expect(files.extract(place(), 'pack.tar.gz', 5)).rejects.toMatchObject({ messageKey: 'files.error.archive' });
    expect((await files.list(place(), '')).some((entry) => entry.name === 'pack (2)')).toBe(false);
  });

  it('measures a home whole, links counted as links', async () => {
    const bytes = await files.usage(place());
    const du = Number(execFileSync('du', ['-sb', home], { encoding: 'utf8' }).split('\t')[0]);
    expect(bytes).toBe(du);
  });

  it('copies within the room left, or not at all', async () => {
    await expect(files.copyOrMove(place(), 'site', 'pack', 'copy', 10)).rejects.toMatchObject({
      messageKey: 'files.error.quota',
    });
    expect((await files.list(place(), 'pack')).map((entry) => entry.name)).toEqual(['web']);
    await files.copyOrMove(place(), 'site/index.php', 'pack', 'copy', 1_000_000);
    expect(readFileSync(path.join(home, 'pack', 'index.php'), 'utf8')).toBe('<?php echo "a";\n');
    await expect(files.copyOrMove(place(), 'site', 'site/uploads-x', 'copy', 1_000_000)).rejects.toBeInstanceOf(
      FieldErrors,
    );
  });

  it('copies a home for a move: whole first, then only what changed since, mirrored', async () => {
    const source = path.join(top, 'move-source.test');
    const target = path.join(top, 'move-target.test');
    mkdirSync(path.join(source, 'web', 'old'), { recursive: true });
    writeFileSync(path.join(source, 'web', 'big.bin'), Buffer.alloc(512 * 1024, 1));
    writeFileSync(path.join(source, 'web', 'index.php'), 'first');
    writeFileSync(path.join(source, 'web', 'old', 'gone.txt'), 'gone');
    symlinkSync('index.php', path.join(source, 'web', 'home.php'));
    mkdirSync(target);
    giveTo(source, owner);
    giveTo(target, owner);
    const copy = async (since?: number) => {
      const args = since === undefined ? {} : { since };
      const { meta, output } = await workers.stream({ op: 'tar', base: source, folder: [], args, owner });
      let bytes = 0;
      const counted = output.pipe(
        new Transform({
          transform(chunk: Buffer, _encoding, done) {
            bytes += chunk.length;
            done(null, chunk);
          },
        }),
      );
      const mirror = since !== undefined;
      await workers.call(
        { op: 'restore', base: target, folder: [], args: { path: '', top: 'folder', mirror }, owner },
        () => counted,
      );
      return { resendSince: meta.resendSince as number, bytes };
    };
    // the first copy begins well after the files were made (file times have a margin, see tarTree)
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const first = await copy();
    expect(first.bytes).toBeGreaterThan(512 * 1024);
    // stamped after the first copy began (the margin for coarse file times has passed)
    await new Promise((resolve) => setTimeout(resolve, 2100));
    writeFileSync(path.join(source, 'web', 'index.php'), 'second');
    writeFileSync(path.join(source, 'web', 'new.txt'), 'new');
    rmSync(path.join(source, 'web', 'old'), { recursive: true });
    // only the new file: a chown is a change too (it sets ctime)
    giveTo(path.join(source, 'web', 'new.txt'), owner);
    const final = await copy(first.resendSince);
    // the unchanged 512 KiB file went by name only
    expect(final.bytes).toBeLessThan(64 * 1024);
    expect(readFileSync(path.join(target, 'web', 'index.php'), 'utf8')).toBe('second');
    expect(readFileSync(path.join(target, 'web', 'new.txt'), 'utf8')).toBe('new');
    expect(readFileSync(path.join(target, 'web', 'big.bin')).equals(Buffer.alloc(512 * 1024, 1))).toBe(true);
    expect(readFileSync(path.join(target, 'web', 'home.php'), 'utf8')).toBe('second');
    expect(() => readFileSync(path.join(target, 'web', 'old', 'gone.txt'))).toThrow();
    const tree = (folder: string) =>
      execFileSync('find', ['.', '-printf', '%p %y %s %m\n'], { cwd: folder, encoding: 'utf8' }).split('\n').sort();
    expect(tree(target)).toEqual(tree(source));
  });

  it('installs an application whole, and never through a link planted on the way', async () => {
    const payload = path.join(top, 'payload');
    mkdirSync(path.join(payload, 'lib'), { recursive: true });
    writeFileSync(path.join(payload, 'index.php'), '<?php require "lib/a.php";');
    writeFileSync(path.join(payload, 'lib', 'a.php'), '<?php');
    const configs = [{ path: 'config.php', text: '<?php $password = "s3cret";' }];
    await files.installTarget(place(), 'apps/blog');
    await files.install(place(), 'apps/blog', payload, configs, 1_000_000);
    expect(readFileSync(path.join(home, 'apps', 'blog', 'lib', 'a.php'), 'utf8')).toBe('<?php');
    await expect(files.installTarget(place(), 'apps/blog')).rejects.toBeInstanceOf(FieldErrors);
    // The folder above the target becomes a link to B's site after the check.
    await files.installTarget(place(), 'apps2/blog');
    rmSync(path.join(home, 'apps2'), { recursive: true });
    symlinkSync(path.join(other, 'site'), path.join(home, 'apps2'));
    giveTo(path.join(home, 'apps2'), owner);
    await expect(files.install(place(), 'apps2/blog', payload, configs, 1_000_000)).rejects.toBeInstanceOf(
      ConflictError,
    );
    await expect(files.installTarget(place(), 'apps2/blog')).rejects.toMatchObject({
      fields: [{ field: 'subpath', messageKey: 'hosting.error.folder_escape' }],
    });
    expect(execFileSync('ls', ['-A', path.join(other, 'site')], { encoding: 'utf8' }).trim()).toBe('index.php');
  });

  describe.runIf(isRoot)('as the service’s user (the kernel’s refusal)', () => {
    it('cannot read the panel’s data or another home even when asked for it directly, bypassing the panel’s checks', async () => {
      // A request no panel code would send: rooted at the panel's data folder, or at B's home.
      await expect(
        call({ op: 'read', base: panelData, folder: [], args: { path: 'secret.key' } }),
      ).rejects.toMatchObject({ messageKey: 'files.error.denied' });
      await expect(call({ op: 'list', base: other, folder: [], args: { path: 'site' } })).rejects.toMatchObject({
        messageKey: 'files.error.denied',
      });
      await expect(call({ op: 'read', base: '/etc', folder: [], args: { path: 'shadow' } })).rejects.toMatchObject({
        messageKey: 'files.error.denied',
      });
      // What A's own files hold is A's: written by A's user.
      await files.save(place(), 'site/new.txt', 'mine');
      const made = path.join(home, 'site', 'new.txt');
      const { uid, gid } = await import('node:fs').then((fs) => fs.lstatSync(made));
      expect([uid, gid]).toEqual([NOBODY.uid, NOBODY.gid]);
    });

    it('is refused by the kernel a change the service’s user may not make', async () => {
      // A file only root may write, in A's home: the worker, as A, may not change it.
      const rootOwned = path.join(home, 'site', 'root-owned.txt');
      writeFileSync(rootOwned, 'root', { mode: 0o644 });
      lchownSync(rootOwned, 0, 0);
      chownSync(path.join(home, 'site'), 0, 0);
      try {
        await expect(files.save(place(), 'site/root-owned.txt', 'changed')).rejects.toMatchObject({
          messageKey: 'files.error.denied',
        });
        expect(readFileSync(rootOwned, 'utf8')).toBe('root');
      } finally {
        giveTo(path.join(home, 'site'), owner);
      }
    });
  });
});
