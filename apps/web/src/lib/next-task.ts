/**
 * Resolves in a new task of the browser's event loop, so the work after it is not part of the
 * current task: one long task blocks a press for its whole length, where two short ones let the
 * browser answer it between them. A message to itself, not `setTimeout(0)`, which browsers clamp to
 * 4 ms once timers nest.
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}
