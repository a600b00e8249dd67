// @vitest-environment node
import type { ConsolePlan } from '@panel247/contract/console';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, onSessionLost } from '../../../lib/api-client';
import { parseSort, sortValue } from '../../../lib/list-sort';
import { envelope, stubApi } from '../../../test/api-stub';
import { consoleApi, consoleRetry, onStaffSessionLost } from '../api/console-api';
import { consoleLogin } from '../api/console-login';
import { getStaffInfo } from '../api/get-staff-info';
import { SERVICE_SORTS } from '../api/list-services';
import { planPayload, planValues, validatePlan } from './plan-form';
import { limitText } from './plan-limits';
import { terminationOutcome } from './termination-outcome';

const GOLD: ConsolePlan = {
  name: 'gold',
  webSpaceMb: 2048,
  trafficMb: null,
  sites: 5,
  mailboxes: null,
  mailboxMb: 1024,
  aliases: null,
  ftpAccounts: 3,
  databases: 2,
  databaseSpaceMb: null,
  backupMb: null,
  phpVersions: ['8.2', '8.3'],
  phpWorkers: 4,
  cronTasks: 10,
  cronMinIntervalMinutes: 15,
  sshKeys: 5,
  spamSenders: 200,
  statsLogMb: 50,
  services: 1,
};

describe('plan form', () => {
  it('shows no limit as an empty field, and sends it back as empty', () => {
    const values = planValues(GOLD);
    expect(values).toMatchObject({
      name: 'gold',
      webSpaceMb: '2048',
      trafficMb: '',
      phpVersions: '8.2, 8.3',
      phpWorkers: '4',
      cronTasks: '10',
      cronMinIntervalMinutes: '15',
    });
    expect(planPayload({ ...values, sites: ' 7 ' }, false)).toMatchObject({
      create: '0',
      sites: '7',
      trafficMb: '',
      phpVersions: '8.2, 8.3',
    });
  });

  it('starts a new plan with no limits and 5 PHP workers', () => {
    const values = planValues(null);
    expect(values.name).toBe('');
    expect(values.webSpaceMb).toBe('');
    expect(values.phpWorkers).toBe('5');
    expect(values.cronTasks).toBe('');
    expect(values.cronMinIntervalMinutes).toBe('5');
    expect(planPayload({ ...values, name: 'gold' }, true).create).toBe('1');
  });

  it('asks for a name, whole numbers and workers from 1 to 200', () => {
    expect(validatePlan({ ...planValues(GOLD) })).toEqual({});
    expect(validatePlan({ ...planValues(null), name: ' ', sites: '-1', mailboxMb: '1.5', phpWorkers: '0' })).toEqual({
      name: 'validation.required',
      sites: 'console.plans.whole_number',
      mailboxMb: 'console.plans.whole_number',
      phpWorkers: 'console.plans.workers_range',
    });
    expect(validatePlan({ ...planValues(GOLD), phpWorkers: '201' }).phpWorkers).toBe('console.plans.workers_range');
    expect(validatePlan({ ...planValues(GOLD), cronMinIntervalMinutes: '1441' })).toEqual({
      cronMinIntervalMinutes: 'console.plans.interval_range',
    });
    expect(validatePlan({ ...planValues(GOLD), cronMinIntervalMinutes: '1' })).toEqual({});
  });

  it('shows sizes in their unit, counts as numbers, and unlimited for none', () => {
    expect(limitText(GOLD, 'webSpaceMb', 'es', 'Sin límite')).toBe('2 GB');
    expect(limitText(GOLD, 'sites', 'es', 'Sin límite')).toBe('5');
    expect(limitText(GOLD, 'trafficMb', 'es', 'Sin límite')).toBe('Sin límite');
  });
});

describe('services list', () => {
  it('turns a sort choice into one select value and back, refusing what it does not know', () => {
    expect(sortValue({ sort: 'plan', order: 'desc' })).toBe('plan-desc');
    expect(parseSort(SERVICE_SORTS, 'plan-desc')).toEqual({ sort: 'plan', order: 'desc' });
    expect(parseSort(SERVICE_SORTS, 'weird-up')).toEqual({ sort: 'domain', order: 'asc' });
    expect(parseSort(['domain', 'brand'], 'brand-asc')).toEqual({ sort: 'brand', order: 'asc' });
  });

  it('words a termination by its state', () => {
    const base = { domain: 'a.test', lastBackup: '', keptUntil: null, error: '' };
    expect(terminationOutcome({ ...base, state: 'terminating' }, 'en')).toEqual({
      failed: false,
      key: 'console.terminate.started',
      values: { domain: 'a.test' },
    });
    expect(terminationOutcome({ ...base, state: 'terminated' }, 'en').key).toBe('console.terminate.done_no_backup');
    const kept = terminationOutcome({ ...base, state: 'terminated', keptUntil: Date.UTC(2030, 0, 15) / 1000 }, 'en');
    expect(kept.key).toBe('console.terminate.done');
    expect(kept.values.date).toContain('2030');
    expect(terminationOutcome({ ...base, state: 'failed', error: 'DNS refused' }, 'en')).toEqual({
      failed: true,
      key: 'console.terminate.failed',
      values: { domain: 'a.test', error: 'DNS refused' },
    });
  });
});

describe('console calls', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('send a 401 to the console’s sign-in, never to the customers’ session-loss modal', async () => {
    stubApi(() => envelope(null, { status: 401, errors: ['Inicia sesión en la consola'] }));
    const customer = vi.fn();
    const staff = vi.fn();
    const offCustomer = onSessionLost(customer);
    const offStaff = onStaffSessionLost(staff);
    await expect(consoleApi('console/plans/list/')).rejects.toMatchObject({ status: 401 });
    // no session yet is an answer of the info call: null, not a failure
    expect(await getStaffInfo()).toBeNull();
    expect(staff).toHaveBeenCalledTimes(2);
    expect(customer).not.toHaveBeenCalled();
    offCustomer();
    offStaff();
  });

  it('take a wrong password as the sign-in form’s error, not as a session that ended', async () => {
    const calls = stubApi(() => envelope(null, { status: 401, errors: ['Usuario o contraseña incorrectos'] }));
    const staff = vi.fn();
    const off = onStaffSessionLost(staff);
    await expect(consoleLogin({ username: 'ana', password: 'x', code: '' })).rejects.toMatchObject({
      message: 'Usuario o contraseña incorrectos',
    });
    expect(staff).not.toHaveBeenCalled();
    expect(calls[0]).toMatchObject({ path: 'console/login/', method: 'POST' });
    expect(Object.fromEntries(calls[0]?.params ?? [])).toEqual({ username: 'ana', password: 'x', code: '' });
    off();
  });

  it('are retried once, but never after a 401', () => {
    expect(consoleRetry(0, new ApiError('error', 401, null))).toBe(false);
    expect(consoleRetry(0, new ApiError('500', 500, null))).toBe(true);
    expect(consoleRetry(1, new ApiError('500', 500, null))).toBe(false);
  });
});
