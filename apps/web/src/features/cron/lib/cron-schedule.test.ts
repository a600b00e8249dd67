// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { CRON_PRESETS, normalizeSchedule, presetAllowed, presetOf } from './cron-schedule';

describe('cron schedules', () => {
  it('tidies the spaces between and around the fields', () => {
    expect(normalizeSchedule('  0   3 *\t* 1 ')).toBe('0 3 * * 1');
    expect(normalizeSchedule('   ')).toBe('');
  });

  it('knows a preset whatever its spacing, and nothing else', () => {
    expect(presetOf('*/5 * * * *')).toBe('every_5_minutes');
    expect(presetOf(' 0 3  1 * * ')).toBe('monthly');
    expect(presetOf('0 4 * * *')).toBeNull();
  });

  it('offers only the presets the plan’s shortest interval allows', () => {
    const offered = (minutes: number) =>
      CRON_PRESETS.filter((preset) => presetAllowed(preset, minutes)).map((preset) => preset.id);
    expect(offered(1)).toEqual(['every_5_minutes', 'hourly', 'daily', 'weekly', 'monthly']);
    expect(offered(5)).toContain('every_5_minutes');
    expect(offered(15)).toEqual(['hourly', 'daily', 'weekly', 'monthly']);
  });
});
