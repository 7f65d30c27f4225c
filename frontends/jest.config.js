/**
 * Component tests of every frontend: `npx jest --config frontends/jest.config.js` from the repository root.
 * Picks up frontends/<app>/src/**\/*.test.ts(x); tests mock global fetch, not modules.
 */
const path = require('node:path');

const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', tsx: true },
      transform: { react: { runtime: 'automatic' } },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
  },
];

/** @type {import('jest').Config} */
module.exports = {
  rootDir: __dirname,
  displayName: 'frontends',
  testEnvironment: path.join(__dirname, 'jest.environment.js'),
  testMatch: ['<rootDir>/*/src/**/*.test.{ts,tsx}'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  transform: { '^.+\\.(t|j)sx?$': swc },
  moduleNameMapper: {
    '\\.(css|less|scss)$': 'identity-obj-proxy',
    '\\.(png|jpe?g|gif|svg|webp|mp4|woff2?)$': '<rootDir>/test-utils/file-stub.js',
    '^@avatar-studio/shared$': '<rootDir>/shared/src/index.ts',
    '^@avatar-studio/shared/(.*)$': '<rootDir>/shared/src/$1',
    '^@avatar-studio/contracts$': '<rootDir>/../libs/contracts/src/index.ts',
    '^@avatar-studio/contracts/(.*)$': '<rootDir>/../libs/contracts/src/$1',
  },
  setupFilesAfterEnv: ['<rootDir>/jest.setup.ts'],
  testTimeout: 30000,
};
