/** Texts of the Settings screen (000 §2), in the 'customer' namespace under `settings`. */
export const settingsEn = {
  nav: 'Settings',
  title: 'Settings',
  apiKey: {
    title: 'API key',
    description:
      'Use a personal API key to call the API from your own tools: send it as "Authorization: Bearer <key>".',
    current: 'Current key',
    none: 'You have no API key.',
    generate: 'Generate key',
    regenerate: 'Generate new key',
    revoke: 'Revoke key',
    newKeyTitle: 'Your new API key',
    newKeyNotice: 'Copy this key now: it is shown only once. Keep it secret.',
    copy: 'Copy',
    copied: 'Copied to clipboard.',
    copyFailed: 'Unable to copy content to clipboard. Please copy manually.',
    hide: 'Done',
    replaceTitle: 'Generate a new API key?',
    replaceBody: 'Your current key stops working at once. Tools that use it need the new key.',
    revokeTitle: 'Revoke your API key?',
    revokeBody: 'Tools that use this key stop working at once.',
    revoked: 'API key revoked.',
    cancel: 'Cancel',
  },
  webhook: {
    label: 'Integration webhook URL',
    description: 'We send your generated content to this address (for example a Zapier webhook).',
    invalid: 'The webhook URL must be an http or https URL.',
  },
  language: {
    label: 'Language',
  },
  manualMode: {
    label: 'Manual mode',
  },
  darkMode: {
    label: 'Dark mode',
  },
  save: 'Save',
  saved: 'Settings saved.',
  tutorial: 'Watch the tutorial',
};

export const settingsEs: typeof settingsEn = {
  nav: 'Configuración',
  title: 'Configuración',
  apiKey: {
    title: 'Clave de API',
    description:
      'Usa una clave de API personal para llamar a la API desde tus propias herramientas: envíala como "Authorization: Bearer <clave>".',
    current: 'Clave actual',
    none: 'No tienes una clave de API.',
    generate: 'Generar clave',
    regenerate: 'Generar una clave nueva',
    revoke: 'Revocar clave',
    newKeyTitle: 'Tu nueva clave de API',
    newKeyNotice: 'Copia esta clave ahora: solo se muestra una vez. Mantenla en secreto.',
    copy: 'Copiar',
    copied: 'Copiado al portapapeles.',
    copyFailed: 'No se pudo copiar el contenido al portapapeles. Cópialo manualmente.',
    hide: 'Listo',
    replaceTitle: '¿Generar una clave de API nueva?',
    replaceBody:
      'Tu clave actual deja de funcionar de inmediato. Las herramientas que la usan necesitan la nueva.',
    revokeTitle: '¿Revocar tu clave de API?',
    revokeBody: 'Las herramientas que usan esta clave dejan de funcionar de inmediato.',
    revoked: 'Clave de API revocada.',
    cancel: 'Cancelar',
  },
  webhook: {
    label: 'URL del webhook de integración',
    description: 'Enviamos tu contenido generado a esta dirección (por ejemplo, un webhook de Zapier).',
    invalid: 'La URL del webhook debe ser una URL http o https.',
  },
  language: {
    label: 'Idioma',
  },
  manualMode: {
    label: 'Modo manual',
  },
  darkMode: {
    label: 'Modo oscuro',
  },
  save: 'Guardar',
  saved: 'Configuración guardada.',
  tutorial: 'Ver el tutorial',
};
