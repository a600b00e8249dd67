import type { FastifyInstance } from 'fastify';

/**
 * Runs `task` every `seconds` on this instance, one run at a time (a run still going when the
 * next is due is not doubled); a failure goes to `onError` and the next run tries again. When the
 * app closes the timer stops and the current run is awaited. `seconds` ≤ 0: never.
 */
export function runEvery(
  app: FastifyInstance,
  seconds: number,
  task: () => Promise<unknown>,
  onError: (error: unknown) => void,
): void {
  if (seconds <= 0) return;
  let running: Promise<void> | undefined;
  const run = () => {
    running ??= task()
      .then(() => undefined)
      .catch(onError)
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(run, seconds * 1000);
  timer.unref();
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await running;
  });
}
