// @vitest-environment node
import type { BackupJob } from '@panel247/contract/backups';
import { describe, expect, it } from 'vitest';
import { jobActive, jobEnded, jobStepKey } from './backup-job';

const job = (changes: Partial<BackupJob>): BackupJob => ({
  id: 'a'.repeat(32),
  kind: 'backup',
  status: 'running',
  step: '',
  error: '',
  ...changes,
});

describe('backup job', () => {
  it('is active while queued or running, ended when done or failed', () => {
    expect([jobActive(job({ status: 'queued' })), jobActive(job({})), jobActive(null)]).toEqual([true, true, false]);
    expect([jobEnded(job({ status: 'done' })), jobEnded(job({ status: 'failed' })), jobEnded(job({}))]).toEqual([
      true,
      true,
      false,
    ]);
  });

  it('names its step, the status before it has one, and a running step for one it does not know', () => {
    expect(jobStepKey(job({ step: 'saving' }))).toBe('backups.step.saving');
    expect(jobStepKey(job({ status: 'queued' }))).toBe('backups.step.queued');
    expect(jobStepKey(job({ step: 'compacting' }))).toBe('backups.step.running');
  });
});
