import type { HostingApplication } from '@panel247/contract/installer';
import { CONFIG_PREFIX, type ConfigValues, configField, type InstallerStep, initialConfig } from './installer-rules';

/**
 * What the installer's four steps have gathered (spec section 4: a linear stepper). It lives as
 * long as the dialog is open; closing drops it, so the next opening starts afresh.
 */
export interface InstallerState {
  /** 1 when opened from a site's row: step 0 is skipped and the site is fixed. */
  firstStep: 0 | 1;
  step: InstallerStep;
  siteId: number | null;
  appId: number | null;
  /** '' is the site's folder itself. */
  subpath: string;
  /** null until the user touches it: the database rules decide (see `chosenDatabase`). */
  newDatabase: boolean | null;
  databaseId: number | null;
  config: ConfigValues;
  /** Texts under the fields, keyed by the install call's field names (subpath, mysqlID, cfg_…). */
  errors: Record<string, string>;
}

export type InstallerAction =
  | { type: 'site'; id: number }
  | { type: 'app'; app: HostingApplication }
  | { type: 'subpath'; value: string }
  | { type: 'newDatabase'; on: boolean }
  | { type: 'database'; id: number }
  | { type: 'config'; name: string; value: string | boolean }
  | { type: 'next' }
  | { type: 'back' }
  /** Errors to show; with a step, the installer goes back to it (the first step holding one). */
  | { type: 'errors'; errors: Record<string, string>; step?: InstallerStep }
  /** The database made for this install: a retry uses it instead of making another. */
  | { type: 'databaseCreated'; id: number };

export function initialInstallerState(siteId: number | null): InstallerState {
  const firstStep = siteId === null ? 0 : 1;
  return {
    firstStep,
    step: firstStep,
    siteId,
    appId: null,
    subpath: '',
    newDatabase: null,
    databaseId: null,
    config: {},
    errors: {},
  };
}

function without(errors: Record<string, string>, field: string): Record<string, string> {
  if (!(field in errors)) return errors;
  const { [field]: _, ...rest } = errors;
  return rest;
}

export function installerReducer(state: InstallerState, action: InstallerAction): InstallerState {
  switch (action.type) {
    case 'site':
      return { ...state, siteId: action.id, errors: without(state.errors, 'subdomainID') };
    case 'app':
      if (action.app.id === state.appId) return state;
      // Another application: its own inputs with their defaults; the old answers do not apply.
      return {
        ...state,
        appId: action.app.id,
        config: initialConfig(action.app),
        errors: Object.fromEntries(
          Object.entries(without(state.errors, 'applicationID')).filter(([field]) => !field.startsWith(CONFIG_PREFIX)),
        ),
      };
    case 'subpath':
      return { ...state, subpath: action.value, errors: without(state.errors, 'subpath') };
    case 'newDatabase':
      return { ...state, newDatabase: action.on, errors: without(state.errors, 'mysqlID') };
    case 'database':
      return { ...state, databaseId: action.id, errors: without(state.errors, 'mysqlID') };
    case 'config':
      return {
        ...state,
        config: { ...state.config, [action.name]: action.value },
        errors: without(state.errors, configField(action.name)),
      };
    case 'next':
      return state.step < 3 ? { ...state, step: (state.step + 1) as InstallerStep } : state;
    case 'back':
      return state.step > state.firstStep ? { ...state, step: (state.step - 1) as InstallerStep } : state;
    case 'errors':
      return {
        ...state,
        errors: action.errors,
        step: action.step !== undefined && action.step >= state.firstStep ? action.step : state.step,
      };
    case 'databaseCreated':
      return { ...state, newDatabase: false, databaseId: action.id };
  }
}
