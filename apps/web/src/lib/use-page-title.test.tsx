import { act, render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { AppContext, type AppContextValue } from './app-context';
import { renderWithTitle, usePageTitle } from './use-page-title';

const app = { config: { company: 'Acme' } } as AppContextValue;

function Titled({ page, children }: { page: string | null; children?: ReactNode }) {
  usePageTitle(page);
  return <>{children}</>;
}

/** A layout with a view inside, each naming a title (or none). */
const screen = (layout: string | null, view: string | null) => (
  <AppContext.Provider value={app}>
    <Titled page={layout}>
      <Titled page={view} />
    </Titled>
  </AppContext.Provider>
);

describe('the title a drawn page names', () => {
  it('is the one the browser’s effects leave on the tab: the outermost page’s that names one', () => {
    for (const [layout, view] of [
      [null, 'Correo · demo.test'],
      ['Cargando', 'Correo · demo.test'],
      [null, null],
    ] as const) {
      const drawn = renderWithTitle(() => renderToString(screen(layout, view)));
      document.title = 'Panel247';
      act(() => {
        render(screen(layout, view));
      });
      expect(drawn.title ?? 'Panel247', `${layout} / ${view}`).toBe(document.title);
    }
    expect(renderWithTitle(() => renderToString(screen(null, 'Correo'))).title).toBe('Correo / Acme');
  });

  it('is collected only while the server draws a page', () => {
    renderToString(screen(null, 'Correo'));
    expect(renderWithTitle(() => renderToString(screen(null, null))).title).toBeNull();
  });
});
