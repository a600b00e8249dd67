import { describe, expect, it } from 'vitest';
import type { BootData, PageCall } from '../../src/http/boot-data.ts';
import { drawSignedInPage } from '../../src/http/server-draw.ts';
import type { PageRenderer, ViewCall } from '../../src/http/server-render.ts';

const HINTS = { timeZone: 'UTC', phone: false, scheme: 'light', color: null } as const;

/** A renderer whose plan is `calls`, and which draws the boot data it was given. */
function rendererOf(calls: ViewCall[]): PageRenderer {
  return {
    plan: async () => ({ draws: true, calls, modules: ['view.tsx'] }),
    draw: async (page: { boot: unknown }) => ({ html: JSON.stringify(page.boot), title: null }),
  } as unknown as PageRenderer;
}

/**
 * Every path answers `{ service: {...}, ftps: [...] }`; `broken/` answers nothing (a failed call)
 * and `slow/` answers after a second.
 */
const call: PageCall = async (_method, path) => {
  if (path === 'broken/') return undefined;
  if (path === 'slow/') await new Promise((resolve) => setTimeout(resolve, 1000));
  return { service: { id: 7 }, ftps: [{ id: 1 }] };
};

async function drawnQueries(calls: ViewCall[], deadlineMs?: number) {
  const boot: BootData = { language: 'es', user: {} };
  const page = { url: '/admin/7/', language: 'es', boot, hints: HINTS };
  const drawing = await drawSignedInPage(rendererOf(calls), call, page, deadlineMs);
  await drawing.drawing?.screen;
  return boot.queries;
}

describe('a drawn page’s first data', () => {
  it('carries each query’s whole answer, or the one field its query holds', async () => {
    expect(
      await drawnQueries([
        { queryKey: ['whole'], path: 'a/', query: '' },
        { queryKey: ['service'], path: 'a/', query: '', field: 'service' },
        { queryKey: ['accounts'], path: 'b/', query: '', field: 'ftps' },
      ]),
    ).toEqual([
      { queryKey: ['whole'], data: { service: { id: 7 }, ftps: [{ id: 1 }] } },
      { queryKey: ['service'], data: { id: 7 } },
      { queryKey: ['accounts'], data: [{ id: 1 }] },
    ]);
  });

  it('leaves out a call that failed and a field the answer does not have as its own', async () => {
    expect(
      await drawnQueries([
        { queryKey: ['failed'], path: 'broken/', query: '' },
        { queryKey: ['missing'], path: 'a/', query: '', field: 'domains' },
        { queryKey: ['inherited'], path: 'a/', query: '', field: 'constructor' },
        { queryKey: ['kept'], path: 'a/', query: '', field: 'service' },
      ]),
    ).toEqual([{ queryKey: ['kept'], data: { id: 7 } }]);
  });

  it('does not wait past its deadline for a slow call: the page is drawn without it', async () => {
    const calls = [
      { queryKey: ['slow'], path: 'slow/', query: '' },
      { queryKey: ['quick'], path: 'a/', query: '', field: 'service' },
    ];
    // the slow call would have answered in a second: drawn without it, nothing waited for it
    expect(await drawnQueries(calls, 50)).toEqual([{ queryKey: ['quick'], data: { id: 7 } }]);
    expect(await drawnQueries(calls, 5000)).toHaveLength(2);
  });

  it('draws nothing for a call that is not an API path, or a field that is not a name', async () => {
    await expect(drawnQueries([{ queryKey: ['x'], path: '../admin/', query: '' }])).rejects.toThrow('not an API path');
    await expect(drawnQueries([{ queryKey: ['x'], path: 'a/', query: '', field: 'a.b' }])).rejects.toThrow(
      'not an answer',
    );
  });
});
