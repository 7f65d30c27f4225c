/** Texts of the Settings screen, in the 'customer' namespace under `settings`. */
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
    createTitle: 'Generate an API key',
    expiry: 'Valid for',
    days: '{{count}} days',
    expiresOn: 'Expires on {{date}}',
    staffBadge: 'Staff key',
    staffLabel: 'For staff use',
    staffDescription:
      'The key can do what your staff role allows. Leave it off for everyday tools: the key then acts as a customer account.',
  },
  reauth: {
    label: 'Current password',
    description: 'Type your password again to confirm.',
    required: 'Please type your current password to confirm.',
    wrong: 'Your current password is not correct. Please type it again.',
  },
  security: {
    title: 'Security',
    unverifiedTitle: 'Your email address is not verified',
    unverifiedBody:
      'We sent a link to {{email}}. Open it to verify your address: organizations can add you and you can become staff only once it is verified.',
    resend: 'Send the link again',
    verifySent: 'We sent a new verification link to {{email}}.',
    logoutAllDescription:
      'Signed in on a device you no longer use? Sign out everywhere ends every session, this one included, and revokes your API key.',
    logoutAll: 'Sign out everywhere',
    logoutAllTitle: 'Sign out everywhere?',
    logoutAllBody:
      'Every session on every device ends now, this one too, and your API key stops working. You will sign in again.',
    delete: 'Delete account',
    deleteTitle: 'Delete your account?',
    deleteBody:
      'Your account, conversations, documents and settings are deleted for good. This cannot be undone.',
    deleteRenewing: 'Your subscription still renews. Cancel it in Billing first, then delete your account.',
    goToBilling: 'Go to Billing',
  },
  twoFactor: {
    title: 'Two-factor sign-in',
    on: 'On',
    off: 'Off',
    description:
      'Sign-in asks for a code from an authenticator app (such as Google Authenticator, 1Password or Authy) after your password.',
    required: 'Staff admins must turn on two-factor sign-in before using the back office. Set it up here.',
    setUp: 'Set up two-factor sign-in',
    step1:
      '1. In your authenticator app, add an account and type this key (or open the link below on this device):',
    key: 'Key for your authenticator app',
    uri: 'Link',
    step2: '2. Type the 6-digit code the app shows for it:',
    code: 'Authentication code',
    confirm: 'Turn on',
    enabled: 'Two-factor sign-in is on.',
    disabled: 'Two-factor sign-in is off.',
    turnOff: 'Turn off two-factor sign-in',
    turnOffTitle: 'Turn off two-factor sign-in?',
    invalidCode: 'The code has 6 digits.',
    wrongCode: 'This code is not right. Type the code your app shows now.',
    usedCode: 'This code was used already. Wait for the next code your app shows, then type it.',
  },
  defaultAvatar: {
    title: 'Super Fetch assistant',
    description:
      'Your default avatar: Super Fetch keeps its history and what it learned from your feedback there.',
    current: 'Assistant {{id}}',
    none: 'Made the first time you use Super Fetch or reset it.',
    action: 'Reset',
    confirmTitle: 'Reset your Super Fetch assistant?',
    confirmBody: 'Its history and everything it learned are deleted, and a fresh assistant replaces it.',
    reset: 'Super Fetcch reset.',
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
    createTitle: 'Generar una clave de API',
    expiry: 'Válida por',
    days: '{{count}} días',
    expiresOn: 'Vence el {{date}}',
    staffBadge: 'Clave de staff',
    staffLabel: 'Para uso de staff',
    staffDescription:
      'La clave puede hacer lo que permite tu rol de staff. Déjalo apagado para herramientas del día a día: la clave actúa entonces como una cuenta de cliente.',
  },
  reauth: {
    label: 'Contraseña actual',
    description: 'Escribe tu contraseña de nuevo para confirmar.',
    required: 'Escribe tu contraseña actual para confirmar.',
    wrong: 'Tu contraseña actual no es correcta. Escríbela de nuevo.',
  },
  security: {
    title: 'Seguridad',
    unverifiedTitle: 'Tu correo no está verificado',
    unverifiedBody:
      'Enviamos un enlace a {{email}}. Ábrelo para verificar tu correo: las organizaciones podrán agregarte y podrás ser staff solo cuando esté verificado.',
    resend: 'Enviar el enlace de nuevo',
    verifySent: 'Enviamos un nuevo enlace de verificación a {{email}}.',
    logoutAllDescription:
      '¿Iniciaste sesión en un dispositivo que ya no usas? Cerrar sesión en todas partes termina todas las sesiones, incluida esta, y revoca tu clave de API.',
    logoutAll: 'Cerrar sesión en todas partes',
    logoutAllTitle: '¿Cerrar sesión en todas partes?',
    logoutAllBody:
      'Todas las sesiones en todos los dispositivos terminan ahora, también esta, y tu clave de API deja de funcionar. Volverás a iniciar sesión.',
    delete: 'Eliminar cuenta',
    deleteTitle: '¿Eliminar tu cuenta?',
    deleteBody:
      'Tu cuenta, conversaciones, documentos y configuración se eliminan para siempre. Esto no se puede deshacer.',
    deleteRenewing:
      'Tu suscripción todavía se renueva. Cancélala primero en Facturación y después elimina tu cuenta.',
    goToBilling: 'Ir a Facturación',
  },
  twoFactor: {
    title: 'Inicio de sesión en dos pasos',
    on: 'Activado',
    off: 'Desactivado',
    description:
      'Al iniciar sesión se pide un código de una app de autenticación (como Google Authenticator, 1Password o Authy) después de tu contraseña.',
    required:
      'Los administradores de staff deben activar el inicio de sesión en dos pasos antes de usar el panel. Configúralo aquí.',
    setUp: 'Configurar el inicio de sesión en dos pasos',
    step1:
      '1. En tu app de autenticación, agrega una cuenta y escribe esta clave (o abre el enlace de abajo en este dispositivo):',
    key: 'Clave para tu app de autenticación',
    uri: 'Enlace',
    step2: '2. Escribe el código de 6 dígitos que muestra la app:',
    code: 'Código de autenticación',
    confirm: 'Activar',
    enabled: 'El inicio de sesión en dos pasos está activado.',
    disabled: 'El inicio de sesión en dos pasos está desactivado.',
    turnOff: 'Desactivar el inicio de sesión en dos pasos',
    turnOffTitle: '¿Desactivar el inicio de sesión en dos pasos?',
    invalidCode: 'El código tiene 6 dígitos.',
    wrongCode: 'Este código no es correcto. Escribe el código que tu app muestra ahora.',
    usedCode: 'Este código ya se usó. Espera el siguiente código que muestra tu app y escríbelo.',
  },
  defaultAvatar: {
    title: 'Asistente de Super Fetch',
    description:
      'Tu avatar predeterminado: Super Fetch guarda en él su historial y lo que aprendió de tus valoraciones.',
    current: 'Asistente {{id}}',
    none: 'Se crea la primera vez que usas Super Fetch o lo reinicias.',
    action: 'Reiniciar',
    confirmTitle: '¿Reiniciar tu asistente de Super Fetch?',
    confirmBody: 'Se eliminan su historial y todo lo que aprendió, y un asistente nuevo lo reemplaza.',
    reset: 'Super Fetch reiniciado.',
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
