// One source of truth: the backend's template placeholder grammar and save messages, imported by relative path
// (it has no imports), so the editor derives fields and words its errors exactly as the server does.
export * from '../../../backend/src/modules/templates/template-grammar';
