import { act } from '@testing-library/react';
import { Suspense, useEffect } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { drawnByServer, PageHydrated, takeOver } from './server-drawn';

/** Whether `#root` was still inert when the root's own effects ran. */
const inertAtRootEffect: boolean[] = [];

function RootEffect() {
  useEffect(() => {
    inertAtRootEffect.push(document.getElementById('root')?.hasAttribute('inert') ?? false);
  }, []);
  return null;
}

/** A layout's boundary holding a view's, as the router renders a drawn page, beside the root's own effect. */
const page = (
  <>
    <RootEffect />
    <Suspense fallback={null}>
      <nav>layout</nav>
      <Suspense fallback={null}>
        <button type="button">view</button>
        <PageHydrated />
      </Suspense>
    </Suspense>
  </>
);

function drawnRoot(): HTMLElement {
  const container = document.createElement('div');
  container.id = 'root';
  container.setAttribute('data-server-drawn', '');
  container.setAttribute('inert', '');
  container.setAttribute('aria-disabled', 'true');
  container.innerHTML = renderToString(page);
  document.body.append(container);
  return container;
}

describe('a drawn page taken over', () => {
  it('stays inert until the view inside its boundaries has hydrated, then is usable', async () => {
    const container = drawnRoot();
    expect(drawnByServer(container)).toBe(true);
    takeOver(container);
    inertAtRootEffect.length = 0;
    await act(async () => {
      hydrateRoot(container, page);
    });
    // the root's effects ran before the boundaries hydrated: too early to take the mark off
    expect(inertAtRootEffect).toEqual([true]);
    expect(container.hasAttribute('inert')).toBe(false);
    expect(container.hasAttribute('aria-disabled')).toBe(false);
    expect(drawnByServer(container)).toBe(false);
    expect(container.querySelector('button')?.textContent).toBe('view');
    container.remove();
  });

  it('leaves a page it was not told of alone', async () => {
    const container = drawnRoot();
    await act(async () => {
      hydrateRoot(container, page);
    });
    expect(container.hasAttribute('inert')).toBe(true);
    container.remove();
  });
});
