/** Texts of the welcome walkthrough (namespace "customer", keys under "welcome"). */
export const welcomeEn = {
  title: 'Welcome to {{app}}',
  intro: 'Work with AI assistants on conversations, templates, documents and workflows, in one place.',
  steps: {
    title: 'What you can do',
    avatars: 'Chat with AI assistants (avatars) that know your brand and tone.',
    templates: 'Start from templates that turn a few answers into finished content.',
    documents: 'Keep your documents and let the assistants write and edit them with you.',
    workflows: 'Chain templates into workflows that produce a whole campaign in one run.',
  },
  plans: {
    title: 'Plans',
    perMonth: 'USD / mo',
    unlimited: 'Unlimited words!',
    words: '{{words}} words',
    none: 'No plans are on sale right now.',
    choose: 'Choose {{name}}',
  },
  seePricing: 'See pricing',
  start: 'Start a conversation',
  hasAccess: 'Your account is ready: you can start right away.',
};

export const welcomeEs: typeof welcomeEn = {
  title: 'Bienvenido a {{app}}',
  intro: 'Trabaja con asistentes de IA en conversaciones, plantillas, documentos y flujos, en un solo lugar.',
  steps: {
    title: 'Lo que puedes hacer',
    avatars: 'Conversa con asistentes de IA (avatares) que conocen tu marca y tu tono.',
    templates: 'Parte de plantillas que convierten unas pocas respuestas en contenido terminado.',
    documents: 'Guarda tus documentos y deja que los asistentes los escriban y editen contigo.',
    workflows: 'Encadena plantillas en flujos que producen una campaña completa de una vez.',
  },
  plans: {
    title: 'Planes',
    perMonth: 'USD / mes',
    unlimited: '¡Palabras ilimitadas!',
    words: '{{words}} palabras',
    none: 'No hay planes a la venta en este momento.',
    choose: 'Elegir {{name}}',
  },
  seePricing: 'Ver precios',
  start: 'Empezar una conversación',
  hasAccess: 'Tu cuenta está lista: puedes empezar ahora mismo.',
};
