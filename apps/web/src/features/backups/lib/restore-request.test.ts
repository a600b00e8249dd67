// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  initialRestoreValues,
  type RestoreValues,
  restoreKinds,
  restoreRequest,
  validateRestore,
} from './restore-request';

const holds = {
  files: true,
  mailboxes: ['info', 'sales'],
  mailFolders: { info: ['.Sent'] },
  databases: ['shop'],
  dns: true,
};
const snapshot = 'a1b2c3d4';

function values(changes: Partial<RestoreValues>): RestoreValues {
  return { ...initialRestoreValues(holds), ...changes };
}

describe('restore request', () => {
  it('offers only the parts a snapshot holds, files first', () => {
    expect(restoreKinds(holds)).toEqual(['service', 'files', 'mailbox', 'database', 'dns']);
    expect(restoreKinds({ files: false, mailboxes: [], databases: ['shop'], dns: false, mailFolders: {} })).toEqual([
      'service',
      'database',
    ]);
    expect(initialRestoreValues(holds).what).toBe('files');
    expect(
      initialRestoreValues({ files: false, mailboxes: ['info'], databases: [], dns: false, mailFolders: {} }),
    ).toMatchObject({
      what: 'mailbox',
      mailbox: 'info',
    });
  });

  it('sends files over the current ones only once confirmed, with the path as the API wants it', () => {
    expect(validateRestore(values({ path: '/site/' }))).toEqual({ overwrite: 'backups.restore.confirm_required' });
    expect(restoreRequest(snapshot, values({ path: ' /site/ ', overwrite: true }))).toEqual({
      snapshot,
      what: 'files',
      path: 'site',
      toFolder: '',
      mailbox: '',
      mailFolder: '',
      database: '',
      newDatabase: false,
      overwrite: true,
    });
  });

  it('puts files into a new folder without a confirmation, and never with overwrite', () => {
    const aside = values({ placement: 'new', toFolder: 'copy', overwrite: true });
    expect(validateRestore(aside)).toEqual({});
    expect(restoreRequest(snapshot, aside)).toMatchObject({ path: '', toFolder: 'copy', overwrite: false });
    expect(validateRestore(values({ placement: 'new', toFolder: ' / ' }))).toEqual({
      toFolder: 'validation.required',
    });
    expect(validateRestore(values({ placement: 'new', toFolder: 'a/../b', path: 'x//y' }))).toEqual({
      path: 'backups.restore.path_invalid',
      toFolder: 'backups.restore.path_invalid',
    });
  });

  it('sends only the chosen part: a mailbox, a database or the zone, each replacing the current one', () => {
    const mailbox = values({ what: 'mailbox', mailbox: 'sales', path: 'ignored', overwrite: true });
    expect(restoreRequest(snapshot, mailbox)).toEqual({
      snapshot,
      what: 'mailbox',
      path: '',
      toFolder: '',
      mailbox: 'sales',
      mailFolder: '',
      database: '',
      newDatabase: false,
      overwrite: true,
    });
    // one folder of it; a folder picked before switching to a database is not sent
    const sent = values({ what: 'mailbox', mailbox: 'info', mailFolder: '.Sent', overwrite: true });
    expect(restoreRequest(snapshot, sent)).toMatchObject({ mailbox: 'info', mailFolder: '.Sent' });
    expect(restoreRequest(snapshot, { ...sent, what: 'database', database: 'shop' })).toMatchObject({ mailFolder: '' });
    expect(restoreRequest(snapshot, values({ what: 'database', overwrite: true }))).toMatchObject({
      database: 'shop',
      mailbox: '',
    });
    const newDatabase = values({ what: 'database', placement: 'new' });
    expect(validateRestore(newDatabase)).toEqual({});
    expect(restoreRequest(snapshot, newDatabase)).toMatchObject({
      database: 'shop',
      newDatabase: true,
      overwrite: false,
    });
    expect(validateRestore(values({ what: 'dns' }))).toEqual({ overwrite: 'backups.restore.confirm_required' });
    expect(validateRestore(values({ what: 'database', database: '', overwrite: true }))).toEqual({
      database: 'validation.required',
    });
  });
});
