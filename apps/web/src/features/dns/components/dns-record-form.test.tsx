import { MantineProvider } from '@mantine/core';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import es from '../../../locales/es.json';
import { type DnsFormValues, dnsFormValuesFromRecord, dnsPayload, initialDnsFormValues } from '../lib/dns-form';
import { DnsRecordForm } from './dns-record-form';

beforeAll(async () => {
  await i18next.use(initReactI18next).init({
    lng: 'es',
    resources: { es: { translation: es } },
    interpolation: { escapeValue: false },
  });
});

function renderForm(mode: 'create' | 'edit', initialValues: DnsFormValues = initialDnsFormValues()) {
  const onSubmit = vi.fn(async (_values: DnsFormValues) => {});
  render(
    <MantineProvider>
      <DnsRecordForm
        mode={mode}
        zoneName="demo.test"
        initialValues={initialValues}
        submitting={false}
        onSubmit={onSubmit}
        onCancel={() => {}}
      />
    </MantineProvider>,
  );
  return onSubmit;
}

const field = (testId: string) => screen.queryByTestId(testId) as HTMLInputElement | null;
const setType = (type: string) => fireEvent.change(screen.getByTestId('dns-field-type'), { target: { value: type } });

/** The error text tied to an input (Mantine: aria-describedby → the `-error` node under it). */
function errorOf(testId: string): string {
  const input = screen.getByTestId(testId);
  const ids = (input.getAttribute('aria-describedby') ?? '').split(/\s+/).filter((id) => id.endsWith('-error'));
  return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
}

describe('DNS record form: fields by type', () => {
  it('A: no priority, no SRV or CAA parts', () => {
    renderForm('create');
    expect(field('dns-field-type')?.value).toBe('A');
    expect(field('dns-field-ttl')?.value).toBe('0');
    for (const id of ['dns-field-priority', 'dns-field-port', 'dns-field-srv-service', 'dns-field-caa-flag']) {
      expect(field(id), id).toBeNull();
    }
    expect(screen.getByLabelText(/^IP/)).toBe(field('dns-field-value'));
  });

  it('SRV: service, protocol, priority (default 20), weight and port; a preset fills the service, other empties it', () => {
    renderForm('create');
    setType('SRV');
    for (const id of [
      'dns-field-srv-choice',
      'dns-field-srv-service',
      'dns-field-srv-protocol',
      'dns-field-weight',
      'dns-field-port',
    ]) {
      expect(field(id), id).not.toBeNull();
    }
    expect(field('dns-field-priority')?.value).toBe('20');
    // an empty weight follows the priority, and says so
    expect(field('dns-field-weight')?.value).toBe('');
    expect(field('dns-field-weight')?.placeholder).toBe('20');
    expect(screen.getByLabelText(/^Destino/)).toBe(field('dns-field-value'));
    fireEvent.change(screen.getByTestId('dns-field-srv-choice'), { target: { value: '_imaps' } });
    expect(field('dns-field-srv-service')?.value).toBe('_imaps');
    fireEvent.change(screen.getByTestId('dns-field-srv-choice'), { target: { value: '' } });
    expect(field('dns-field-srv-service')?.value).toBe('');
    expect(field('dns-field-caa-flag')).toBeNull();
  });

  it('MX: priority, no port; CAA: flag and tag, no priority', () => {
    renderForm('create');
    setType('MX');
    expect(field('dns-field-priority')).not.toBeNull();
    expect(field('dns-field-port')).toBeNull();
    expect(screen.getByLabelText(/^Servidor de correo/)).toBe(field('dns-field-value'));
    setType('CAA');
    expect(field('dns-field-priority')).toBeNull();
    expect(field('dns-field-caa-flag')?.value).toBe('0');
    expect(field('dns-field-caa-tag')?.value).toBe('issue');
  });
});

