import { Select, SimpleGrid, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { POSTAL_CODE_MAX } from '@panel247/contract/domain-rules';
import { useEffect } from 'react';
import { useTranslation } from '../../../lib/use-translation';
import { useAddressLookup } from '../api/lookup-address';
import { ADDRESS_LOOKUP_DEBOUNCE_MS } from '../lib/address';

export interface AddressValues {
  country: string;
  state: string;
  city: string;
  postalCode: string;
}

/**
 * Country, state, city and postal code from `/tools/country/`: re-requested when the country,
 * state or city change (the city 200 ms after the last change); a free postal code input of 1-5
 * characters where the data set has no codes, free state and city inputs where it has no places.
 */
export function AddressFields({
  values,
  errors,
  onChange,
  onPostalCodesKnown,
}: {
  values: AddressValues;
  errors: Partial<Record<keyof AddressValues, string>>;
  onChange: (patch: Partial<AddressValues>) => void;
  /** Whether the postal code is a choice from the data set (false: the free 1-5 input). */
  onPostalCodesKnown: (known: boolean) => void;
}) {
  const { t, i18n } = useTranslation();
  const [city] = useDebouncedValue(values.city, ADDRESS_LOOKUP_DEBOUNCE_MS);
  const lookup = useAddressLookup(
    { country: values.country, state: values.state, city, postal_code: '' },
    i18n.language,
    true,
  );
  const data = lookup.data;
  const countries = data ? Object.entries(data.country).map(([value, label]) => ({ value, label })) : [];
  const states = data?.states ?? [];
  const cities = data?.cities ?? [];
  const postalCodes = data?.postalCodes ?? [];
  const stateLabel = data?.names.state || t('domain.contact.state');
  const cityLabel = data?.names.city || t('domain.contact.city');
  // the list shown may still be the previous selection's (placeholder data) while the next one loads
  const countryFresh = data?.selected.country === values.country;
  const stateFresh = countryFresh && data?.selected.state === values.state;
  const stateMode: 'select' | 'loading' | 'free' = !values.country
    ? 'free'
    : !countryFresh
      ? 'loading'
      : states.length > 0
        ? 'select'
        : 'free';
  const cityMode: 'select' | 'loading' | 'free' =
    stateMode === 'free' || !values.state || (countryFresh && !states.some((s) => s.key === values.state))
      ? 'free'
      : stateMode === 'loading' || !stateFresh
        ? 'loading'
        : cities.length > 0
          ? 'select'
          : 'free';
  const codesKnown = postalCodes.length > 0;
  useEffect(() => onPostalCodesKnown(codesKnown), [codesKnown, onPostalCodesKnown]);

  const cityData = [...new Set([...cities.map((c) => c.name), ...(values.city ? [values.city] : [])])];

  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" verticalSpacing="sm">
      <Select
        label={t('domain.contact.country')}
        required
        searchable
        data={countries}
        value={values.country || null}
        onChange={(value) => onChange({ country: value ?? '', state: '', city: '', postalCode: '' })}
        error={errors.country}
        nothingFoundMessage={t('domain.contact.nothing_found')}
        limit={300}
        data-testid="contact-country"
        comboboxProps={{ withinPortal: true }}
      />
      {stateMode !== 'free' ? (
        <Select
          label={stateLabel}
          required
          searchable
          data={stateMode === 'select' ? states.map((s) => ({ value: s.key, label: s.name })) : []}
          value={values.state || null}
          onChange={(value) => onChange({ state: value ?? '', city: '', postalCode: '' })}
          error={errors.state}
          nothingFoundMessage={t('domain.contact.nothing_found')}
          disabled={stateMode === 'loading'}
          data-testid="contact-state"
        />
      ) : (
        <TextInput
          label={stateLabel}
          required
          value={values.state}
          onChange={(event) => onChange({ state: event.currentTarget.value, city: '' })}
          error={errors.state}
          disabled={!values.country}
          data-testid="contact-state"
        />
      )}
      {cityMode !== 'free' ? (
        <Select
          label={cityLabel}
          required
          searchable
          data={cityMode === 'select' ? cityData : []}
          value={values.city || null}
          onChange={(value) => onChange({ city: value ?? '' })}
          error={errors.city}
          nothingFoundMessage={t('domain.contact.nothing_found')}
          limit={200}
          disabled={cityMode === 'loading'}
          data-testid="contact-city"
        />
      ) : (
        <TextInput
          label={cityLabel}
          required
          value={values.city}
          onChange={(event) => onChange({ city: event.currentTarget.value })}
          error={errors.city}
          disabled={!values.country}
          data-testid="contact-city"
        />
      )}
      {codesKnown ? (
        <Select
          label={t('domain.contact.postal_code')}
          required
          data={postalCodes}
          value={values.postalCode || null}
          onChange={(value) => onChange({ postalCode: value ?? '' })}
          error={errors.postalCode}
          data-testid="contact-postalCode"
        />
      ) : (
        <TextInput
          label={t('domain.contact.postal_code')}
          description={t('domain.contact.postal_code_hint', { max: POSTAL_CODE_MAX })}
          required
          minLength={1}
          maxLength={POSTAL_CODE_MAX}
          value={values.postalCode}
          onChange={(event) => onChange({ postalCode: event.currentTarget.value })}
          error={errors.postalCode}
          data-testid="contact-postalCode"
        />
      )}
    </SimpleGrid>
  );
}
