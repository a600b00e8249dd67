import type { Language } from '@panel247/contract/constants';
import type { CountryData } from '@panel247/contract/domain';
import { translate } from '../../i18n/messages.ts';
import { addressBook } from './address-book.ts';

/** `/tools/country/`: the address form's choices for what is selected so far. */
export async function lookupAddress(
  params: { country: string; state: string; city: string; postal_code: string },
  language: Language,
): Promise<CountryData> {
  const country = addressBook.isCountry(params.country.toUpperCase()) ? params.country.toUpperCase() : '';
  const states = country ? await addressBook.states(country, language) : [];
  const state = states.some((s) => s.key === params.state) ? params.state : '';
  const cities = country && state ? await addressBook.cities(country, state, language) : [];
  const city = cities.find((c) => c.name.toLowerCase() === params.city.toLowerCase())?.name ?? '';
  return {
    country: addressBook.countries(language),
    states,
    cities,
    postalCodes: [],
    selected: {
      country,
      state,
      city,
      postalCode: /^[A-Za-z0-9 -]{1,5}$/.test(params.postal_code) ? params.postal_code : '',
    },
    names: {
      state: translate(language, country === 'ES' ? 'address.province' : 'address.state'),
      city: translate(language, 'address.city'),
    },
  };
}
