// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { chosenSite, dayLabel, monthLabel, monthsSeries } from './stats-format';

describe('statistics formats', () => {
  it('words months in the language and days as their number', () => {
    expect(monthLabel('2026-12', 'es')).toBe('diciembre de 2026');
    expect(monthLabel('2026-01', 'en')).toBe('January 2026');
    expect(dayLabel('2026-12-03')).toBe('3');
  });

  it('shows the chosen site while the service has it, else the first with statistics', () => {
    const sites = [
      { host: 'a.test', months: [] },
      { host: 'blog.a.test', months: ['2026-12'] },
    ];
    expect(chosenSite(sites, 'a.test')).toBe('a.test');
    expect(chosenSite(sites, 'gone.a.test')).toBe('blog.a.test');
    expect(chosenSite(sites, null)).toBe('blog.a.test');
    expect(chosenSite([{ host: 'a.test', months: [] }], null)).toBe('a.test');
    expect(chosenSite([], null)).toBeNull();
  });

  it('gives the months’ chart megabytes to a tenth', () => {
    const totals = { visitors: 3, hits: 9, pages: 7, bytes: 1_572_864, notFound: 0 };
    const series = monthsSeries(
      { host: 'a.test', month: '2026-12', summary: null, months: [{ month: '2026-12', ...totals }], updatedAt: 0 },
      'en',
    );
    expect(series).toEqual([{ month: 'December 2026', visitors: 3, pages: 7, megabytes: 1.5 }]);
  });
});
