import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../src/logger.ts';

describe('the agent’s logger', () => {
  const lines = () =>
    (vi.mocked(process.stdout.write).mock.calls as unknown[][]).map((call) => JSON.parse(String(call[0])));
  afterEach(() => vi.restoreAllMocks());

  it('writes pino’s JSON lines from its level up, with the child’s bindings and an error’s message', () => {
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const log = createLogger('info').child({ module: 'agent' });
    log.debug('not written');
    log.info({ event: 'node.started' }, 'running');
    log.error({ err: new Error('disk full'), job: 'j1' }, 'job failed');
    log.warn('plain');
    const written = lines();
    expect(written).toHaveLength(3);
    expect(written[0]).toMatchObject({ level: 30, module: 'agent', event: 'node.started', msg: 'running' });
    expect(written[1]).toMatchObject({ level: 50, job: 'j1', msg: 'job failed', err: { message: 'disk full' } });
    expect(written[1].err.stack).toContain('disk full');
    expect(written[2]).toMatchObject({ level: 40, msg: 'plain' });
    expect(typeof written[2].time).toBe('number');
  });

  it('writes nothing when silent', () => {
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    createLogger('silent').error('never');
    expect(process.stdout.write).not.toHaveBeenCalled();
  });
});
