import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { type InstallerDriver, PayloadError } from '../../src/drivers/installer/installer.driver.ts';
import { AppCatalogue } from '../../src/modules/installer/app-catalogue.ts';

/**
 * The catalogue's rules over an in-memory installer driver: what it checks in each package is
 * decided by the module, and only the files come from the driver.
 */

const APPS = '/apps';

function manifest(id: number, softName: string, extra: object = {}) {
  return JSON.stringify({
    id,
    softName,
    fullName: softName,
    version: '1.0',
    description: { es: 'prueba', en: 'test' },
    category: 'others',
    type: 'php',
    payload: 'files',
    logo: 'logo.svg',
    configFiles: [{ template: 'settings.template', target: 'settings.php', syntax: 'php' }],
    sections: [{ title: 'Main', inputs: [{ name: 'title', label: 'Title', type: 'text' }] }],
    ...extra,
  });
}

/** Catalogue files by absolute path; a payload is a size, or a PayloadError message. */
function memoryDriver(files: Record<string, string>, payloads: Record<string, number | string>): InstallerDriver {
  const missing = (file: string) => Object.assign(new Error(`ENOENT: ${file}`), { code: 'ENOENT' });
  const unused = () => Promise.reject(new Error('the catalogue never writes'));
  return {
    async packageFolders(appsDir) {
      const names = new Set(Object.keys(files).map((file) => file.slice(appsDir.length + 1).split('/')[0] as string));
      return [...names].sort().map((name) => `${appsDir}/${name}`);
    },
    async readText(file) {
      if (files[file] === undefined) throw missing(file);
      return files[file];
    },
    async ensureExists(file) {
      if (files[file] === undefined) throw missing(file);
    },
    async payloadSize(payload, maxBytes) {
      const size = payloads[payload];
      if (size === undefined) throw missing(payload);
      if (typeof size === 'string') throw new PayloadError(size);
      if (size > maxBytes) throw new PayloadError(`larger than ${maxBytes} bytes`);
      return size;
    },
    openLogo: (file) => Readable.from([files[file] ?? '']),
    checkTarget: unused,
    install: unused,
  };
}

/** A valid package under /apps/<name>, with its files; `overrides` replaces or removes (undefined) any of them. */
function pack(name: string, id: number, overrides: Record<string, string | undefined> = {}) {
  const files: Record<string, string | undefined> = {
    'manifest.json': manifest(id, name),
    'logo.svg': '<svg/>',
    'settings.template': "<?php const TITLE = '{{ cfg.title }}';",
    ...overrides,
  };
  return Object.fromEntries(
    Object.entries(files)
      .filter((entry): entry is [string, string] => entry[1] !== undefined)
      .map(([file, text]) => [`${APPS}/${name}/${file}`, text]),
  );
}

describe('application catalogue', () => {
  it('loads the valid packages, featured first, and reports each broken one with its reason', async () => {
    const problems: [string, string][] = [];
    const driver = memoryDriver(
      {
        ...pack('zeta', 1),
        ...pack('alpha', 2),
        ...pack('featured', 3, { 'manifest.json': manifest(3, 'featured', { featured: true }) }),
        ...pack('nologo', 4, { 'logo.svg': undefined }),
        ...pack('badplaceholder', 5, { 'settings.template': '{{ db.password }}' }),
        ...pack('sameid', 1),
        ...pack('unsafe', 6),
        ...pack('huge', 7),
      },
      {
        '/apps/zeta/files': 10,
        '/apps/alpha/files': 20,
        '/apps/featured/files': 30,
        '/apps/nologo/files': 1,
        '/apps/badplaceholder/files': 1,
        '/apps/sameid/files': 1,
        '/apps/unsafe/files': 'unsafe entry name: "../x"',
        '/apps/huge/files': 1001,
      },
    );
    const catalogue = new AppCatalogue(driver, APPS, 1000, (folder, problem) => problems.push([folder, problem]));

    const apps = await catalogue.list('en');
    expect(apps.map((app) => [app.softName, app.size, app.description])).toEqual([
      ['featured', 30, 'test'],
      ['alpha', 20, 'test'],
      ['sameid', 1, 'test'],
    ]);
    expect(problems).toEqual([
      ['/apps/badplaceholder', 'settings.template: unknown placeholder db.password'],
      ['/apps/huge', 'larger than 1000 bytes'],
      ['/apps/nologo', 'ENOENT: /apps/nologo/logo.svg'],
      ['/apps/unsafe', 'unsafe entry name: "../x"'],
      // Folders load in name order, so the first of two packages with one id keeps it.
      ['/apps/zeta', 'id 1 is taken by another package'],
    ]);
  });

  it('reads the catalogue once, and serves a logo with its type through the driver', async () => {
    let reads = 0;
    const driver = memoryDriver(pack('alpha', 2), { '/apps/alpha/files': 5 });
    const counting: InstallerDriver = {
      ...driver,
      packageFolders: (appsDir) => {
        reads += 1;
        return driver.packageFolders(appsDir);
      },
    };
    const catalogue = new AppCatalogue(counting, APPS, 1000, () => undefined);
    await Promise.all([catalogue.list('es'), catalogue.find(2), catalogue.find(9)]);
    const logo = await catalogue.logo(2);
    expect(reads).toBe(1);
    expect(logo?.type).toBe('image/svg+xml');
    expect(await logo?.stream.toArray()).toEqual(['<svg/>']);
    expect(await catalogue.logo(9)).toBeUndefined();
  });

  it('reports an unreadable catalogue folder and lists nothing', async () => {
    const problems: string[] = [];
    const driver: InstallerDriver = {
      ...memoryDriver({}, {}),
      packageFolders: () => Promise.reject(new Error('EACCES: /apps')),
    };
    const catalogue = new AppCatalogue(driver, APPS, 1000, (folder, problem) => problems.push(`${folder} ${problem}`));
    expect(await catalogue.list('es')).toEqual([]);
    expect(problems).toEqual(['/apps EACCES: /apps']);
  });
});
