// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { nextTask } from './next-task';

describe('nextTask', () => {
  it('resolves in a later task: after the current one and its microtasks', async () => {
    const order: string[] = [];
    const later = nextTask().then(() => order.push('next task'));
    queueMicrotask(() => order.push('microtask'));
    order.push('this task');
    await later;
    expect(order).toEqual(['this task', 'microtask', 'next task']);
  });
});