describe('DNS record form: client errors under the right field', () => {
  it('on submit: nothing is sent and each error shows under its field', async () => {
    const onSubmit = renderForm('create');
    setType('SRV');
    fireEvent.change(screen.getByTestId('dns-field-port'), { target: { value: '70000' } });
    fireEvent.change(screen.getByTestId('dns-field-weight'), { target: { value: '-1' } });
    fireEvent.submit(screen.getByTestId('dns-create-form'));
    await waitFor(() => expect(errorOf('dns-field-port')).toBe(es.dns.error.srv_number));
    expect(errorOf('dns-field-weight')).toBe(es.dns.error.srv_number);
    expect(errorOf('dns-field-value')).toBe(es.validation.required);
    expect(errorOf('dns-field-zona')).toBe('');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('on blur: a bad IPv4 under the value, a bad name under the name', async () => {
    renderForm('create');
    const value = screen.getByTestId('dns-field-value');
    fireEvent.change(value, { target: { value: '10.0.0.256' } });
    fireEvent.blur(value);
    await waitFor(() => expect(errorOf('dns-field-value')).toBe(es.dns.error.ipv4));
    const zona = screen.getByTestId('dns-field-zona');
    fireEvent.change(zona, { target: { value: 'bad_name' } });
    fireEvent.blur(zona);
    await waitFor(() => expect(errorOf('dns-field-zona')).toBe(es.dns.error.name));
  });

  it('a valid CAA record is sent with its composed value', async () => {
    const onSubmit = renderForm('create');
    setType('CAA');
    fireEvent.change(screen.getByTestId('dns-field-caa-tag'), { target: { value: 'issuewild' } });
    fireEvent.change(screen.getByTestId('dns-field-value'), { target: { value: 'sectigo.com' } });
    fireEvent.submit(screen.getByTestId('dns-create-form'));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    const sent = onSubmit.mock.calls[0]?.[0] as DnsFormValues;
    expect(dnsPayload(sent)).toEqual({
      type: 'CAA',
      zona: '',
      value: '0 issuewild "sectigo.com"',
      ttl: 0,
      priority: 20,
    });
  });
});

describe('DNS record form: edit splits SRV and CAA values into their parts', () => {
  it('SRV: name and type fixed, priority, port and target filled; saved back composed', async () => {
    const record = { type: 'SRV', zona: '_sip._tcp', value: '20 5060 sip.demo.test.', ttl: 3600, priority: 20 };
    const onSubmit = renderForm('edit', dnsFormValuesFromRecord(record));
    expect(field('dns-field-type')?.readOnly).toBe(true);
    expect(field('dns-field-name')?.value).toBe('_sip._tcp.demo.test');
    expect(field('dns-field-srv-service')).toBeNull();
    expect(field('dns-field-priority')?.value).toBe('20');
    expect(field('dns-field-port')?.value).toBe('5060');
    expect(field('dns-field-value')?.value).toBe('sip.demo.test');
    expect(field('dns-field-ttl')?.value).toBe('3600');
    fireEvent.change(screen.getByTestId('dns-field-port'), { target: { value: '5061' } });
    fireEvent.submit(screen.getByTestId('dns-edit-form'));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(dnsPayload(onSubmit.mock.calls[0]?.[0] as DnsFormValues)).toMatchObject({
      zona: '_sip._tcp',
      value: '20 5061 sip.demo.test',
      priority: 20,
      ttl: 3600,
    });
  });

  it('SRV: a weight of its own is shown in its field and can be changed apart from the priority', async () => {
    const record = { type: 'SRV', zona: '_sip._tcp', value: '5 5060 sip.demo.test', ttl: 0, priority: 20 };
    const onSubmit = renderForm('edit', dnsFormValuesFromRecord(record));
    expect(field('dns-field-priority')?.value).toBe('20');
    expect(field('dns-field-weight')?.value).toBe('5');
    fireEvent.change(screen.getByTestId('dns-field-weight'), { target: { value: '7' } });
    fireEvent.submit(screen.getByTestId('dns-edit-form'));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(dnsPayload(onSubmit.mock.calls[0]?.[0] as DnsFormValues)).toMatchObject({
      value: '7 5060 sip.demo.test',
      priority: 20,
    });
  });

  it('CAA: flag, tag and the unquoted target', () => {
    renderForm(
      'edit',
      dnsFormValuesFromRecord({ type: 'CAA', zona: '', value: '0 iodef "mailto:x@demo.test"', ttl: 0, priority: 0 }),
    );
    expect(field('dns-field-caa-flag')?.value).toBe('0');
    expect(field('dns-field-caa-tag')?.value).toBe('iodef');
    expect(field('dns-field-value')?.value).toBe('mailto:x@demo.test');
  });
});
