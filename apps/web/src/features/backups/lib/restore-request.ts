import type { BackupHolds } from '@panel247/contract/backups';
import { isFilePath } from '@panel247/contract/files';
import type { RestoreRequest } from '../api/restore-backup';

export type RestoreKind = RestoreRequest['what'];

/** The restore dialog's fields; named as the call's, so the server's field errors land on them. */
export interface RestoreValues {
  what: RestoreKind;
  /** A file or folder inside the home, '' being all of it. */
  path: string;
  /**
   * Files and databases: 'over' puts them back where they were; 'new' beside it, files into a new
   * folder (`toFolder`), a database into a new database of the service.
   */
  placement: 'over' | 'new';
  toFolder: string;
  mailbox: string;
  /** One Maildir++ folder of the mailbox (`.Sent`); '' for all of it. */
  mailFolder: string;
  database: string;
  /** The user's confirmation that what exists now will be replaced. */
  overwrite: boolean;
}

/** The parts of a snapshot that can be restored, in the dialog's order: the whole service first. */
export function restoreKinds(holds: BackupHolds): RestoreKind[] {
  const kinds: RestoreKind[] = ['service'];
  if (holds.files) kinds.push('files');
  if (holds.mailboxes.length > 0) kinds.push('mailbox');
  if (holds.databases.length > 0) kinds.push('database');
  if (holds.dns) kinds.push('dns');
  return kinds;
}

export function initialRestoreValues(holds: BackupHolds): RestoreValues {
  return {
    // one part first: the whole service, which replaces everything, is never the default
    what: restoreKinds(holds).find((kind) => kind !== 'service') ?? 'service',
    path: '',
    placement: 'over',
    toFolder: '',
    mailbox: holds.mailboxes[0] ?? '',
    mailFolder: '',
    database: holds.databases[0] ?? '',
    overwrite: false,
  };
}

/** A path as typed ("/site/", " web ") as the API wants it: relative to the home, no end slashes. */
function homePath(value: string): string {
  return value.trim().replace(/^\/+|\/+$/g, '');
}

/** Whether a restore of this kind may go beside the current data instead of over it. */
export function hasPlacement(what: RestoreKind): boolean {
  return what === 'files' || what === 'database';
}

/** Whether the restore replaces what exists now: everything but what goes beside it. */
export function replacesCurrent(values: RestoreValues): boolean {
  return !(hasPlacement(values.what) && values.placement === 'new');
}

/** Field → i18n key of what is wrong before anything is sent; empty when the request may go. */
export function validateRestore(values: RestoreValues): Partial<Record<keyof RestoreValues, string>> {
  const errors: Partial<Record<keyof RestoreValues, string>> = {};
  if (values.what === 'files') {
    if (!isFilePath(homePath(values.path))) errors.path = 'backups.restore.path_invalid';
    if (values.placement === 'new') {
      const folder = homePath(values.toFolder);
      if (folder === '') errors.toFolder = 'validation.required';
      else if (!isFilePath(folder)) errors.toFolder = 'backups.restore.path_invalid';
    }
  }
  if (values.what === 'mailbox' && values.mailbox === '') errors.mailbox = 'validation.required';
  if (values.what === 'database' && values.database === '') errors.database = 'validation.required';
  if (replacesCurrent(values) && !values.overwrite) errors.overwrite = 'backups.restore.confirm_required';
  return errors;
}

/**
 * The restore call for the dialog's values: only the fields of the part chosen, and `overwrite`
 * only when it replaces current data (a confirmation left ticked before switching to "beside" must
 * not turn into a permission to overwrite).
 */
export function restoreRequest(snapshot: string, values: RestoreValues): RestoreRequest {
  const files = values.what === 'files';
  const beside = !replacesCurrent(values);
  return {
    snapshot,
    what: values.what,
    path: files ? homePath(values.path) : '',
    toFolder: files && beside ? homePath(values.toFolder) : '',
    mailbox: values.what === 'mailbox' ? values.mailbox : '',
    mailFolder: values.what === 'mailbox' ? values.mailFolder : '',
    database: values.what === 'database' ? values.database : '',
    newDatabase: values.what === 'database' && beside,
    overwrite: replacesCurrent(values) && values.overwrite,
  };
}
