// @vitest-environment node
import { afterEach, describe, expect, it, vi } from 'vitest';
import { browserTimeZone } from './view-cookie';

describe('the browser’s time zone for the view cookie', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('is Temporal’s where the browser has it, without an Intl formatter (ICU’s first load is slow)', () => {
    vi.stubGlobal('Temporal', { Now: { timeZoneId: () => 'Atlantic/Canary' } });
    const formatter = vi.spyOn(Intl, 'DateTimeFormat');
    expect(browserTimeZone()).toBe('Atlantic/Canary');
    expect(formatter).not.toHaveBeenCalled();
  });

  it('is Intl’s in a browser without Temporal', () => {
    vi.stubGlobal('Temporal', undefined);
    expect(browserTimeZone()).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
  });
});
