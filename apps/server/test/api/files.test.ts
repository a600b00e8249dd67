import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CSRF_HEADER } from '@panel247/contract/constants';
import { type FilesListData, filesPagePath, UPLOAD_CHUNK_BYTES } from '@panel247/contract/files';
import type { FtpAccount } from '@panel247/contract/ftp';
import type { SignonForm } from '@panel247/contract/signon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { ZipFile } from 'yazl';
import { allKeys } from '../../src/modules/admin/admin.service.ts';
import { asCustomer, HOSTING_UID } from '../support/customer-files.ts';
import { type BuiltAccount, buildAccount, buildUser } from '../support/factories.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

describe.each(DATABASE_KINDS)('file manager API on %s', (kind) => {
  let t: TestApp;
  let account: BuiltAccount;
  let cookie: string;
  let readerCookie: string;
  let noneCookie: string;
  let id: number;
  let root: string;
  let home: string;
  let dataDir: string;

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'p247-files-'));
    dataDir = mkdtempSync(path.join(tmpdir(), 'p247-files-data-'));
    // 12 MiB of web space: a 10 MiB upload fits once, not twice
    t = await buildTestApp(kind, { config: { 'hosting.root': root, dataDir, 'hosting.webSpaceMb': 12 } });
    account = await buildAccount(t.database.db, {
      domainName: 'ficheros.test',
      resources: { 'ficheros.test': { hasService: true } },
    });
    id = account.resources['ficheros.test'] as number;
    home = path.join(root, 'ficheros.test');
    cookie = await t.login(account.domainName, account.username, account.password);
    const reader = await buildUser(t.database.db, account, 'files-reader', {
      'ficheros.test': { ...allKeys('disabled'), service: 'read', service_ftp: 'read' },
    });
    readerCookie = await t.login(account.domainName, reader.username, reader.password);
    const none = await buildUser(t.database.db, account, 'files-none', {
      'ficheros.test': { ...allKeys('disabled'), service: 'read' },
    });
    noneCookie = await t.login(account.domainName, none.username, none.password);
  });
  afterAll(() => t.close());

  const list = async (params: Record<string, string> = {}, as = cookie) =>
    t.call<FilesListData>('GET', `service/${id}/files/list/`, params, { cookie: as });
  const names = async (params: Record<string, string> = {}) =>
    (await list(params)).body.data.entries.map((entry) => `${entry.type}:${entry.name}`);

  /** One chunk, as the web app sends it: the raw bytes, PUT. */
  const put = (query: Record<string, string | number>, body: Buffer, as = cookie) =>
    t.app
      .inject({
        method: 'PUT',
        url: `${t.config.basePath}service/${id}/files/upload/?${new URLSearchParams(
          Object.entries(query).map(([key, value]): [string, string] => [key, String(value)]),
        )}`,
        headers: { [CSRF_HEADER]: '1', cookie: as, 'content-type': 'application/octet-stream' },
        payload: body,
      })
      .then((response) => ({ status: response.statusCode, body: response.json() }));

  it('lists a new service’s home (made on first use), and creates folders owned by the hosting user', async () => {
    const empty = await list();
    expect(empty.body.system.errors).toEqual([]);
    expect(empty.body.data).toEqual({ path: '', account: '', rootFolder: '', entries: [], writable: true });
    const made = await t.call('POST', `service/${id}/files/mkdir/`, { path: '', name: 'site' }, { cookie });
    expect(made.body.system.info).toEqual(['Carpeta creada']);
    await t.call('POST', `service/${id}/files/mkdir/`, { path: 'site', name: 'img' }, { cookie });
    expect(await names()).toEqual(['folder:site']);
    expect(await names({ path: 'site' })).toEqual(['folder:img']);
    if (process.getuid?.() === 0) expect(lstatSync(path.join(home, 'site')).uid).toBe(HOSTING_UID);
    const again = await t.call('POST', `service/${id}/files/mkdir/`, { path: '', name: 'site' }, { cookie });
    expect(again.body.system.inputs).toEqual(['name']);
  });

  it('uploads in chunks, resumes after a broken one, and refuses what would pass the web space', async () => {
    const content = randomBytes(UPLOAD_CHUNK_BYTES + 1234);
    const target = { path: 'site', name: 'big.bin', size: content.length };
    const first = await put({ ...target, offset: 0 }, content.subarray(0, UPLOAD_CHUNK_BYTES));
    expect(first.body.data).toEqual({ received: UPLOAD_CHUNK_BYTES, done: false });
    expect(existsSync(path.join(home, 'site', 'big.bin'))).toBe(false);
    // a chunk sent at the wrong offset is refused; the status says where to go on
    const wrong = await put({ ...target, offset: 10 }, content.subarray(10, 20));
    expect(wrong.body.system.errors[0]).toContain('no continúa');
    const status = await t.call(
      'GET',
      `service/${id}/files/upload/status/`,
      { path: 'site', name: 'big.bin' },
      { cookie },
    );
    expect(status.body.data).toEqual({ received: UPLOAD_CHUNK_BYTES, done: false });
    const last = await put({ ...target, offset: UPLOAD_CHUNK_BYTES }, content.subarray(UPLOAD_CHUNK_BYTES));
    expect(last.body.data).toEqual({ received: content.length, done: true });
    const landed = path.join(home, 'site', 'big.bin');
    expect(readFileSync(landed).equals(content)).toBe(true);
    // the activity log keeps the upload once, when it is whole
    const uploads = await t.database.db
      .selectFrom('activity_log')
      .select(['action', 'area', 'changes'])
      .where('action', '=', 'files/upload')
      .execute();
    expect(uploads).toHaveLength(1);
    expect(uploads[0]?.area).toBe('ftp');
    expect(uploads[0]?.changes).toContain('big.bin');
    // a client that lost the last answer learns the file is there, and sends nothing again
    const after = await t.call(
      'GET',
      `service/${id}/files/upload/status/`,
      { path: 'site', name: 'big.bin' },
      { cookie },
    );
    expect(after.body.data).toEqual({ received: content.length, done: true });
    expect(lstatSync(landed).mode & 0o777).toBe(0o644);
    if (process.getuid?.() === 0) expect(lstatSync(landed).uid).toBe(HOSTING_UID);

    // more than a chunk's room in one PUT
    const tooMuch = await put({ path: 'site', name: 'small.txt', size: 3, offset: 0 }, Buffer.from('four'));
    expect(tooMuch.body.system.valid).toBe(false);
    expect(existsSync(path.join(home, 'site', 'small.txt'))).toBe(false);
    // an empty file is one empty chunk
    expect((await put({ path: 'site', name: 'empty.txt', size: 0, offset: 0 }, Buffer.alloc(0))).body.data).toEqual({
      received: 0,
      done: true,
    });
    // an upload nobody continued for a day is dropped when the next one starts
    await put({ path: '', name: 'abandoned.bin', size: 100, offset: 0 }, Buffer.alloc(10));
    const staging = path.join(dataDir, 'uploads');
    const dayAgo = new Date(Date.now() - 25 * 3600_000);
    // one part waiting, and the marks of the uploads that finished (what a lost answer asks for)
    expect(readdirSync(staging).filter((name) => /^[0-9a-f]{64}$/.test(name))).toHaveLength(1);
    for (const staged of readdirSync(staging)) utimesSync(path.join(staging, staged), dayAgo, dayAgo);
    await put({ path: '', name: 'fresh.txt', size: 1, offset: 0 }, Buffer.from('f'));
    // all of it a day old is gone; what is left is the mark of the upload that just finished
    expect(readdirSync(staging)).toEqual([expect.stringMatching(/^[0-9a-f]{64}\.done$/)]);
    await t.call('POST', `service/${id}/files/delete/`, { path: 'fresh.txt' }, { cookie });
    const full = await put({ path: '', name: 'again.bin', size: content.length, offset: 0 }, content.subarray(0, 10));
    expect(full.status).toBe(507);
    expect(full.body.system.errors).toEqual(['No queda espacio web suficiente en el plan para este archivo']);

    // Every chunk is checked, against the home as it is now and the size the first one announced.
    const small = { path: '', name: 'grows.bin', size: 1_000_000 };
    expect((await put({ ...small, offset: 0 }, Buffer.alloc(1000))).body.data).toEqual({ received: 1000, done: false });
    const bigger = await put({ ...small, size: 2_000_000, offset: 1000 }, Buffer.alloc(1000));
    expect(bigger.status).toBe(409);
    // Meanwhile the home filled up (over FTP, say): the next chunk is refused, nothing lands.
    expect((await put({ ...small, offset: 0 }, Buffer.alloc(1000))).body.data).toEqual({ received: 1000, done: false });
    const filler = path.join(home, 'filler.bin');
    writeFileSync(filler, Buffer.alloc(4 * 1024 * 1024));
    asCustomer(filler);
    const refused = await put({ ...small, offset: 1000 }, Buffer.alloc(999_000));
    expect(refused.status).toBe(507);
    expect(existsSync(path.join(home, 'grows.bin'))).toBe(false);
    rmSync(filler);
  });

  it('downloads a file as it is', async () => {
    writeFileSync(path.join(home, 'site', 'hello.txt'), 'hola, mundo\n');
    asCustomer(path.join(home, 'site', 'hello.txt'));
    const response = await t.app.inject({
      method: 'GET',
      url: `${t.config.basePath}service/${id}/files/download/?path=site/hello.txt`,
      headers: { [CSRF_HEADER]: '1', cookie: readerCookie },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toContain('hello.txt');
    expect(response.body).toBe('hola, mundo\n');
  });

  it('edits a text file (its mode kept), refuses binary and oversized ones, renames and deletes', async () => {
    const file = path.join(home, 'site', 'index.php');
    writeFileSync(file, '<?php echo 1;\n', { mode: 0o640 });
    asCustomer(file);
    const read = await t.call('GET', `service/${id}/files/read/`, { path: 'site/index.php' }, { cookie });
    expect(read.body.data).toEqual({ path: 'site/index.php', content: '<?php echo 1;\n' });
    const saved = await t.call(
      'POST',
      `service/${id}/files/save/`,
      { path: 'site/index.php', content: '<?php echo "¡hola!";\n' },
      { cookie },
    );
    expect(saved.body.system.info).toEqual(['Archivo guardado']);
    expect(readFileSync(file, 'utf8')).toBe('<?php echo "¡hola!";\n');
    expect(lstatSync(file).mode & 0o777).toBe(0o640);
    const binary = await t.call('GET', `service/${id}/files/read/`, { path: 'site/big.bin' }, { cookie });
    expect(binary.body.system.errors[0]).toMatch(/demasiado grande|no es texto/);

    const renamed = await t.call(
      'POST',
      `service/${id}/files/rename/`,
      { path: 'site/index.php', name: 'inicio.php' },
      { cookie },
    );
    expect(renamed.body.system.errors).toEqual([]);
    expect(existsSync(path.join(home, 'site', 'inicio.php'))).toBe(true);
    const clash = await t.call(
      'POST',
      `service/${id}/files/rename/`,
      { path: 'site/inicio.php', name: 'img' },
      { cookie },
    );
    expect(clash.body.system.inputs).toEqual(['name']);
    for (const name of ['..', 'a/b', 'x\ny']) {
      const bad = await t.call('POST', `service/${id}/files/rename/`, { path: 'site/inicio.php', name }, { cookie });
      expect(bad.body.system.inputs, name).toEqual(['name']);
    }
    await t.call('POST', `service/${id}/files/delete/`, { path: 'site/img' }, { cookie });
    expect(await names({ path: 'site' })).toEqual([
      'file:big.bin',
      'file:empty.txt',
      'file:hello.txt',
      'file:inicio.php',
    ]);
    const rootGone = await t.call('POST', `service/${id}/files/delete/`, { path: '' }, { cookie });
    expect(rootGone.body.system.valid).toBe(false);
    expect(existsSync(home)).toBe(true);
  });

  it('copies and moves (never into itself, never over a name), and sets permission bits without special ones', async () => {
    const call = (url: string, params: Record<string, string>) =>
      t.call('POST', `service/${id}/files/${url}/`, params, { cookie });
    await call('mkdir', { path: '', name: 'copies' });
    expect((await call('copy', { path: 'site/hello.txt', to: 'copies' })).body.system.info).toEqual(['Copiado']);
    expect(readFileSync(path.join(home, 'copies', 'hello.txt'), 'utf8')).toBe('hola, mundo\n');
    expect((await call('copy', { path: 'site/hello.txt', to: 'copies' })).body.system.inputs).toEqual(['to']);
    expect((await call('copy', { path: 'copies', to: 'copies' })).body.system.inputs).toEqual(['to']);
    await call('copy', { path: 'copies', to: 'site' });
    expect(existsSync(path.join(home, 'site', 'copies', 'hello.txt'))).toBe(true);
    if (process.getuid?.() === 0)
      expect(lstatSync(path.join(home, 'site', 'copies', 'hello.txt')).uid).toBe(HOSTING_UID);
    expect((await call('move', { path: 'site/copies', to: '' })).body.system.inputs).toEqual(['to']);
    expect((await call('move', { path: 'copies/hello.txt', to: 'site/copies' })).body.system.inputs).toEqual(['to']);
    await call('delete', { path: 'site/copies/hello.txt' });
    expect((await call('move', { path: 'copies/hello.txt', to: 'site/copies' })).body.system.info).toEqual(['Movido']);
    expect(existsSync(path.join(home, 'copies', 'hello.txt'))).toBe(false);

    expect((await call('chmod', { path: 'site/hello.txt', mode: '600' })).body.system.errors).toEqual([]);
    expect(lstatSync(path.join(home, 'site', 'hello.txt')).mode & 0o7777).toBe(0o600);
    await call('chmod', { path: 'site/hello.txt', mode: '0644' });
    for (const mode of ['4755', '1777', '999', 'rwx', '']) {
      expect((await call('chmod', { path: 'site/hello.txt', mode })).body.system.inputs, mode).toEqual(['mode']);
    }
    expect(lstatSync(path.join(home, 'site', 'hello.txt')).mode & 0o7777).toBe(0o644);
    await call('delete', { path: 'copies' });
    await call('delete', { path: 'site/copies' });
  });

  it('extracts a .zip and a .tar.gz into a new folder beside them, and refuses archives that would escape', async () => {
    /** A zip of these entries; `rename` swaps bytes of the names afterwards (yazl refuses `..`). */
    const zip = async (
      entries: { name: string; content?: string; mode?: number }[],
      file: string,
      rename?: [string, string],
    ) => {
      const archive = new ZipFile();
      for (const entry of entries) {
        archive.addBuffer(Buffer.from(entry.content ?? ''), entry.name, entry.mode ? { mode: entry.mode } : {});
      }
      archive.end();
      const chunks: Buffer[] = [];
      for await (const chunk of archive.outputStream) chunks.push(chunk as Buffer);
      let bytes = Buffer.concat(chunks);
      // the names are in the local header and the central directory; a CRC covers the data only
      if (rename) bytes = Buffer.from(bytes.toString('latin1').replaceAll(rename[0], rename[1]), 'latin1');
      writeFileSync(path.join(home, file), bytes);
      asCustomer(path.join(home, file));
    };
    await zip(
      [
        { name: 'web/index.html', content: '<h1>hola</h1>' },
        { name: 'web/css/site.css', content: 'body{}' },
      ],
      'site.zip',
    );
    const done = await t.call('POST', `service/${id}/files/extract/`, { path: 'site.zip' }, { cookie });
    expect(done.body.data).toEqual({ path: 'site' + ' (2)' });
    expect(readFileSync(path.join(home, 'site (2)', 'web', 'css', 'site.css'), 'utf8')).toBe('body{}');
    const listed = (await list()).body.data.entries.find((entry) => entry.name === 'site.zip');
    expect(listed?.extractable).toBe(true);

    execFileSync('tar', ['czf', path.join(home, 'pack.tar.gz'), '-C', path.join(home, 'site (2)'), 'web']);
    const tarDone = await t.call('POST', `service/${id}/files/extract/`, { path: 'pack.tar.gz' }, { cookie });
    expect(tarDone.body.data).toEqual({ path: 'pack' });
    expect(readFileSync(path.join(home, 'pack', 'web', 'index.html'), 'utf8')).toBe('<h1>hola</h1>');

    await zip(
      [
        { name: 'ok.txt', content: 'x' },
        { name: 'AA/AA/evil.txt', content: 'escaped' },
      ],
      'slip.zip',
      ['AA/AA/', '../../'],
    );
    await zip([{ name: 'link', content: '/etc/passwd', mode: 0o120777 }], 'link.zip');
    for (const file of ['slip.zip', 'link.zip']) {
      const refused = await t.call('POST', `service/${id}/files/extract/`, { path: file }, { cookie });
      expect(refused.body.system.errors[0], file).toMatch(/^El archivo comprimido no se puede descomprimir/);
      expect(existsSync(path.join(home, file.replace('.zip', ''))), file).toBe(false);
    }
    expect(existsSync(path.join(root, 'evil.txt'))).toBe(false);
    expect(existsSync(path.join(home, 'evil.txt'))).toBe(false);
    const notArchive = await t.call('POST', `service/${id}/files/extract/`, { path: 'site/hello.txt' }, { cookie });
    expect(notArchive.body.system.valid).toBe(false);
    for (const file of ['site.zip', 'pack.tar.gz', 'slip.zip', 'link.zip', 'site (2)', 'pack'])
      await t.call('POST', `service/${id}/files/delete/`, { path: file }, { cookie });
  });

  it('downloads a folder as a .zip by a plain link (links left out), and a file too', async () => {
    symlinkSync('/etc/passwd', path.join(home, 'site', 'passwd-link'));
    asCustomer(path.join(home, 'site', 'passwd-link'));
    // a browser link carries no CSRF header: the downloads need only the session
    const response = await t.app.inject({
      method: 'GET',
      url: `${t.config.basePath}service/${id}/files/zip/?path=site`,
      headers: { cookie: readerCookie },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toContain('site.zip');
    const names = await new Promise<string[]>((resolve, reject) => {
      yauzl.fromBuffer(response.rawPayload, { lazyEntries: false }, (error, archive) => {
        if (error) return reject(error);
        const found: string[] = [];
        archive.on('entry', (entry: yauzl.Entry) => found.push(entry.fileName));
        archive.on('end', () => resolve(found.sort()));
      });
    });
    expect(names).toContain('site/hello.txt');
    expect(names).toContain('site/big.bin');
    expect(names.some((name) => name.includes('passwd-link'))).toBe(false);
    const file = await t.app.inject({
      method: 'GET',
      url: `${t.config.basePath}service/${id}/files/download/?path=site/hello.txt`,
      headers: { cookie: readerCookie },
    });
    expect(file.body).toBe('hola, mundo\n');
    const anonymous = await t.app.inject({
      method: 'GET',
      url: `${t.config.basePath}service/${id}/files/zip/?path=site`,
    });
    expect(anonymous.statusCode).not.toBe(200);
    await t.call('POST', `service/${id}/files/delete/`, { path: 'site/passwd-link' }, { cookie });
  });

  it('refuses .., absolute paths and links leading out, and deletes a link without touching its target', async () => {
    const outside = mkdtempSync(path.join(tmpdir(), 'p247-files-outside-'));
    writeFileSync(path.join(outside, 'secret.txt'), 'not yours');
    // as an FTP user would plant them: one to a folder outside, one to a file outside
    symlinkSync(outside, path.join(home, 'escape'));
    symlinkSync(path.join(outside, 'secret.txt'), path.join(home, 'site', 'secret-link.txt'));
    asCustomer(path.join(home, 'escape'));
    asCustomer(path.join(home, 'site', 'secret-link.txt'));
    for (const bad of ['../', '..', 'site/../..', '/etc', 'site//img', 'site/./x']) {
      const answer = await list({ path: bad });
      expect(answer.body.system.valid, bad).toBe(false);
    }
    const through = await list({ path: 'escape' });
    expect(through.body.system.errors).toEqual(['La ruta lleva fuera de la carpeta permitida']);
    const readThrough = await t.call('GET', `service/${id}/files/read/`, { path: 'escape/secret.txt' }, { cookie });
    expect(readThrough.body.system.valid).toBe(false);
    const readLink = await t.call('GET', `service/${id}/files/read/`, { path: 'site/secret-link.txt' }, { cookie });
    expect(readLink.body.system.valid).toBe(false);
    const writeLink = await t.call(
      'POST',
      `service/${id}/files/save/`,
      { path: 'site/secret-link.txt', content: 'overwritten' },
      { cookie },
    );
    expect(writeLink.body.system.valid).toBe(false);
    const uploadThrough = await put({ path: 'escape', name: 'x.txt', size: 1, offset: 0 }, Buffer.from('x'));
    expect(uploadThrough.body.system.valid).toBe(false);
    const download = await t.app.inject({
      method: 'GET',
      url: `${t.config.basePath}service/${id}/files/download/?path=site/secret-link.txt`,
      headers: { [CSRF_HEADER]: '1', cookie },
    });
    expect(download.body).not.toContain('not yours');
    // a link that stays inside the root is followed
    symlinkSync('site', path.join(home, 'www'));
    asCustomer(path.join(home, 'www'));
    expect((await names({ path: 'www' })).length).toBeGreaterThan(0);
    await t.call('POST', `service/${id}/files/delete/`, { path: 'www' }, { cookie });
    expect(existsSync(path.join(home, 'site'))).toBe(true);
    expect((await names()).sort()).toEqual(['folder:site', 'link:escape']);
    await t.call('POST', `service/${id}/files/delete/`, { path: 'escape' }, { cookie });
    await t.call('POST', `service/${id}/files/delete/`, { path: 'site/secret-link.txt' }, { cookie });
    expect(readFileSync(path.join(outside, 'secret.txt'), 'utf8')).toBe('not yours');
    expect(existsSync(path.join(home, 'escape'))).toBe(false);
  });

  it('lets a reader browse and download but change nothing, and hides everything without the FTP right', async () => {
    const reading = await list({ path: 'site' }, readerCookie);
    expect(reading.body.data.writable).toBe(false);
    const refused = await t.call('POST', `service/${id}/files/mkdir/`, { name: 'nope' }, { cookie: readerCookie });
    expect(refused.response.statusCode).toBe(403);
    const upload = await put({ path: '', name: 'r.txt', size: 1, offset: 0 }, Buffer.from('r'), readerCookie);
    expect(upload.status).toBe(403);
    expect((await list({}, noneCookie)).response.statusCode).toBe(404);
  });

  it('is the WebFTP of an FTP account when the provider has none: rooted at the account’s folder', async () => {
    const created = await t.call<{ ftp: FtpAccount }>(
      'POST',
      `service/${id}/ftp/create/`,
      { ftpUser: 'web', password: 'ftp password 1', folder: 'site' },
      { cookie },
    );
    const fid = created.body.data.ftp.id;
    const form = await t.call<SignonForm>(
      'POST',
      `service/${id}/ftp/${fid}/login/`,
      { initialDirectory: 'img/' },
      // signing on to WebFTP takes the FTP right's action level (the read level sees no way in)
      { cookie },
    );
    expect(form.body.data).toEqual({
      action: filesPagePath(id),
      method: 'get',
      fields: { ftp: String(fid), path: 'img' },
    });
    const main = await t.call<{ ftp: { webftp: string } }>('GET', `service/${id}/ftp/main/`, {}, { cookie });
    expect(main.body.data.ftp.webftp).toBe(filesPagePath(id));
    mkdirSync(path.join(home, 'site', 'img'), { recursive: true });
    const rooted = await list({ ftp: String(fid) });
    expect(rooted.body.data).toMatchObject({ account: 'web@ficheros.test', rootFolder: 'site', path: '' });
    expect(rooted.body.data.entries.map((entry) => entry.name)).toContain('hello.txt');
    const above = await list({ ftp: String(fid), path: '..' });
    expect(above.body.system.valid).toBe(false);
    // another service's account id does not open anything here
    expect((await list({ ftp: '999999' })).response.statusCode).toBe(404);
  });
});
