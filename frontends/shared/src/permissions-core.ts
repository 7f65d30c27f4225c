// Permissions come from the contracts package, which the server enforces.
export * from '@avatar-studio/contracts/permissions';
