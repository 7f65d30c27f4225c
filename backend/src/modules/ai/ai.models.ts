/** The AI providers we speak to. Both talk the OpenAI Chat Completions protocol. */
export type AiProviderName = 'openai' | 'xai';

export interface AiModel {
  id: string;
  label: string;
  provider: AiProviderName;
  /** Accepts images in a message (OpenAI image_url content parts). */
  vision: boolean;
}

/** The models offered in the UI. Configuration, not code: add a line to offer another one. */
export const MODELS: readonly AiModel[] = [
  { id: 'gpt-4o-mini', label: 'GPT-4o mini', provider: 'openai', vision: true },
  { id: 'grok-2-latest', label: 'Grok 2', provider: 'xai', vision: false },
];

/**
 * Models known to see images beyond the offered list (an admin may configure any model as the default).
 * Names of models known NOT to: grok-2-latest and text-only models fall outside these patterns.
 */
const VISION_MODEL_PATTERNS: readonly RegExp[] = [
  /^gpt-4o/i,
  /^gpt-4\.1/i,
  /^gpt-4-turbo/i,
  /^gpt-5/i,
  /^o[134](-|$)/i,
  /^grok-2-vision/i,
  /^grok-4/i,
  /vision/i,
  /llava/i,
];

/** Whether a model accepts images: the list's flag for offered models, else known vision model names. */
export function supportsVision(model: string): boolean {
  const listed = MODELS.find((m) => m.id === model);
  if (listed) return listed.vision;
  return VISION_MODEL_PATTERNS.some((pattern) => pattern.test(model));
}

export const DEFAULT_MODEL = 'gpt-4o-mini';
export const XAI_DEFAULT_BASE_URL = 'https://api.x.ai/v1';

/** The value the UI stores for "no model chosen"; it means "use the configured default". */
export const UNSET_MODEL = 'Unset';

/**
 * The model to send. Null, empty or 'Unset' means the app config's `openai_model` (then gpt-4o-mini).
 * Other names pass through unchanged: OpenAI-compatible servers (Ollama, vLLM...) have their own model names,
 * and an unknown one comes back from the provider as a clear 'Open AI Error: ...'.
 */
export function resolveModel(requested: string | null | undefined, configured: string | null): string {
  const wanted = requested?.trim();
  if (wanted && wanted !== UNSET_MODEL) return wanted;
  const fallback = configured?.trim();
  return fallback && fallback !== UNSET_MODEL ? fallback : DEFAULT_MODEL;
}

/** xAI's models are all named grok-*; the provider is decided by name so custom grok models work too. */
export function providerOfModel(model: string): AiProviderName {
  return model.toLowerCase().startsWith('grok') ? 'xai' : 'openai';
}

/** Where a key came from, for logs and tests (never the key itself). */
export type KeySource = 'organization' | 'app_config' | 'env_openai' | 'env_xai';

export interface ProviderChoice {
  provider: AiProviderName;
  model: string;
  apiKey: string;
  /** Null means the SDK's default (api.openai.com). */
  baseURL: string | null;
  source: KeySource;
}

export interface ProviderInputs {
  model: string;
  organizationKey: string | null;
  appConfigKey: string | null;
  /** App config `openai_base_url`: an OpenAI-compatible server set by an admin; it wins over OPENAI_BASE_URL. */
  appConfigBaseUrl?: string | null;
  env: {
    openaiApiKey: string | null;
    openaiBaseUrl: string | null;
    xaiApiKey: string | null;
    xaiBaseUrl: string | null;
  };
}

/** The bearer sent to a keyless OpenAI-compatible server (the SDK requires one). */
export const NO_KEY = 'no-key';

const present = (value: string | null | undefined): string | null => (value?.trim() ? value.trim() : null);

/**
 * Picks key and base URL. grok-* models use the xAI env key when one is set. Otherwise: the organization's
 * key, then the app config's, then OPENAI_API_KEY. OPENAI_BASE_URL applies to all three because it names the
 * deployment's OpenAI-compatible endpoint (e.g. a proxy or a local server), not a property of one key.
 * Null when no key exists anywhere.
 */
export function pickProvider(inputs: ProviderInputs): ProviderChoice | null {
  const { model, env } = inputs;
  const xaiKey = present(env.xaiApiKey);
  if (providerOfModel(model) === 'xai' && xaiKey) {
    return {
      provider: 'xai',
      model,
      apiKey: xaiKey,
      baseURL: present(env.xaiBaseUrl) ?? XAI_DEFAULT_BASE_URL,
      source: 'env_xai',
    };
  }
  const candidates: [string | null, KeySource][] = [
    [present(inputs.organizationKey), 'organization'],
    [present(inputs.appConfigKey), 'app_config'],
    [present(env.openaiApiKey), 'env_openai'],
  ];
  const found = candidates.find(([key]) => key !== null);
  const adminBaseUrl = present(inputs.appConfigBaseUrl);
  if (!found) {
    // A local OpenAI-compatible server needs no key: an admin-set base URL alone is a configured provider
    // (the SDK still sends a bearer header, which such servers ignore).
    if (!adminBaseUrl) return null;
    return { provider: 'openai', model, apiKey: NO_KEY, baseURL: adminBaseUrl, source: 'app_config' };
  }
  return {
    provider: 'openai',
    model,
    apiKey: found[0] as string,
    baseURL: adminBaseUrl ?? present(env.openaiBaseUrl),
    source: found[1],
  };
}
