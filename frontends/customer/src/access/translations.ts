/** Texts of the out-of-credits notice, in the 'customer' namespace under `outOfCredits`. */
export const outOfCreditsEn = {
  heading: "Oops! You're out of credits.",
  subscription: 'Creating more content with the product requires an active subscription.',
  seePlans: 'See plans',
  backHome: 'Back to home',
};

export const outOfCreditsEs: typeof outOfCreditsEn = {
  heading: '¡Ups! Te quedaste sin créditos.',
  subscription: 'Crear más contenido con el producto requiere una suscripción activa.',
  seePlans: 'Ver planes',
  backHome: 'Volver al inicio',
};
