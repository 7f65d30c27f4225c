/** Texts of the invitee's invitations screen (namespace "org", keys under "invitations"). */
export const invitationsEn = {
  title: 'Invitations',
  empty: 'You have no pending invitations.',
  fromEmail: 'You opened an invitation to join an organization.',
  fromEmailHint: 'Accepting adds {{email}} to the organization that invited this email.',
  accept: 'Accept',
  decline: 'Decline',
  notNow: 'Not now',
  acceptOf: 'Accept the invitation of {{name}}',
  declineOf: 'Decline the invitation of {{name}}',
  invitedBy: 'Invited by {{name}}',
  invitedBySomeone: 'Invited',
  expires: 'expires {{date}}',
  accepted: 'You joined the organization.',
  declined: 'Invitation declined.',
  expired: 'This invitation has expired. Ask the organization for a new one.',
  notForYou:
    'This invitation is not valid anymore, or it was sent to another email. You are signed in as {{email}}.',
  roles: {
    Admin: 'Admin',
    Manager: 'Manager',
    Member: 'Member',
  },
};

export const invitationsEs: typeof invitationsEn = {
  title: 'Invitaciones',
  empty: 'No tienes invitaciones pendientes.',
  fromEmail: 'Abriste una invitación para unirte a una organización.',
  fromEmailHint: 'Al aceptar, {{email}} se une a la organización que invitó a este correo.',
  accept: 'Aceptar',
  decline: 'Rechazar',
  notNow: 'Ahora no',
  acceptOf: 'Aceptar la invitación de {{name}}',
  declineOf: 'Rechazar la invitación de {{name}}',
  invitedBy: 'Invitación de {{name}}',
  invitedBySomeone: 'Invitación',
  expires: 'vence el {{date}}',
  accepted: 'Te uniste a la organización.',
  declined: 'Invitación rechazada.',
  expired: 'Esta invitación venció. Pide una nueva a la organización.',
  notForYou: 'Esta invitación ya no es válida o se envió a otro correo. Iniciaste sesión como {{email}}.',
  roles: {
    Admin: 'Administrador',
    Manager: 'Gerente',
    Member: 'Miembro',
  },
};
