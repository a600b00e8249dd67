import { render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { lazyPage } from './lazy-page';

const Hello = () => <p>hello</p>;

function show(Page: ReturnType<typeof lazyPage>['Page']) {
  return render(
    <Suspense fallback={<p>waiting</p>}>
      <Page />
    </Suspense>,
  );
}

describe('a lazy page', () => {
  it('renders at once, with no fallback, once its code was loaded before', async () => {
    const importer = vi.fn(async () => ({ default: Hello }));
    const lazy = lazyPage(importer);
    await lazy.load();
    show(lazy.Page);
    // in the first commit: no Suspense fallback (and so no reveal throttle) in between
    expect(screen.getByText('hello')).toBeInTheDocument();
    expect(screen.queryByText('waiting')).toBeNull();
    expect(importer).toHaveBeenCalledTimes(1);
  });

  it('loads its code on its first render otherwise, as React’s lazy does', async () => {
    const lazy = lazyPage(async () => ({ default: Hello }));
    show(lazy.Page);
    expect(screen.getByText('waiting')).toBeInTheDocument();
    expect(await screen.findByText('hello')).toBeInTheDocument();
  });

  it('asks for its code once however often it is loaded, and again after a failure', async () => {
    const importer = vi
      .fn<() => Promise<{ default: typeof Hello }>>()
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValue({ default: Hello });
    const lazy = lazyPage(importer);
    await expect(lazy.load()).rejects.toThrow('offline');
    await Promise.all([lazy.load(), lazy.load()]);
    expect(importer).toHaveBeenCalledTimes(2);
  });
});
