// @vitest-environment node
import type { CronTask } from '@panel247/contract/cron';
import { describe, expect, it } from 'vitest';
import { cronFormErrors, cronFormValues, cronTaskFields } from './cron-form';

const task: CronTask = {
  id: 4,
  kind: 'url',
  target: 'https://demo.test/cron.php',
  schedule: '*/15 * * * *',
  description: 'Cada 15 minutos',
  nextRuns: [],
  email: 'ana@demo.test',
  enabled: false,
  lastRun: null,
};

describe('the task dialog’s values', () => {
  it('starts a new task as a daily PHP script, and an existing one as it is', () => {
    expect(cronFormValues(null)).toEqual({ kind: 'php', target: '', schedule: '0 3 * * *', email: '', enabled: true });
    expect(cronFormValues(task)).toEqual({
      kind: 'url',
      target: 'https://demo.test/cron.php',
      schedule: '*/15 * * * *',
      email: 'ana@demo.test',
      enabled: false,
    });
  });

  it('sends the fields tidied, and whether it is enabled only when saving', () => {
    const values = {
      kind: 'php',
      target: ' cron/a.php ',
      schedule: ' 0  3 * * * ',
      email: ' ',
      enabled: false,
    } as const;
    expect(cronTaskFields(values, false)).toEqual({
      kind: 'php',
      target: 'cron/a.php',
      schedule: '0 3 * * *',
      email: '',
    });
    expect(cronTaskFields(values, true)).toMatchObject({ enabled: '0' });
    expect(cronTaskFields({ ...values, enabled: true }, true)).toMatchObject({ enabled: '1' });
  });

  it('asks only for a target and a schedule before calling', () => {
    expect(cronFormErrors({ ...cronFormValues(null), schedule: '  ' })).toEqual({
      target: 'validation.required',
      schedule: 'validation.required',
    });
    expect(cronFormErrors(cronFormValues(task))).toEqual({});
  });
});
