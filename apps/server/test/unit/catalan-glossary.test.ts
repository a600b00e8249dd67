import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../../src/i18n/messages.ts';

/**
 * One glossary and one button mood for the Catalan texts, the web's and the server's. Commands
 * the user gives the program are in the imperative (Optimot, "accions en les interfícies digitals:
 * infinitiu o imperatiu?": Desa, Cancel·la, Accepta), so no text starts with the infinitive of
 * one; and a thing has one name (pàrquing, never parking).
 */
const IMPERATIVE: Record<string, string> = {
  Acceptar: 'Accepta',
  Activar: 'Activa',
  Afegir: 'Afegeix',
  Anar: 'Vés',
  Cancel·lar: 'Cancel·la',
  Canviar: 'Canvia',
  Cercar: 'Cerca',
  Confirmar: 'Confirma',
  Copiar: 'Copia',
  Crear: 'Crea',
  Desactivar: 'Desactiva',
  Desar: 'Desa',
  Editar: 'Edita',
  Eliminar: 'Elimina',
  Entrar: 'Entra',
  Enviar: 'Envia',
  Exportar: 'Exporta',
  Filtrar: 'Filtra',
  Generar: 'Genera',
  Gestionar: 'Gestiona',
  Instal·lar: 'Instal·la',
  Mostrar: 'Mostra',
  Obrir: 'Obre',
  Restaurar: 'Restaura',
  Tancar: 'Tanca',
  Tornar: 'Torna',
  Verificar: 'Verifica',
  Veure: 'Mostra',
  Visitar: 'Visita',
};

/** Words that are not the glossary's, and the word to use instead. */
const GLOSSARY: [RegExp, string][] = [[/\bparking\b/i, 'pàrquing']];

function strings(value: unknown, at = ''): [string, string][] {
  if (typeof value === 'string') return [[at, value]];
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, inner]) => strings(inner, at ? `${at}.${key}` : key));
  }
  return [];
}

const web = JSON.parse(readFileSync(path.join(import.meta.dirname, '../../../web/src/locales/ca.json'), 'utf8'));
const texts: [string, string][] = [
  ...strings(web).map(([key, text]): [string, string] => [`web ${key}`, text]),
  ...strings(MESSAGES.ca).map(([key, text]): [string, string] => [`server ${key}`, text]),
];

describe('Catalan texts', () => {
  it('give commands in the imperative, never the infinitive', () => {
    const infinitives = texts
      .filter(([, text]) => (text.split(/\s/)[0] ?? '') in IMPERATIVE)
      .map(([key, text]) => `${key}: "${text}" (${IMPERATIVE[text.split(/\s/)[0] ?? '']}…)`);
    expect(infinitives).toEqual([]);
  });

  it('use one word for one thing', () => {
    const off = texts.flatMap(([key, text]) =>
      GLOSSARY.filter(([word]) => word.test(text)).map(([, instead]) => `${key}: "${text}" (${instead})`),
    );
    expect(off).toEqual([]);
  });
});
