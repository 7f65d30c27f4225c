/** Texts of the tutorial screens (customer namespace, key `tutorials`). */
export const tutorialsEn = {
  nav: 'Tutorials',
  title: 'Tutorials',
  empty: 'No tutorials yet.',
  play: 'Play',
  playOne: 'Play {{name}}',
  back: 'Tutorials',
  notFound: 'This tutorial does not exist.',
};

export const tutorialsEs: typeof tutorialsEn = {
  nav: 'Tutoriales',
  title: 'Tutoriales',
  empty: 'Aún no hay tutoriales.',
  play: 'Reproducir',
  playOne: 'Reproducir {{name}}',
  back: 'Tutoriales',
  notFound: 'Este tutorial no existe.',
};
