/** Whether the service has as many tasks as its plan allows (null: the plan sets none): a new one would be refused. */
export function taskLimitReached(count: number, maxTasks: number | null): boolean {
  return maxTasks !== null && count >= maxTasks;
}
