// One source of truth: the backend's permission table, imported by relative path (it has no imports).
export * from '../../../backend/src/common/auth/permissions';
