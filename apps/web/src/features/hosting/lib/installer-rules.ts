import { isActionable } from '@panel247/contract/constants';
import type { HostedDatabase } from '@panel247/contract/databases';
import type { Subdomain } from '@panel247/contract/hosting';
import type { AppInput, HostingApplication } from '@panel247/contract/installer';
import type { PermissionSetData } from '@panel247/contract/permissions';
import type { Params } from '../../../lib/api-client';
import { folderLabel, folderToApi, serviceFolderError } from '../../../lib/service-folder';

/**
 * The application installer's rules (spec 2, sections 4, 5, 6 and 9), kept apart from the dialog
 * so they can be tested on their own. Errors are i18n keys.
 */

/**
 * The contract's `APP_CONFIG_PREFIX`, repeated: its module holds zod, which stays out of the
 * hosting chunk (a test keeps both equal).
 */
export const CONFIG_PREFIX = 'cfg_';

/** The catalogue's text filter waits this long after the last key (spec section 9). */
export const CATALOGUE_FILTER_DEBOUNCE_MS = 300;

/** The installer writes files (FTP), may create a database and touches a site: it needs the three actions. */
export const INSTALLER_RIGHTS = ['service_ftp', 'service_ddbb', 'service_subdomains'] as const;

export function installerAllowed(permissions: Partial<PermissionSetData['permissions']>): boolean {
  return INSTALLER_RIGHTS.every((key) => isActionable(permissions[key]));
}

const byText = (a: string, b: string) => a.localeCompare(b, undefined, { sensitivity: 'base' });

/** Featured applications first, then by name. */
export function sortApplications(apps: readonly HostingApplication[]): HostingApplication[] {
  return [...apps].sort((a, b) => Number(b.featured) - Number(a.featured) || byText(a.fullName, b.fullName));
}

/** The category filter ('' is every category) and a case-insensitive "contains" on the names and description. */
export function filterApplications(
  apps: readonly HostingApplication[],
  text: string,
  category: string,
): HostingApplication[] {
  const needle = text.trim().toLowerCase();
  return apps.filter(
    (app) =>
      (category === '' || app.category === category) &&
      (needle === '' ||
        [app.fullName, app.softName, app.description].some((value) => value.toLowerCase().includes(needle))),
  );
}

/** The categories the catalogue holds (an empty category would only ever filter to nothing). */
export function catalogueCategories(apps: readonly HostingApplication[]): HostingApplication['category'][] {
  return [...new Set(apps.map((app) => app.category))];
}

/** An application's size in MB (1024²) with exactly 2 decimals (spec section 9), in the language's format. */
export function formatAppSize(bytes: number, language: string): string {
  const megabytes = new Intl.NumberFormat(language, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(
    Math.max(0, bytes) / 1024 / 1024,
  );
  return `${megabytes} MB`;
}

/** What the database list allows (spec section 4). */
export interface DatabaseRules {
  /** No database yet: a new one is the only choice. */
  newForced: boolean;
  /** The plan's limit is reached: an existing one must be chosen. */
  newBlocked: boolean;
  /** Neither: no database exists and none can be created. */
  impossible: boolean;
  /** Preselected: the last database of the list (the server lists them by id, so the newest). */
  lastId: number | null;
}

export function databaseRules(list: { ddbb: readonly HostedDatabase[]; limit: number | null }): DatabaseRules {
  const count = list.ddbb.length;
  const full = list.limit !== null && count >= list.limit;
  return {
    newForced: count === 0 && !full,
    newBlocked: full,
    impossible: count === 0 && full,
    lastId: list.ddbb.at(-1)?.id ?? null,
  };
}

/** The user's choice (`null`: not touched) on top of the rules. */
export function chosenDatabase(
  rules: DatabaseRules,
  databases: readonly HostedDatabase[],
  choice: { newDatabase: boolean | null; databaseId: number | null },
): { newDatabase: boolean; databaseId: number | null } {
  const newDatabase = rules.newForced ? true : rules.newBlocked ? false : (choice.newDatabase ?? false);
  const picked = databases.some((database) => database.id === choice.databaseId) ? choice.databaseId : null;
  return { newDatabase, databaseId: picked ?? rules.lastId };
}

/** A path under the site's folder: '' or '/' is the folder itself; segments like the service folders. */
export function subpathError(value: string): string | null {
  return serviceFolderError(value.trim() === '' ? '/' : value, 'installer.invalid_subpath');
}

/** Where the files go, from the service home: the site's folder plus the subpath. */
export function installFolder(site: Pick<Subdomain, 'directorio'>, subpath: string): string {
  const base = folderToApi(site.directorio);
  const sub = folderToApi(subpath);
  return folderLabel([base, sub].filter((part) => part !== '').join('/'));
}

/** The config values by input name: strings, and booleans for the checkboxes. */
export type ConfigValues = Record<string, string | boolean>;

export function appInputs(app: HostingApplication): AppInput[] {
  return app.installConfig.flatMap((section) => section.inputs);
}

/** The inputs' initial values; a password is never prefilled. */
export function initialConfig(app: HostingApplication): ConfigValues {
  return Object.fromEntries(
    appInputs(app).map((input) => [
      input.name,
      input.type === 'checkbox' ? input.checked : input.password ? '' : input.value,
    ]),
  );
}

/** The field name of a config input in the install call (and in the server's field errors). */
export function configField(name: string): string {
  return `${CONFIG_PREFIX}${name}`;
}

/**
 * Required inputs must be filled (a required checkbox ticked); hidden ones are not the user's to
 * fill. Keyed by the call's field name.
 */
export function configErrors(app: HostingApplication, config: ConfigValues): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const input of appInputs(app)) {
    if (!input.isRequired || input.type === 'hidden') continue;
    const value = config[input.name];
    const missing = input.type === 'checkbox' ? value !== true : typeof value !== 'string' || value.trim() === '';
    if (missing) errors[configField(input.name)] = 'validation.required';
  }
  return errors;
}

