import type { Language } from '@panel247/contract/constants';

/**
 * The privacy policy a brand gets until the provider writes its own (`npm run panel -- legal set`).
 * {company} is replaced with the brand's name.
 */
export const DEFAULT_PRIVACY_POLICY: Record<Language, { title: string; text: string }> = {
  es: {
    title: 'Política de privacidad',
    text: [
      '{company} trata los datos que envías en este formulario solo para atender tu solicitud.',
      'Responsable: {company}. Finalidad: responder a tu mensaje y, si lo pides, ayudarte a recuperar el acceso al panel. Base jurídica: tu consentimiento y la relación contractual con tu empresa.',
      'Conservamos los mensajes el tiempo necesario para atenderlos y cumplir obligaciones legales. No los cedemos a terceros salvo obligación legal.',
      'Puedes ejercer tus derechos de acceso, rectificación, supresión, oposición, limitación y portabilidad escribiendo al contacto de {company}.',
    ].join('\n\n'),
  },
  en: {
    title: 'Privacy policy',
    text: [
      '{company} processes the data you send in this form only to handle your request.',
      'Controller: {company}. Purpose: to answer your message and, if you ask, to help you recover access to the panel. Legal basis: your consent and the contract with your company.',
      'Messages are kept as long as needed to handle them and to meet legal obligations. They are not given to third parties unless the law requires it.',
      'You may exercise your rights of access, rectification, erasure, objection, restriction and portability by writing to {company}.',
    ].join('\n\n'),
  },
  ca: {
    title: 'Política de privadesa',
    text: [
      '{company} tracta les dades que envies en aquest formulari només per atendre la teva sol·licitud.',
      'Responsable: {company}. Finalitat: respondre el teu missatge i, si ho demanes, ajudar-te a recuperar l’accés al panell. Base jurídica: el teu consentiment i la relació contractual amb la teva empresa.',
      'Conservem els missatges el temps necessari per atendre’ls i complir obligacions legals. No els cedim a tercers llevat d’obligació legal.',
      'Pots exercir els teus drets d’accés, rectificació, supressió, oposició, limitació i portabilitat escrivint a {company}.',
    ].join('\n\n'),
  },
};
