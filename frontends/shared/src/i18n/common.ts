/** Texts of the shared UI kit (namespace "common"). */
export const commonEn = {
  loading: 'Loading...',
  retry: 'Retry',
  back: 'Back',
  personal: 'Personal',
  remoteError: {
    title: 'This section could not be loaded',
    body: 'Check your connection and try again.',
  },
  notFound: 'Page not found.',
  home: 'Go to the home page',
  featureOff: {
    title: 'This feature is switched off',
    body: 'The {{name}} feature is switched off in this app. Ask an administrator if you need it.',
  },
  startError: 'The application could not start. Check your connection and try again.',
  viewingAs: {
    banner: 'Viewing as {{name}}',
    hint: 'What you do here is recorded as yours, on their behalf. This view ends at {{time}}.',
    exit: 'Exit',
  },
  staffScope: {
    pendingTitle: 'You are not a member of {{name}}',
    pendingBody:
      'This link opens {{name}}. As staff you can act in it, and what you do there affects its data. Confirm to continue.',
    confirm: 'Act in {{name}} as staff',
    stayIn: 'Stay in {{name}}',
    stayPersonal: 'Stay in Personal',
    active: 'You are acting in {{name}} as staff; you are not a member.',
    leave: 'Leave',
  },
  premiumFeature: 'This is a premium feature. Please, upgrade your account.',
  close: 'Close',
  colour: { saturation: 'Saturation', hue: 'Hue', alpha: 'Opacity' },
};

export const commonEs: typeof commonEn = {
  loading: 'Cargando...',
  retry: 'Reintentar',
  back: 'Regresar',
  personal: 'Personal',
  remoteError: {
    title: 'No se pudo cargar esta sección',
    body: 'Revisa tu conexión e inténtalo de nuevo.',
  },
  notFound: 'Página no encontrada.',
  home: 'Ir a la página de inicio',
  featureOff: {
    title: 'Esta función está desactivada',
    body: 'La función {{name}} está desactivada en esta aplicación. Pide a un administrador que la active si la necesitas.',
  },
  startError: 'La aplicación no pudo iniciar. Revisa tu conexión e inténtalo de nuevo.',
  viewingAs: {
    banner: 'Viendo como {{name}}',
    hint: 'Lo que hagas aquí queda registrado como tuyo, en su nombre. Esta vista termina a las {{time}}.',
    exit: 'Salir',
  },
  staffScope: {
    pendingTitle: 'No eres miembro de {{name}}',
    pendingBody:
      'Este enlace abre {{name}}. Como personal puedes actuar en ella, y lo que hagas afecta sus datos. Confirma para continuar.',
    confirm: 'Actuar en {{name}} como personal',
    stayIn: 'Quedarme en {{name}}',
    stayPersonal: 'Quedarme en Personal',
    active: 'Estás actuando en {{name}} como personal; no eres miembro.',
    leave: 'Salir',
  },
  premiumFeature: 'Esta es una función premium. Por favor, mejora tu cuenta.',
  close: 'Cerrar',
  colour: { saturation: 'Saturación', hue: 'Tono', alpha: 'Opacidad' },
};
