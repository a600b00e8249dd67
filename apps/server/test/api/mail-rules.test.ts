import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Mailbox, MailboxRules } from '@panel247/contract/mail';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailDriver } from '../../src/drivers/mail/create-mail-driver.ts';
import { syncMail } from '../../src/modules/mail/mail-sync.ts';
import { type BuiltAccount, buildAccount } from '../support/factories.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

/** A form's fields as the test client posts them (booleans and numbers as their text). */
function formOf(params: Record<string, unknown>): Record<string, string | string[]> {
  return Object.fromEntries(
    Object.entries(params).map(([key, value]) => [key, Array.isArray(value) ? value.map(String) : String(value)]),
  );
}

describe.each(DATABASE_KINDS)('mailbox autoresponder, forwarding and quota API on %s', (kind) => {
  let t: TestApp;
  let account: BuiltAccount;
  let cookie: string;
  let id: number;
  let box: Mailbox;
  const domain = `ajustes-${kind}.test`;

  beforeAll(async () => {
    // a mail root of its own: the scripts written here must not meet another run's
    const root = mkdtempSync(path.join(tmpdir(), 'p247-mailrules-'));
    t = await buildTestApp(kind, { config: { 'mail.maxQuotaMb': 2048, 'mail.root': root } });
    account = await buildAccount(t.database.db, { domainName: domain, resources: { [domain]: { hasMail: true } } });
    id = account.resources[domain] as number;
    cookie = await t.login(account.domainName, account.username, account.password);
    box = (
      await t.call<{ correo: Mailbox }>(
        'POST',
        `service/${id}/correo/create/`,
        { name: 'info', password: 'a good password' },
        { cookie },
      )
    ).body.data.correo;
  });
  afterAll(() => t.close());

  const home = () => path.join(t.config.mail.root as string, domain, 'info');
  const save = (params: Record<string, unknown>) =>
    t.call<{ rules: MailboxRules }>('POST', `service/${id}/correo/${box.id}/rules/save/`, formOf(params), {
      cookie,
    });
  const fieldsOf = (body: { system: { inputs?: string[] } }) => body.system.inputs ?? [];

  it('starts with nothing set and the defaults', async () => {
    expect(box).toMatchObject({ autoreply: false, forward: [] });
    const { body } = await t.call<{ rules: MailboxRules }>(
      'GET',
      `service/${id}/correo/${box.id}/rules/`,
      {},
      { cookie },
    );
    expect(body.data.rules).toEqual({
      autoreply: { enabled: false, subject: '', body: '', start: '', end: '', days: 1 },
      forward: { targets: [], keepCopy: true },
      foreignScript: null,
    });
  });

  it('writes the settings as the mailbox’s active Sieve script, escaped, and lists them', async () => {
    const saved = await save({
      autoreply: 'true',
      subject: 'Fuera "de" la oficina',
      body: 'Vuelvo el lunes\\n\nGracias',
      start: '2026-12-01',
      end: '2026-12-24',
      days: '3',
      forward: 'Uno@Example.com, dos@example.com',
      keepCopy: '1',
    });
    expect(saved.body.system.errors).toEqual([]);
    expect(saved.body.system.info).toEqual(['Respuesta automática y reenvío guardados']);
    expect(saved.body.data.rules).toMatchObject({
      autoreply: { enabled: true, subject: 'Fuera "de" la oficina', start: '2026-12-01', end: '2026-12-24', days: 3 },
      forward: { targets: ['uno@example.com', 'dos@example.com'], keepCopy: true },
    });
    expect(readlinkSync(path.join(home(), '.dovecot.sieve'))).toBe('sieve/panel247.sieve');
    const script = readFileSync(path.join(home(), 'sieve', 'panel247.sieve'), 'utf8');
    expect(script).toContain('require ["vacation", "date", "relational", "copy"];');
    expect(script).toContain(
      'if allof(currentdate :value "ge" "date" "2026-12-01", currentdate :value "le" "date" "2026-12-24") {',
    );
    expect(script).toContain(
      'vacation :days 3 :subject "Fuera \\"de\\" la oficina" "Vuelvo el lunes\\\\n\r\nGracias";',
    );
    expect(script).toContain('redirect :copy "uno@example.com";\r\nredirect :copy "dos@example.com";');
    const list = await t.call<{ mail: { type: string; correo?: Mailbox }[] }>(
      'GET',
      `service/${id}/mail/list/`,
      {},
      { cookie },
    );
    expect(list.body.data.mail[0]?.correo).toMatchObject({
      autoreply: true,
      forward: ['uno@example.com', 'dos@example.com'],
    });
  });

  it('refuses bad values with a translated error per field, changing nothing', async () => {
    const before = readFileSync(path.join(home(), 'sieve', 'panel247.sieve'), 'utf8');
    const cases: [Record<string, unknown>, string[]][] = [
      [{ autoreply: true, subject: '', body: 'x' }, ['subject']],
      [{ autoreply: true, subject: 'x', body: ' ' }, ['body']],
      [{ autoreply: true, subject: 'a\r\nBcc: x@y.z', body: 'x' }, ['subject']],
      [{ autoreply: true, subject: 'x', body: 'x', start: '2026-02-30' }, ['start']],
      [{ autoreply: true, subject: 'x', body: 'x', start: '2026-12-10', end: '2026-12-01' }, ['end']],
      [{ autoreply: true, subject: 'x', body: 'x', days: 0 }, ['days']],
      [{ autoreply: true, subject: 'x', body: 'x', days: 31 }, ['days']],
      [{ forward: ['not an address'] }, ['forward']],
      [{ forward: [`info@${domain}`] }, ['forward']],
      [{ forward: Array.from({ length: 11 }, (_, i) => `f${i}@example.com`) }, ['forward']],
      [{ forward: ['x@example.com"; discard; "'] }, ['forward']],
    ];
    for (const [params, fields] of cases) {
      const { response, body } = await save(params);
      expect({ params, status: response.statusCode, fields: fieldsOf(body) }).toEqual({
        params,
        status: 400,
        fields,
      });
    }
    const typed = await save({ autoreply: true, subject: 'x', body: 'x', end: 'mañana' });
    expect(typed.body.system.errors).toEqual(['Fecha no válida (AAAA-MM-DD)']);
    expect(readFileSync(path.join(home(), 'sieve', 'panel247.sieve'), 'utf8')).toBe(before);
  });

  it('keeps the texts of a switched-off autoresponder, and removes its script when nothing is on', async () => {
    const off = await save({ autoreply: false, subject: 'Guardado', body: '' });
    expect(off.body.system.errors).toEqual([]);
    expect(off.body.data.rules.autoreply).toMatchObject({ enabled: false, subject: 'Guardado' });
    expect(existsSync(path.join(home(), '.dovecot.sieve'))).toBe(false);
    expect(existsSync(path.join(home(), 'sieve', 'panel247.sieve'))).toBe(false);
  });

  it('keeps a hand-written ~/.dovecot.sieve: refused at first, moved aside when the user agrees', async () => {
    mkdirSync(home(), { recursive: true });
    writeFileSync(path.join(home(), '.dovecot.sieve'), 'keep;\n');
    const { body } = await t.call<{ rules: MailboxRules }>(
      'GET',
      `service/${id}/correo/${box.id}/rules/`,
      {},
      { cookie },
    );
    expect(body.data.rules.foreignScript).toBe('.dovecot.sieve');
    const refused = await save({ forward: ['uno@example.com'] });
    expect(refused.response.statusCode).toBe(409);
    expect(readFileSync(path.join(home(), '.dovecot.sieve'), 'utf8')).toBe('keep;\n');
    const agreed = await save({ forward: ['uno@example.com'], replaceForeign: true });
    expect(agreed.body.system.errors).toEqual([]);
    expect(lstatSync(path.join(home(), '.dovecot.sieve')).isSymbolicLink()).toBe(true);
    const kept = readdirSync(path.join(home(), 'sieve')).filter((name) => name.startsWith('kept-'));
    expect(kept).toHaveLength(1);
    expect(readFileSync(path.join(home(), 'sieve', kept[0] as string), 'utf8')).toBe('keep;\n');
  });

  it('changes the quota within the plan, and refuses it outside', async () => {
    const changed = await t.call<{ correo: Mailbox }>(
      'POST',
      `service/${id}/correo/${box.id}/quota/`,
      { quota: '2048' },
      { cookie },
    );
    expect(changed.body.system.info).toEqual(['Cuota cambiada']);
    expect(changed.body.data.correo.quota).toBe(2048 * 1024 * 1024);
    for (const quota of ['0', '2049', '', 'x', '1.5']) {
      const { response, body } = await t.call('POST', `service/${id}/correo/${box.id}/quota/`, { quota }, { cookie });
      expect({ quota, status: response.statusCode, fields: fieldsOf(body) }).toEqual({
        quota,
        status: 400,
        fields: ['quota'],
      });
    }
  });

  it('`mail sync` writes back a Sieve script lost or edited by hand, and removes a leftover one', async () => {
    const driver = createMailDriver(t.config);
    const sync = (dryRun: boolean) => syncMail(t.database.db, driver, { dryRun, now: 1_800_000_000 }, '');
    const script = path.join(home(), 'sieve', 'panel247.sieve');
    expect((await save({ forward: ['uno@example.com'], keepCopy: true })).body.system.errors).toEqual([]);
    const written = readFileSync(script, 'utf8');
    expect((await sync(true)).filters).toEqual([]);

    rmSync(script);
    expect((await sync(true)).filters).toEqual([{ folder: `${domain}/info`, problem: 'missing', repaired: false }]);
    expect(existsSync(script)).toBe(false);
    expect((await sync(false)).filters).toEqual([{ folder: `${domain}/info`, problem: 'missing', repaired: true }]);
    expect(readFileSync(script, 'utf8')).toBe(written);

    writeFileSync(script, 'discard;\n');
    expect((await sync(false)).filters).toEqual([{ folder: `${domain}/info`, problem: 'changed', repaired: true }]);
    expect(readFileSync(script, 'utf8')).toBe(written);

    // rules switched off behind the panel's back (a database restored from before them)
    await t.database.db.deleteFrom('mailbox_rules').where('mailbox_id', '=', box.id).execute();
    expect((await sync(false)).filters).toEqual([{ folder: `${domain}/info`, problem: 'extra', repaired: true }]);
    expect(existsSync(script)).toBe(false);
    expect(existsSync(path.join(home(), '.dovecot.sieve'))).toBe(false);
    expect((await sync(true)).filters).toEqual([]);
  });
});
