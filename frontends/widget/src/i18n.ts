/** The widget's words in English and Spanish, chosen from the page's language, else the browser's. */
const TEXTS = {
  en: {
    open: 'Open chat: {name}',
    close: 'Close chat',
    placeholder: 'Type your message',
    send: 'Send',
    sending: 'Sending…',
    you: 'You',
    writing: '{name} is writing…',
    failed: 'Something went wrong. Please try again.',
    offline: 'The chat could not be reached. Please try again later.',
    empty: 'Ask me anything.',
    preview: 'Preview: visitors chat here once the widget is on your site.',
  },
  es: {
    open: 'Abrir chat: {name}',
    close: 'Cerrar chat',
    placeholder: 'Escribe tu mensaje',
    send: 'Enviar',
    sending: 'Enviando…',
    you: 'Tú',
    writing: '{name} está escribiendo…',
    failed: 'Algo salió mal. Inténtalo de nuevo.',
    offline: 'No se pudo conectar con el chat. Inténtalo más tarde.',
    empty: 'Pregúntame lo que quieras.',
    preview: 'Vista previa: los visitantes chatean aquí cuando el widget esté en tu sitio.',
  },
} as const;

export type Language = keyof typeof TEXTS;
export type TextKey = keyof (typeof TEXTS)['en'];

/** The server's sentences a visitor may read, in Spanish (English is the server's own wording). */
const SERVER_ES: Record<string, string> = {
  'This chat is not available right now.': 'Este chat no está disponible en este momento.',
  'This chat is not allowed on this site.': 'Este chat no está permitido en este sitio.',
  'Too many people are chatting right now. Please try again in a moment.':
    'Hay demasiadas personas chateando ahora. Inténtalo de nuevo en un momento.',
  'This chat has answered all it can today. Please come back tomorrow.':
    'Este chat ya respondió todo lo que podía hoy. Vuelve mañana.',
  'You are sending messages too quickly. Please wait a moment.':
    'Estás enviando mensajes demasiado rápido. Espera un momento.',
};

export function pickLanguage(doc: Document = document, nav: Navigator = navigator): Language {
  const tag = (doc.documentElement.lang || nav.language || 'en').toLowerCase();
  return tag.startsWith('es') ? 'es' : 'en';
}

export function translator(language: Language) {
  const t = (key: TextKey, name = '') => TEXTS[language][key].replace('{name}', name);
  const server = (sentence: string) => (language === 'es' ? (SERVER_ES[sentence] ?? sentence) : sentence);
  return { t, server };
}
export type Translator = ReturnType<typeof translator>;
