import { MantineProvider } from '@mantine/core';
import { render, screen, within } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { beforeAll, describe, expect, it } from 'vitest';
import es from '../../../locales/es.json';
import { pathCrumbs } from '../lib/file-paths';
import { PathBreadcrumb } from './path-breadcrumb';

beforeAll(async () => {
  await i18next.use(initReactI18next).init({ lng: 'es', resources: { es: { translation: es } } });
});

function renderTrail(path: string) {
  render(
    <MemoryRouter>
      <MantineProvider env="test">
        <PathBreadcrumb
          rootLabel="blog@demo.test"
          path={path}
          linkTo={(to) => `/files/?path=${encodeURIComponent(to)}`}
        />
      </MantineProvider>
    </MemoryRouter>,
  );
  return screen.getByTestId('files-path');
}

describe('path breadcrumb', () => {
  it('cuts a path into the folders that lead to it', () => {
    expect(pathCrumbs('')).toEqual([]);
    expect(pathCrumbs('web')).toEqual([{ name: 'web', path: 'web' }]);
    expect(pathCrumbs('web/img/a b')).toEqual([
      { name: 'web', path: 'web' },
      { name: 'img', path: 'web/img' },
      { name: 'a b', path: 'web/img/a b' },
    ]);
  });

  it('links the root and every folder above the current one, which is not a link', () => {
    const trail = renderTrail('web/img');
    expect(screen.getByRole('navigation', { name: 'Ruta de la carpeta' })).toBe(trail);
    const links = within(trail).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['blog@demo.test', '/files/?path='],
      ['web', '/files/?path=web'],
    ]);
    const current = within(trail).getByText('img');
    expect(current).toHaveAttribute('aria-current', 'page');
    expect(current.closest('a')).toBeNull();
  });

  it('at the root shows the root alone, as the current page', () => {
    const trail = renderTrail('');
    expect(within(trail).queryAllByRole('link')).toEqual([]);
    expect(within(trail).getByText('blog@demo.test')).toHaveAttribute('aria-current', 'page');
  });
});
