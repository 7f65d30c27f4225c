/** Two tiers: unit specs beside the code, API specs in test/ against real PostgreSQL and Redis. */
const transform = {
  '^.+\\.ts$': [
    '@swc/jest',
    {
      jsc: {
        parser: { syntax: 'typescript', decorators: true },
        transform: { legacyDecorator: true, decoratorMetadata: true },
        target: 'es2022',
      },
      module: { type: 'commonjs' },
    },
  ],
};
module.exports = {
  projects: [
    { displayName: 'unit', testEnvironment: 'node', transform, testMatch: ['<rootDir>/src/**/*.spec.ts'] },
    {
      displayName: 'api',
      testEnvironment: 'node',
      transform,
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
    },
  ],
  testTimeout: 30000,
};