/**
 * The install call (spec section 7): the site, the application, the database (0 for none), the
 * subpath without its end slashes, and the application's own fields as `cfg_<name>` — only the
 * fields it declares, and a checkbox only when ticked (value '1').
 */
export function installPayload(input: {
  siteId: number;
  app: HostingApplication;
  databaseId: number | null;
  subpath: string;
  config: ConfigValues;
}): Params {
  const payload: Params = {
    subdomainID: input.siteId,
    applicationID: input.app.id,
    mysqlID: input.app.isBBDDApplication ? (input.databaseId ?? 0) : 0,
    subpath: folderToApi(input.subpath),
  };
  for (const field of appInputs(input.app)) {
    const value = input.config[field.name];
    if (field.type === 'checkbox') {
      if (value === true) payload[configField(field.name)] = '1';
    } else {
      payload[configField(field.name)] = typeof value === 'string' ? value : field.value;
    }
  }
  return payload;
}

export type InstallerStep = 0 | 1 | 2 | 3;

/**
 * The step that shows a field of the install call, or null when no step shows it (the site when
 * the installer was opened from its row, a hidden input, an unknown name): such an error goes to
 * the error dialog instead.
 */
export function stepOfField(field: string, app: HostingApplication | null, firstStep: 0 | 1): InstallerStep | null {
  if (field === 'subdomainID') return firstStep === 0 ? 0 : null;
  if (field === 'applicationID') return 1;
  if (field === 'subpath' || field === 'mysqlID') return 2;
  if (field.startsWith(CONFIG_PREFIX) && app) {
    const name = field.slice(CONFIG_PREFIX.length);
    const input = appInputs(app).find((item) => item.name === name);
    return input && input.type !== 'hidden' ? 3 : null;
  }
  return null;
}

/** What step 2 knows of the databases once their list is loaded (null while it is not). */
export interface DatabaseStepState {
  rules: DatabaseRules;
  newDatabase: boolean;
  databaseId: number | null;
}

/** Whether a step may be left forward: its fields' errors, keyed by the install call's names. */
export function stepErrors(
  step: InstallerStep,
  context: {
    siteId: number | null;
    app: HostingApplication | null;
    subpath: string;
    database: DatabaseStepState | null;
    config: ConfigValues;
  },
): Record<string, string> {
  if (step === 0) return context.siteId === null ? { subdomainID: 'installer.pick_site' } : {};
  if (step === 1) return context.app === null ? { applicationID: 'installer.pick_app' } : {};
  if (step === 3) return context.app ? configErrors(context.app, context.config) : {};
  const errors: Record<string, string> = {};
  const subpath = subpathError(context.subpath);
  if (subpath) errors.subpath = subpath;
  if (context.app?.isBBDDApplication) {
    const database = context.database;
    if (!database) errors.mysqlID = 'installer.databases_unavailable';
    else if (database.rules.impossible) errors.mysqlID = 'installer.database_impossible';
    else if (!database.newDatabase && database.databaseId === null) errors.mysqlID = 'installer.pick_database';
  }
  return errors;
}

/** The address the application will answer on (the site's scheme, host and the subpath). */
export function installAddress(
  site: Pick<Subdomain, 'subdominio' | 'referencePunycode' | 'ssl'>,
  subpath: string,
): string {
  const host = site.subdominio === '' ? site.referencePunycode : `${site.subdominio}.${site.referencePunycode}`;
  const sub = folderToApi(subpath);
  return `${site.ssl.enabled ? 'https' : 'http'}://${host}/${sub === '' ? '' : `${sub}/`}`;
}
