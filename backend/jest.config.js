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
/** The contracts package is read from its sources, so tests never need its build. */
const moduleNameMapper = {
  '^@avatar-studio/contracts$': '<rootDir>/../libs/contracts/src/index.ts',
  '^@avatar-studio/contracts/(.*)$': '<rootDir>/../libs/contracts/src/$1',
};
module.exports = {
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      transform,
      moduleNameMapper,
      testMatch: ['<rootDir>/src/**/*.spec.ts'],
    },
    {
      displayName: 'api',
      testEnvironment: 'node',
      transform,
      moduleNameMapper,
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
    },
  ],
  testTimeout: 30000,
};
