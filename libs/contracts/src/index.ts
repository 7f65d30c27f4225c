/** @avatar-studio/contracts: what the backend and the frontends both speak. It imports nothing of ours. */
export * from './events';
export * from './permissions';
export * as templateGrammar from './template-grammar';
export * from './limits';
export * from './error-codes';
export * from './phone';
export * from './auth';
export * from './audit';
export * from './organization-scope';
export * from './billing';
export * from './customers';
export * from './payments';
export * from './feature-flags';
export * from './campaigns';
export * from './widget';
export * from './trainings';
export * from './setup';
export * from './routes';
