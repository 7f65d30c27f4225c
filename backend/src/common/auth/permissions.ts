// Moved to the contracts package (both sides speak it); this path stays for existing imports.
export * from '@avatar-studio/contracts/permissions';
