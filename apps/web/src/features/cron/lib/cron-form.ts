import type { CronKind, CronSaveParams, CronTask } from '@panel247/contract/cron';
import { normalizeSchedule } from './cron-schedule';

/** What the task dialog edits. */
export interface CronFormValues {
  kind: CronKind;
  target: string;
  schedule: string;
  email: string;
  enabled: boolean;
}

/** The fields a task's create or save call sends (the service id and the task id travel in the URL). */
export type CronTaskFields = Omit<CronSaveParams, 'id'>;

/** A new task: a PHP script of the home, once a day; an existing one as it is. */
export function cronFormValues(task: CronTask | null): CronFormValues {
  if (!task) return { kind: 'php', target: '', schedule: '0 3 * * *', email: '', enabled: true };
  return { kind: task.kind, target: task.target, schedule: task.schedule, email: task.email, enabled: task.enabled };
}

/**
 * The call's fields from the dialog's values, tidied as the server would read them. `enabled`
 * only for a save: a new task is always enabled.
 */
export function cronTaskFields(values: CronFormValues, existing: boolean): CronTaskFields {
  const fields: CronTaskFields = {
    kind: values.kind,
    target: values.target.trim(),
    schedule: normalizeSchedule(values.schedule),
    email: values.email.trim(),
  };
  if (existing) fields.enabled = values.enabled ? '1' : '0';
  return fields;
}

/**
 * The checks made before calling, as translation keys by field: only that something is typed.
 * Whether the script or the URL, the schedule and the address are right is the server's to say:
 * it answers each field's precise error.
 */
export function cronFormErrors(values: CronFormValues): Partial<Record<keyof CronFormValues, string>> {
  const errors: Partial<Record<keyof CronFormValues, string>> = {};
  if (!values.target.trim()) errors.target = 'validation.required';
  if (!normalizeSchedule(values.schedule)) errors.schedule = 'validation.required';
  return errors;
}
