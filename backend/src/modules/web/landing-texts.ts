/** The landing page's own words (the app config supplies the product's texts), in English and Spanish. */
export interface LandingTexts {
  signIn: string;
  signUp: string;
  getStarted: string;
  featuresHeading: string;
  benefitsHeading: string;
  videoHeading: string;
  offerCta: string;
  consentText: string;
  consentAccept: string;
  consentDecline: string;
  otherLanguage: string;
  rights: string;
}

export const LANDING_TEXTS: Record<'en' | 'es', LandingTexts> = {
  en: {
    signIn: 'Sign in',
    signUp: 'Sign up',
    getStarted: 'Get started',
    featuresHeading: 'What you can do',
    benefitsHeading: 'Why teams choose us',
    videoHeading: 'See it in action',
    offerCta: 'Learn more',
    consentText: 'We use cookies to measure visits to this page. Do you accept them?',
    consentAccept: 'Accept',
    consentDecline: 'Decline',
    otherLanguage: 'Español',
    rights: 'All rights reserved.',
  },
  es: {
    signIn: 'Iniciar sesión',
    signUp: 'Registrarse',
    getStarted: 'Comenzar',
    featuresHeading: 'Lo que puedes hacer',
    benefitsHeading: 'Por qué nos eligen',
    videoHeading: 'Míralo en acción',
    offerCta: 'Más información',
    consentText: 'Usamos cookies para medir las visitas a esta página. ¿Las aceptas?',
    consentAccept: 'Aceptar',
    consentDecline: 'Rechazar',
    otherLanguage: 'English',
    rights: 'Todos los derechos reservados.',
  },
};
