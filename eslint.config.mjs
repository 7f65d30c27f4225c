import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/**
 * The layers: shell -> remotes -> shared -> contracts, and backend -> contracts. A layer imports only the ones
 * below it, by package name; the contracts package imports nothing of ours, and no frontend imports the backend.
 */
const forbid = (group, message) => ({ group, message });
const NO_BACKEND = forbid(
  ['**/backend/**', 'backend/**'],
  'Frontends never import the backend: put what both sides speak in @avatar-studio/contracts.',
);
const CONTRACTS_BY_NAME = forbid(
  ['**/libs/contracts/**'],
  'Import the contracts package by its name, @avatar-studio/contracts.',
);
const NO_SHELL = forbid(
  ['**/shell/**', 'shell/**'],
  'Only the shell imports the shell; remotes and shared sit below it.',
);
const remoteSources = (except) =>
  forbid(
    ['customer', 'admin', 'org']
      .filter((r) => r !== except)
      .flatMap((r) => [`**/${r}/src/**`, `${r}/src/**`]),
    'A remote is loaded through Module Federation, never imported from another frontend.',
  );
const layer = (files, ...patterns) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { patterns }] },
});

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/coverage/**',
      'data/**',
      '.nx/**',
      'frontends/shared/src/api/schema.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser, ...globals.jest } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
  {
    files: ['frontends/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    // Only the config module reads the environment.
    files: ['backend/src/**/*.ts'],
    ignores: ['backend/src/config/env.ts', 'backend/src/main.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: 'Read configuration through AppEnv (src/config/env.ts).',
        },
      ],
    },
  },
  layer(
    ['libs/contracts/**/*.ts'],
    forbid(
      ['@avatar-studio/*', '**/backend/**', '**/frontends/**', '../../**'],
      'The contracts package imports nothing of ours: it is the bottom layer.',
    ),
  ),
  layer(
    ['backend/**/*.ts'],
    forbid(
      ['@avatar-studio/shared', '@avatar-studio/shared/*', '**/frontends/**'],
      'The backend imports only @avatar-studio/contracts of the shared code.',
    ),
    CONTRACTS_BY_NAME,
  ),
  layer(['frontends/shared/**/*.{ts,tsx,js}'], NO_BACKEND, CONTRACTS_BY_NAME, NO_SHELL, remoteSources(null)),
  layer(
    ['frontends/customer/**/*.{ts,tsx,js}'],
    NO_BACKEND,
    CONTRACTS_BY_NAME,
    NO_SHELL,
    remoteSources('customer'),
  ),
  layer(
    ['frontends/admin/**/*.{ts,tsx,js}'],
    NO_BACKEND,
    CONTRACTS_BY_NAME,
    NO_SHELL,
    remoteSources('admin'),
  ),
  layer(['frontends/org/**/*.{ts,tsx,js}'], NO_BACKEND, CONTRACTS_BY_NAME, NO_SHELL, remoteSources('org')),
  layer(['frontends/shell/**/*.{ts,tsx,js}'], NO_BACKEND, CONTRACTS_BY_NAME, remoteSources(null)),
);
