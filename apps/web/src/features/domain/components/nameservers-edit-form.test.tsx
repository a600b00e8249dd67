import { MantineProvider } from '@mantine/core';
import { fireEvent, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import es from '../../../locales/es.json';
import { NameserversEditForm } from './nameservers-edit-modal';
import { PreviewFieldset } from './preview-fieldset';

beforeAll(async () => {
  await i18next.use(initReactI18next).init({ lng: 'es', resources: { es: { translation: es } } });
});

const init = { domainDNSs: [], hasService: true, defaultDNSs: ['ns1.p.test', 'ns2.p.test'] };

function renderForm(onSubmit = vi.fn(async () => ({}))) {
  render(
    <MantineProvider>
      <NameserversEditForm init={init} mode="defaultDNS" busy={false} onSubmit={onSubmit} onCancel={() => {}} />
    </MantineProvider>,
  );
  return onSubmit;
}

describe('DNS edit form', () => {
  it('starts on the provider, then 2 custom rows; the add button disappears at 7; the first 2 are fixed', () => {
    renderForm();
    expect(screen.getByTestId('dns-default-servers').textContent).toContain('ns1.p.test');
    expect(screen.getByTestId('dns-propagation').textContent).toContain('24 horas');
    fireEvent.click(screen.getByLabelText('Servidores personalizados'));
    expect(screen.getByTestId('dns-row-0')).toBeInTheDocument();
    expect(screen.getByTestId('dns-row-1')).toBeInTheDocument();
    expect(screen.queryByTestId('dns-row-2')).toBeNull();
    for (let i = 0; i < 5; i++) fireEvent.click(screen.getByTestId('dns-add-row'));
    expect(screen.getByTestId('dns-row-6')).toBeInTheDocument();
    expect(screen.queryByTestId('dns-add-row')).toBeNull();
    expect(screen.queryByTestId('dns-row-remove-0')).toBeNull();
    expect(screen.queryByTestId('dns-row-remove-1')).toBeNull();
    fireEvent.click(screen.getByTestId('dns-row-remove-6'));
    expect(screen.getByTestId('dns-add-row')).toBeInTheDocument();
  });

  it('switching back and forth resets the rows; empty rows are refused before any call', async () => {
    const onSubmit = renderForm();
    fireEvent.click(screen.getByLabelText('Servidores personalizados'));
    fireEvent.change(screen.getByTestId('dns-row-0'), { target: { value: 'ns1.demo.test' } });
    fireEvent.click(screen.getByTestId('dns-add-row'));
    fireEvent.click(screen.getByLabelText('Los servidores del proveedor'));
    fireEvent.click(screen.getByLabelText('Servidores personalizados'));
    expect((screen.getByTestId('dns-row-0') as HTMLInputElement).value).toBe('');
    expect(screen.queryByTestId('dns-row-2')).toBeNull();
    fireEvent.submit(screen.getByTestId('dns-edit-form'));
    expect(await screen.findAllByText('Este campo es obligatorio')).toHaveLength(2);
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('sends the provider choice without rows', async () => {
    const onSubmit = renderForm();
    fireEvent.submit(screen.getByTestId('dns-edit-form'));
    await vi.waitFor(() => expect(onSubmit).toHaveBeenCalledWith(true, ['', '']));
  });
});

describe('DNS edit form with DS records at the registry', () => {
  const signed = { ...init, domainDNSs: init.defaultDNSs, dsRecords: 2, canRemoveDs: true };
  const fill = () => {
    fireEvent.click(screen.getByLabelText('Servidores personalizados'));
    fireEvent.change(screen.getByTestId('dns-row-0'), { target: { value: 'ns1.otro.test' } });
    fireEvent.change(screen.getByTestId('dns-row-1'), { target: { value: 'ns2.otro.test' } });
  };

  it('warns when leaving the provider, and removes the DS records by default or keeps them when chosen', async () => {
    const onSubmit = vi.fn(async () => ({}));
    render(
      <MantineProvider>
        <NameserversEditForm init={signed} mode="defaultDNS" busy={false} onSubmit={onSubmit} onCancel={() => {}} />
      </MantineProvider>,
    );
    expect(screen.queryByTestId('dns-ds-warning')).toBeNull();
    fill();
    expect(screen.getByTestId('dns-ds-warning').textContent).toContain('2 registros DS');
    expect(screen.getByTestId('dns-ds-remove')).toBeChecked();
    fireEvent.submit(screen.getByTestId('dns-edit-form'));
    await vi.waitFor(() =>
      expect(onSubmit).toHaveBeenLastCalledWith(false, ['ns1.otro.test', 'ns2.otro.test'], 'remove'),
    );
    fireEvent.click(screen.getByTestId('dns-ds-keep'));
    fireEvent.submit(screen.getByTestId('dns-edit-form'));
    await vi.waitFor(() =>
      expect(onSubmit).toHaveBeenLastCalledWith(false, ['ns1.otro.test', 'ns2.otro.test'], 'keep'),
    );
  });

  it('without the DNSSEC right, asks for an explicit keep before sending', async () => {
    const onSubmit = vi.fn(async () => ({}));
    render(
      <MantineProvider>
        <NameserversEditForm
          init={{ ...signed, canRemoveDs: false }}
          mode="defaultDNS"
          busy={false}
          onSubmit={onSubmit}
          onCancel={() => {}}
        />
      </MantineProvider>,
    );
    fill();
    expect(screen.getByTestId('dns-ds-remove')).toBeDisabled();
    fireEvent.submit(screen.getByTestId('dns-edit-form'));
    await screen.findByText('Elige qué hacer con los registros DS');
    expect(onSubmit).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId('dns-ds-keep'));
    fireEvent.submit(screen.getByTestId('dns-edit-form'));
    await vi.waitFor(() => expect(onSubmit).toHaveBeenCalledWith(false, ['ns1.otro.test', 'ns2.otro.test'], 'keep'));
  });
});

describe('DNS edit form back to the provider with a signed hosted zone', () => {
  it('offers to publish the zone’s DS (ticked), and sends the choice', async () => {
    const onSubmit = vi.fn(async () => ({}));
    render(
      <MantineProvider>
        <NameserversEditForm
          init={{ ...init, domainDNSs: ['ns1.otro.test', 'ns2.otro.test'], zoneDsRecords: 1, canRemoveDs: true }}
          mode="setDNS"
          busy={false}
          onSubmit={onSubmit}
          onCancel={() => {}}
        />
      </MantineProvider>,
    );
    expect(screen.queryByTestId('dns-publish-ds')).toBeNull();
    fireEvent.click(screen.getByLabelText('Los servidores del proveedor'));
    const publish = screen.getByTestId('dns-publish-ds');
    expect(publish).toBeChecked();
    fireEvent.submit(screen.getByTestId('dns-edit-form'));
    await vi.waitFor(() => expect(onSubmit).toHaveBeenLastCalledWith(true, expect.any(Array), undefined, true));
    fireEvent.click(publish);
    fireEvent.submit(screen.getByTestId('dns-edit-form'));
    await vi.waitFor(() => expect(onSubmit).toHaveBeenLastCalledWith(true, expect.any(Array), undefined, false));
  });
});

describe('preview fieldset', () => {
  it('shows 2 entries, then all after show more', () => {
    render(
      <MantineProvider>
        <PreviewFieldset
          legend="Glue"
          items={['a', 'b', 'c']}
          loading={false}
          empty="none"
          itemKey={(item) => item}
          render={(item) => item}
          testId="p"
        />
      </MantineProvider>,
    );
    expect(screen.getAllByTestId('p-item')).toHaveLength(2);
    fireEvent.click(screen.getByTestId('p-more'));
    expect(screen.getAllByTestId('p-item')).toHaveLength(3);
  });
});
