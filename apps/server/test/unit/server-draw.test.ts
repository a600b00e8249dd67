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

/** Every path answers `{ service: {...}, ftps: [...] }`; `broken/` answers nothing (a failed call). */
const call: PageCall = async (_method, path) =>
  path === 'broken/' ? undefined : { service: { id: 7 }, ftps: [{ id: 1 }] };

async function drawnQueries(calls: ViewCall[]) {
  const boot: BootData = { language: 'es', user: {} };
  const drawing = await drawSignedInPage(rendererOf(calls), call, {
    url: '/admin/7/',
    language: 'es',
    boot,
    hints: HINTS,
  });
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

  it('draws nothing for a call that is not an API path, or a field that is not a name', async () => {
    await expect(drawnQueries([{ queryKey: ['x'], path: '../admin/', query: '' }])).rejects.toThrow('not an API path');
    await expect(drawnQueries([{ queryKey: ['x'], path: 'a/', query: '', field: 'a.b' }])).rejects.toThrow(
      'not an answer',
    );
  });
});
