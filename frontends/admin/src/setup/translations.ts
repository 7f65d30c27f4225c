/** Texts of the setup checklist and its banner (admin namespace, key `setup`). */
export const setupEn = {
  title: 'Set up your studio',
  intro: 'Each step shows whether it is set up now. Open its setting, save, then press Test.',
  required: 'Required',
  optional: 'Optional',
  open: 'Open the setting',
  openLabel: 'Open the setting of {{name}}',
  test: 'Test',
  testLabel: 'Test {{name}}',
  testing: 'Testing…',
  works: 'It works.',
  models: '{{count}} models available.',
  results: 'The test search found {{count}} results.',
  answer: 'Answer: {{text}}',
  pricing: 'See the pricing page',
  states: { todo: 'To do', untested: 'Not tested yet', done: 'Done', failed: 'Test failed' },
  items: {
    ai: {
      name: 'AI provider',
      help: 'The API key, or the address of an OpenAI-compatible server, that writes every answer.',
    },
    search: {
      name: 'Web search',
      help: 'The SearXNG server that finds pages when a chat asks to search the web.',
    },
    email: {
      name: 'Email webhooks',
      help: 'Where welcome, password and invitation emails are posted for sending.',
    },
    storage: {
      name: 'File storage',
      help: 'Where uploaded files are kept: an S3 bucket, or the server’s disk.',
    },
    stripe: { name: 'Stripe', help: 'Card payments: the secret key and the webhook signing secret.' },
    paypal: { name: 'PayPal', help: 'PayPal payments: the client ID, the secret and the webhook ID.' },
    branding: { name: 'Branding', help: 'Your app name, tagline, colours and logo.' },
    product: {
      name: 'First product and pricing page',
      help: 'What customers can buy; it appears on the pricing page.',
    },
    signup: { name: 'Sign-up', help: 'Whether anyone can create an account.' },
  },
  details: {
    disk: 'Files are kept on this server’s disk.',
    s3: 'Files are kept in your S3 bucket.',
    open: 'Sign-up is open: anyone can create an account.',
    closed: 'Sign-up is closed: only people you add can sign in.',
    model: 'Default model: {{model}}',
    appName: 'App name: {{name}}',
    products: '{{count}} products on sale.',
  },
  problems: {
    not_configured: 'This is not set up yet. Fill in its settings, save, and test again.',
    address_refused:
      'The address in the settings points to a private network the server may not reach. Use a public address, or ask whoever runs the server to allow it.',
    ai_key_rejected:
      'The AI provider refused the API key. Copy the key again from your provider account, paste it in the settings, save, and test again.',
    ai_unreachable:
      'The AI provider did not answer. Check the server address (or leave it empty to use OpenAI), then test again.',
    ai_no_answer:
      'The AI provider answered without any text. Check that the default model exists at your provider, then test again.',
    search_failed:
      'The web search server did not answer properly. Check its address in the settings, then test again.',
    search_no_results:
      'The web search server answered but found nothing. Check that it has search engines switched on, then test again.',
    email_failed:
      'The email webhook did not accept the message. Check the welcome email webhook address and that your automation tool is on, then test again.',
    storage_write_failed:
      'A file could not be saved. Check the bucket, region and endpoint settings (or the data folder’s permissions), then test again.',
    storage_read_mismatch:
      'A saved file could not be read back as it was written. Check the bucket and its permissions, then test again.',
    stripe_key_rejected:
      'Stripe refused the secret key. Copy the secret key (it starts with sk_) from your Stripe dashboard, paste it, save, and test again.',
    stripe_unreachable: 'Stripe did not answer. Try again in a few minutes.',
    stripe_webhook_secret_missing:
      'The Stripe key works, but the webhook signing secret is missing. Add a webhook in your Stripe dashboard and paste its signing secret (whsec_…) in the settings.',
    paypal_key_rejected:
      'PayPal refused the client ID and secret. Copy both again from your PayPal developer dashboard, save, and test again.',
    paypal_unreachable: 'PayPal did not answer. Try again in a few minutes.',
  },
  warnings: {
    webhook_address_private:
      'Payment providers cannot reach this server’s address yet, so payments will not be confirmed. Publish the app on a public address (PUBLIC_URL).',
    paypal_webhook_id_missing:
      'The PayPal webhook ID is missing: register the webhook at PayPal and paste its ID.',
    ai_models_unlisted: 'The AI server does not list its models; the default model is used.',
  },
  starter: {
    title: 'Starter content',
    loaded:
      '{{templates}} starter templates and {{workflows}} workflows, in English and Spanish, are in the library.',
    removed: 'The starter content was removed; it will not come back.',
    none: 'There is no starter content.',
    remove: 'Remove starter content',
    confirmTitle: 'Remove the starter content?',
    confirmBody:
      'Every starter template and workflow is deleted, including ones you edited. Your own templates stay. This cannot be undone.',
    confirm: 'Remove',
    cancel: 'Cancel',
    done: 'Starter content removed.',
  },
  banner: {
    text: 'Your studio is not fully set up: {{count}} required steps left.',
    link: 'Open the setup checklist',
    dismiss: 'Hide until next sign-in',
  },
};

