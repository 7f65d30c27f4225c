/** Texts of the admin Audit log screen, in the 'admin' namespace under `audit`. */
export const auditEn = {
  nav: 'Audit',
  title: 'Audit log',
  actor: 'Actor (user ID)',
  target: 'Target (user ID)',
  action: 'Action',
  anyAction: 'Any action',
  dateRange: 'Date range',
  columns: {
    time: 'Time',
    action: 'Action',
    actor: 'Actor',
    target: 'Target',
    details: 'Details',
  },
  system: 'System',
  user: 'User {{id}}',
  empty: 'No audit records found.',
  total: '{{count}} records',
};

export const auditEs: typeof auditEn = {
  nav: 'Auditoría',
  title: 'Registro de auditoría',
  actor: 'Autor (ID de usuario)',
  target: 'Objetivo (ID de usuario)',
  action: 'Acción',
  anyAction: 'Cualquier acción',
  dateRange: 'Rango de fechas',
  columns: {
    time: 'Hora',
    action: 'Acción',
    actor: 'Autor',
    target: 'Objetivo',
    details: 'Detalles',
  },
  system: 'Sistema',
  user: 'Usuario {{id}}',
  empty: 'No se encontraron registros de auditoría.',
  total: '{{count}} registros',
};
