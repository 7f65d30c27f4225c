/** Unit tests of the contracts package: `npx jest --config libs/contracts/jest.config.js`. */
module.exports = {
  rootDir: __dirname,
  displayName: 'contracts',
  testEnvironment: 'node',
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } },
    ],
  },
};