export const setupEs: typeof setupEn = {
  title: 'Configura tu estudio',
  intro: 'Cada paso muestra si ya está configurado. Abre su ajuste, guarda y pulsa Probar.',
  required: 'Obligatorio',
  optional: 'Opcional',
  open: 'Abrir el ajuste',
  openLabel: 'Abrir el ajuste de {{name}}',
  test: 'Probar',
  testLabel: 'Probar {{name}}',
  testing: 'Probando…',
  works: 'Funciona.',
  models: '{{count}} modelos disponibles.',
  results: 'La búsqueda de prueba encontró {{count}} resultados.',
  answer: 'Respuesta: {{text}}',
  pricing: 'Ver la página de precios',
  states: { todo: 'Pendiente', untested: 'Sin probar', done: 'Hecho', failed: 'La prueba falló' },
  items: {
    ai: {
      name: 'Proveedor de IA',
      help: 'La clave de API, o la dirección de un servidor compatible con OpenAI, que escribe cada respuesta.',
    },
    search: {
      name: 'Búsqueda web',
      help: 'El servidor SearXNG que busca páginas cuando un chat pide buscar en la web.',
    },
    email: {
      name: 'Webhooks de email',
      help: 'Adónde se envían los emails de bienvenida, contraseña e invitación.',
    },
    storage: {
      name: 'Almacenamiento de archivos',
      help: 'Dónde se guardan los archivos subidos: un bucket S3 o el disco del servidor.',
    },
    stripe: {
      name: 'Stripe',
      help: 'Pagos con tarjeta: la clave secreta y el secreto de firma del webhook.',
    },
    paypal: { name: 'PayPal', help: 'Pagos con PayPal: el ID de cliente, el secreto y el ID del webhook.' },
    branding: { name: 'Marca', help: 'El nombre de tu app, el eslogan, los colores y el logo.' },
    product: {
      name: 'Primer producto y página de precios',
      help: 'Lo que pueden comprar los clientes; aparece en la página de precios.',
    },
    signup: { name: 'Registro', help: 'Si cualquiera puede crear una cuenta.' },
  },
  details: {
    disk: 'Los archivos se guardan en el disco de este servidor.',
    s3: 'Los archivos se guardan en tu bucket S3.',
    open: 'El registro está abierto: cualquiera puede crear una cuenta.',
    closed: 'El registro está cerrado: solo pueden entrar las personas que añadas.',
    model: 'Modelo predeterminado: {{model}}',
    appName: 'Nombre de la app: {{name}}',
    products: '{{count}} productos a la venta.',
  },
  problems: {
    not_configured: 'Todavía no está configurado. Rellena sus ajustes, guarda y vuelve a probar.',
    address_refused:
      'La dirección de los ajustes apunta a una red privada a la que el servidor no puede acceder. Usa una dirección pública o pide a quien gestiona el servidor que la permita.',
    ai_key_rejected:
      'El proveedor de IA rechazó la clave de API. Cópiala de nuevo desde tu cuenta del proveedor, pégala en los ajustes, guarda y vuelve a probar.',
    ai_unreachable:
      'El proveedor de IA no respondió. Revisa la dirección del servidor (o déjala vacía para usar OpenAI) y vuelve a probar.',
    ai_no_answer:
      'El proveedor de IA respondió sin texto. Comprueba que el modelo predeterminado existe en tu proveedor y vuelve a probar.',
    search_failed:
      'El servidor de búsqueda web no respondió bien. Revisa su dirección en los ajustes y vuelve a probar.',
    search_no_results:
      'El servidor de búsqueda respondió pero no encontró nada. Comprueba que tiene motores de búsqueda activados y vuelve a probar.',
    email_failed:
      'El webhook de email no aceptó el mensaje. Revisa la dirección del webhook de bienvenida y que tu herramienta de automatización esté activa, y vuelve a probar.',
    storage_write_failed:
      'No se pudo guardar un archivo. Revisa el bucket, la región y el endpoint (o los permisos de la carpeta de datos) y vuelve a probar.',
    storage_read_mismatch:
      'Un archivo guardado no se pudo leer tal como se escribió. Revisa el bucket y sus permisos y vuelve a probar.',
    stripe_key_rejected:
      'Stripe rechazó la clave secreta. Copia la clave secreta (empieza por sk_) desde tu panel de Stripe, pégala, guarda y vuelve a probar.',
    stripe_unreachable: 'Stripe no respondió. Inténtalo de nuevo en unos minutos.',
    stripe_webhook_secret_missing:
      'La clave de Stripe funciona, pero falta el secreto de firma del webhook. Crea un webhook en tu panel de Stripe y pega su secreto de firma (whsec_…) en los ajustes.',
    paypal_key_rejected:
      'PayPal rechazó el ID de cliente y el secreto. Cópialos de nuevo desde tu panel de desarrollador de PayPal, guarda y vuelve a probar.',
    paypal_unreachable: 'PayPal no respondió. Inténtalo de nuevo en unos minutos.',
  },
  warnings: {
    webhook_address_private:
      'Los proveedores de pago aún no pueden llegar a la dirección de este servidor, así que los pagos no se confirmarán. Publica la app en una dirección pública (PUBLIC_URL).',
    paypal_webhook_id_missing:
      'Falta el ID del webhook de PayPal: registra el webhook en PayPal y pega su ID.',
    ai_models_unlisted: 'El servidor de IA no muestra sus modelos; se usa el modelo predeterminado.',
  },
  starter: {
    title: 'Contenido inicial',
    loaded:
      'La biblioteca tiene {{templates}} plantillas y {{workflows}} flujos de trabajo iniciales, en inglés y español.',
    removed: 'El contenido inicial se eliminó; no volverá a aparecer.',
    none: 'No hay contenido inicial.',
    remove: 'Eliminar el contenido inicial',
    confirmTitle: '¿Eliminar el contenido inicial?',
    confirmBody:
      'Se borran todas las plantillas y flujos iniciales, también los que hayas editado. Tus propias plantillas se conservan. No se puede deshacer.',
    confirm: 'Eliminar',
    cancel: 'Cancelar',
    done: 'Contenido inicial eliminado.',
  },
  banner: {
    text: 'Tu estudio no está configurado del todo: quedan {{count}} pasos obligatorios.',
    link: 'Abrir la lista de configuración',
    dismiss: 'Ocultar hasta el próximo inicio de sesión',
  },
};
