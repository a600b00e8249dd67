// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { taskLimitReached } from './task-limit';

describe('the plan’s number of tasks', () => {
  it('is reached at the limit, and a plan may allow none', () => {
    expect(taskLimitReached(9, 10)).toBe(false);
    expect(taskLimitReached(10, 10)).toBe(true);
    expect(taskLimitReached(0, 0)).toBe(true);
  });

  it('is never reached in a plan without one', () => {
    expect(taskLimitReached(500, null)).toBe(false);
  });
});
