import { act, render, screen } from '@testing-library/react';
import i18next, { type TFunction } from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTranslation } from './use-translation';

const resources = {
  es: { translation: { hello: 'Hola, {{name}}' } },
  en: { translation: { hello: 'Hello, {{name}}' } },
};

beforeAll(async () => {
  await i18next.use(initReactI18next).init({ lng: 'es', resources, interpolation: { escapeValue: false } });
});

/** Shows its text and language, and notes each `t` it rendered with. */
function Greeting({ seen }: { seen: TFunction[] }) {
  const { t, i18n } = useTranslation();
  seen.push(t);
  return (
    <p data-testid="greeting" lang={i18n.language}>
      {t('hello', { name: 'Ana' })}
    </p>
  );
}

describe('useTranslation', () => {
  it('translates in the current language and renders again when it changes', async () => {
    const seen: TFunction[] = [];
    const { rerender } = render(<Greeting seen={seen} />);
    expect(screen.getByTestId('greeting')).toHaveTextContent('Hola, Ana');
    rerender(<Greeting seen={seen} />);
    // one `t` per language, shared by every render and component (not one per mount)
    expect(seen[1]).toBe(seen[0]);

    await act(() => i18next.changeLanguage('en'));
    expect(screen.getByTestId('greeting')).toHaveTextContent('Hello, Ana');
    expect(screen.getByTestId('greeting')).toHaveAttribute('lang', 'en');
    expect(seen.at(-1)).not.toBe(seen[0]);
    await act(() => i18next.changeLanguage('es'));
    expect(screen.getByTestId('greeting')).toHaveTextContent('Hola, Ana');
  });

  it("uses the provider's instance (the server's, one per language) over the app's", async () => {
    const catalan = i18next.cloneInstance({ lng: 'ca', initAsync: false });
    catalan.addResourceBundle('ca', 'translation', { hello: 'Hola, {{name}}!' });
    await catalan.changeLanguage('ca');
    render(
      <I18nextProvider i18n={catalan}>
        <Greeting seen={[]} />
      </I18nextProvider>,
    );
    expect(screen.getByTestId('greeting')).toHaveTextContent('Hola, Ana!');
    expect(screen.getByTestId('greeting')).toHaveAttribute('lang', 'ca');
  });
});
