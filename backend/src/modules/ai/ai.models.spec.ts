import { NO_KEY, pickProvider, ProviderInputs, resolveModel, XAI_DEFAULT_BASE_URL } from './ai.models';

const noEnv = { openaiApiKey: null, openaiBaseUrl: null, xaiApiKey: null, xaiBaseUrl: null };
const inputs = (over: Partial<ProviderInputs> = {}): ProviderInputs => ({
  model: 'gpt-4o-mini',
  organizationKey: null,
  appConfigKey: null,
  env: noEnv,
  ...over,
});

describe('resolveModel', () => {
  it.each([null, undefined, '', '  ', 'Unset'])('uses the app config model for %j', (requested) => {
    expect(resolveModel(requested, 'gpt-4.1')).toBe('gpt-4.1');
  });

  it('falls back to gpt-4o-mini when the app config has no model', () => {
    expect(resolveModel(null, null)).toBe('gpt-4o-mini');
    expect(resolveModel('Unset', 'Unset')).toBe('gpt-4o-mini');
  });

  it('keeps a chosen model as it is', () => {
    expect(resolveModel('grok-2-latest', 'gpt-4o-mini')).toBe('grok-2-latest');
    expect(resolveModel(' llama3.1 ', null)).toBe('llama3.1');
  });
});

describe('pickProvider', () => {
  const env = { ...noEnv, openaiApiKey: 'sk-env', openaiBaseUrl: 'http://local/v1' };

  it("uses the organization's key before the app config's and the env's", () => {
    const choice = pickProvider(inputs({ organizationKey: 'sk-org', appConfigKey: 'sk-app', env }));
    expect(choice).toMatchObject({ apiKey: 'sk-org', source: 'organization', provider: 'openai' });
  });

  it("uses the app config's key before the env's", () => {
    expect(pickProvider(inputs({ appConfigKey: 'sk-app', env }))).toMatchObject({
      apiKey: 'sk-app',
      source: 'app_config',
    });
  });

  it('uses OPENAI_API_KEY and OPENAI_BASE_URL last', () => {
    expect(pickProvider(inputs({ organizationKey: '  ', env }))).toEqual({
      provider: 'openai',
      model: 'gpt-4o-mini',
      apiKey: 'sk-env',
      baseURL: 'http://local/v1',
      source: 'env_openai',
    });
  });

  it("leaves the base URL to the SDK's default when none is set", () => {
    expect(pickProvider(inputs({ appConfigKey: 'sk-app' }))?.baseURL).toBeNull();
  });

  it('sends grok models to xAI with its default base URL when XAI_API_KEY is set', () => {
    const choice = pickProvider(
      inputs({ model: 'grok-2-latest', organizationKey: 'sk-org', env: { ...env, xaiApiKey: 'xai-key' } }),
    );
    expect(choice).toMatchObject({
      provider: 'xai',
      apiKey: 'xai-key',
      baseURL: XAI_DEFAULT_BASE_URL,
      source: 'env_xai',
    });
  });

  it('honours XAI_BASE_URL', () => {
    const choice = pickProvider(
      inputs({
        model: 'grok-2-latest',
        env: { ...noEnv, xaiApiKey: 'x', xaiBaseUrl: 'http://xai.local/v1' },
      }),
    );
    expect(choice?.baseURL).toBe('http://xai.local/v1');
  });

  it('sends grok models through the OpenAI key chain when no xAI key is set', () => {
    expect(pickProvider(inputs({ model: 'grok-2-latest', env }))).toMatchObject({
      provider: 'openai',
      apiKey: 'sk-env',
    });
  });

  it('does not use the xAI key for other models', () => {
    expect(pickProvider(inputs({ env: { ...noEnv, xaiApiKey: 'xai-key' } }))).toBeNull();
  });

  it('returns null when no key is set anywhere', () => {
    expect(pickProvider(inputs())).toBeNull();
  });

  it("uses the admin's base URL before OPENAI_BASE_URL, with whichever key comes first", () => {
    const choice = pickProvider(
      inputs({ appConfigKey: 'sk-app', appConfigBaseUrl: 'http://ai.internal/v1', env }),
    );
    expect(choice).toMatchObject({
      apiKey: 'sk-app',
      baseURL: 'http://ai.internal/v1',
      source: 'app_config',
    });
  });

  it("counts the admin's base URL alone as a provider (a local server needs no key)", () => {
    const choice = pickProvider(inputs({ appConfigBaseUrl: 'http://127.0.0.1:11434/v1' }));
    expect(choice).toMatchObject({
      apiKey: NO_KEY,
      baseURL: 'http://127.0.0.1:11434/v1',
      provider: 'openai',
    });
    expect(pickProvider(inputs({ env: { ...noEnv, openaiBaseUrl: 'http://local/v1' } }))).toBeNull();
  });
});
