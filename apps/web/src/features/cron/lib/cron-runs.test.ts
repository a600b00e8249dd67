// @vitest-environment node
import type { CronRun, CronTask } from '@panel247/contract/cron';
import { describe, expect, it } from 'vitest';
import { anyRunRunning, anyTaskRunning, formatDuration, runSeconds } from './cron-runs';

const run: CronRun = {
  id: 1,
  startedAt: 1_800_000_000,
  finishedAt: 1_800_000_065,
  exitCode: 0,
  outcome: 'ok',
  output: '',
  trigger: 'schedule',
};
const task: CronTask = {
  id: 1,
  kind: 'php',
  target: 'cron/cleanup.php',
  schedule: '0 3 * * *',
  description: 'A las 03:00',
  nextRuns: [],
  email: '',
  enabled: true,
  lastRun: run,
};

describe('cron runs', () => {
  it('takes the time between start and end, none while running', () => {
    expect(runSeconds(run)).toBe(65);
    expect(runSeconds({ ...run, outcome: 'running', finishedAt: 0, exitCode: null })).toBeNull();
  });

  it('tells when a task or a run is still running', () => {
    expect(anyTaskRunning([task, { ...task, id: 2, lastRun: null }])).toBe(false);
    expect(anyTaskRunning([task, { ...task, id: 2, lastRun: { ...run, outcome: 'running' } }])).toBe(true);
    expect(anyRunRunning([run])).toBe(false);
    expect(anyRunRunning([run, { ...run, id: 2, outcome: 'running' }])).toBe(true);
  });

  it('says a duration in its two largest units', () => {
    expect(formatDuration(0, 'en')).toBe('0 sec');
    expect(formatDuration(65, 'en')).toBe('1 min 5 sec');
    expect(formatDuration(120, 'en')).toBe('2 min');
    expect(formatDuration(2 * 3600 + 600 + 7, 'en')).toBe('2 hr 10 min');
    expect(formatDuration(3600, 'es')).toBe('1 h');
  });
});
