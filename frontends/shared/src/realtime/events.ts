// One source of truth: the backend's event map, imported by relative path (it has no imports).
export * from '../../../../backend/src/modules/realtime/events';
