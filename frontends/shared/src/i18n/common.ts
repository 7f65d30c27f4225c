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
  startError: 'The application could not start. Check your connection and try again.',
  premiumFeature: 'This is a premium feature. Please, upgrade your account.',
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
  startError: 'La aplicación no pudo iniciar. Revisa tu conexión e inténtalo de nuevo.',
  premiumFeature: 'Esta es una función premium. Por favor, mejora tu cuenta.',
};
