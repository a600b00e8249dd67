import { getCitiesOfState, getStatesOfCountry } from '@countrystatecity/countries';
import type { Language } from '@panel247/contract/constants';
import countries from 'i18n-iso-countries';
import ca from 'i18n-iso-countries/langs/ca.json' with { type: 'json' };
import en from 'i18n-iso-countries/langs/en.json' with { type: 'json' };
import es from 'i18n-iso-countries/langs/es.json' with { type: 'json' };

countries.registerLocale(es);
countries.registerLocale(en);
countries.registerLocale(ca);

export interface Place {
  key: string;
  name: string;
}

const collator: Record<Language, Intl.Collator> = {
  es: new Intl.Collator('es'),
  en: new Intl.Collator('en'),
  ca: new Intl.Collator('ca'),
};

/**
 * Countries, states and cities from maintained data sets: country names in es/en/ca from
 * i18n-iso-countries; states and cities from @countrystatecity/countries. That package carries a
 * `translations` map on states and cities, but it is empty for every one of them (1.0.9: 5,308
 * states, 152,970 cities), and its `native` field holds machine translations ("Nuestro" for
 * Ourense), so states and cities keep their local names in every language. Neither set has postal
 * codes, so the postal code stays a free input.
 */
export const addressBook = {
  countries(language: Language): Record<string, string> {
    const names = countries.getNames(language, { select: 'official' });
    const sorted = Object.entries(names).sort((a, b) => collator[language].compare(a[1], b[1]));
    return Object.fromEntries(sorted);
  },

  isCountry(code: string): boolean {
    return countries.isValid(code) && /^[A-Z]{2}$/.test(code);
  },

  countryName(code: string, language: Language): string {
    return countries.getName(code, language) ?? code;
  },

  async states(country: string, language: Language): Promise<Place[]> {
    if (!this.isCountry(country)) return [];
    const states = await getStatesOfCountry(country).catch(() => []);
    return states
      .map((state) => ({ key: state.iso2 ?? String(state.id), name: state.name }))
      .sort((a, b) => collator[language].compare(a.name, b.name));
  },

  async cities(country: string, state: string, language: Language): Promise<Place[]> {
    if (!this.isCountry(country) || !/^[A-Za-z0-9-]{1,10}$/.test(state)) return [];
    const cities = await getCitiesOfState(country, state).catch(() => []);
    return cities
      .map((city) => ({ key: String(city.id), name: city.name }))
      .sort((a, b) => collator[language].compare(a.name, b.name));
  },
};
