import { EventEmitter } from 'node:events';
import type { Db } from '../db/database.ts';

/**
 * Within one process, an object's job tells the requests waiting on its changes at once (between
 * processes they read their change's row every few tens of milliseconds). Per database: tests
 * run several in one process. Keys name the area and the object (`dns:12`, `web:12`).
 */
const signals = new WeakMap<Db, EventEmitter>();

function workSignals(db: Db): EventEmitter {
  let emitter = signals.get(db);
  if (!emitter) {
    emitter = new EventEmitter();
    emitter.setMaxListeners(0);
    signals.set(db, emitter);
  }
  return emitter;
}

/** Called by an object's job when it has recorded its word on some of the object's changes. */
export function signalWork(db: Db, key: string): void {
  workSignals(db).emit(key);
}

/**
 * Waits for the job's word on one change: reads it (`read`) until `settled` says the request
 * has its answer or the budget is spent, woken by the job's signal or, from another process,
 * by polling with a growing pause (10 ms to 200 ms). Answers the last word read.
 */
export async function waitForWord<W>(
  db: Db,
  key: string,
  read: () => Promise<W>,
  settled: (word: W) => boolean,
  budgetMs: number,
): Promise<W> {
  const deadline = Date.now() + budgetMs;
  const emitter = workSignals(db);
  for (let pause = 10; ; pause = Math.min(pause * 2, 200)) {
    const word = await read();
    const left = deadline - Date.now();
    if (settled(word) || left <= 0) return word;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        emitter.off(key, done);
        resolve();
      };
      const timer = setTimeout(done, Math.min(pause, left));
      emitter.on(key, done);
    });
  }
}
