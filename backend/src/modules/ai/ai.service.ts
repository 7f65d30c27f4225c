import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import OpenAI from 'openai';
import type { RequestOptions } from 'openai/internal/request-options';
import { APP_ENV, AppEnv } from '../../config/env';
import { AppConfigService } from '../app-config/app-config.service';
import { OrganizationsService } from '../organizations/organizations.service';
import { aiCancelled, aiNotConfigured, aiUnavailable, redactSecrets, toAiError } from './ai.errors';
import {
  AiModel,
  AiProviderName,
  MODELS,
  pickProvider,
  ProviderChoice,
  providerOfModel,
  resolveModel,
  supportsVision,
  UNSET_MODEL,
} from './ai.models';
import { badInput } from '../../common/errors/domain-error';
import { OutboundPolicy } from '../../common/outbound/address-policy';
import { checkHost, guardedLookup } from '../../common/outbound/guarded-lookup';
import { EMBEDDING_DIMENSIONS, EMBEDDING_MODEL } from './embedding-model';
import { chatCompletionChunks } from './chat-stream';
import { ProviderHttp, ReadingPace } from './provider-http';

/** One retry smooths a transient 5xx/429 without making a failing provider keep the user waiting long. */
const MAX_RETRIES = 1;
/** SDK clients kept (one per key and server in use). */
const CLIENTS_KEPT = 64;
/** Texts per embeddings request. */
const EMBEDDING_BATCH = 100;

/** A piece of a multimodal user message, in the OpenAI Chat Completions shape (sent to the SDK unchanged). */
export type AiContentPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string; detail?: 'auto' | 'low' | 'high' } };

/** Only user messages may carry images (content parts); system and assistant messages are text. */
export type AiMessage =
  { role: 'system' | 'assistant'; content: string } | { role: 'user'; content: string | AiContentPart[] };

export interface AiRequest {
  messages: AiMessage[];
  /** Null, empty or 'Unset' means the configured default model. */
  model?: string | null;
  /** Whose key to use first; the caller has already checked the user's access to the organization. */
  organization_id?: number | null;
  /** Aborting it stops the generation and closes the provider connection; the stream then throws ai_cancelled. */
  signal?: AbortSignal;
  maxTokens?: number;
  /** Overrides AI_TIMEOUT_MS (the longest wait for the first token, and between two tokens). */
  timeoutMs?: number;
  /** The provider already resolved for this request (resolveProvider), so streaming reads no configuration. */
  provider?: ProviderChoice;
  /**
   * Read the provider's answer at most this often after its first words (pacedReading): for a caller that sends
   * the text on no more often than that anyway. Unset, every chunk is read as it arrives.
   */
  readEveryMs?: number;
}

export interface AiDelta {
  delta: string;
}

export interface AiResult {
  content: string;
  /** The provider's reason: 'stop', 'length' (cut at the token limit), 'content_filter'... */
  finish_reason: string;
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
  model: string;
  provider: AiProviderName;
}

export interface AiModelsStatus {
  models: AiModel[];
  default_model: string;
  configured: boolean;
}

const PROVIDER_KEYS = ['openai_secret_key', 'openai_model', 'openai_base_url'] as const;
type ProviderSettings = Record<(typeof PROVIDER_KEYS)[number], string | null>;
/** How long the platform's provider settings are reused (the feature flags' cache is as long). */
const PROVIDER_SETTINGS_MS = 5_000;

/**
 * The one door to the AI providers: OpenAI Chat Completions streaming, which OpenAI, xAI and every
 * OpenAI-compatible server speak. Errors leave as AiError only (see ai.errors.ts).
 */
@Injectable()
export class AiService implements OnApplicationShutdown {
  private readonly logger = new Logger('AI');
  /** The platform's own server (OPENAI_BASE_URL or OpenAI's), set by the operator. */
  private readonly http = new ProviderHttp();
  /** Servers an admin set: each connection goes only to addresses the outbound policy allows. */
  private readonly adminSetHttp: ProviderHttp;
  private readonly policy: OutboundPolicy;
  private settings: { at: number; value: Promise<ProviderSettings> } | null = null;
  private readonly clients = new Map<string, OpenAI>();

  constructor(
    @Inject(APP_ENV) private readonly env: AppEnv,
    private readonly appConfig: AppConfigService,
    private readonly organizations: OrganizationsService,
  ) {
    this.policy = new OutboundPolicy(env.outboundAllow);
    this.adminSetHttp = new ProviderHttp({ lookup: guardedLookup(this.policy) });
    appConfig.onChange(async () => {
      this.settings = null;
    });
  }

  /**
   * The SDK client of a key and server, made once: building one took about a millisecond of CPU, as much as the
   * rest of an answer's provider work. Timeouts and retries are given per request. At most CLIENTS_KEPT, the
   * oldest dropped first (a key replaced in the settings is simply never asked for again).
   */
  private clientFor(choice: ProviderChoice): OpenAI {
    const key = `${choice.baseURL ?? ''}\n${choice.apiKey}`;
    let client = this.clients.get(key);
    if (!client) {
      if (this.clients.size >= CLIENTS_KEPT) this.clients.delete(this.clients.keys().next().value!);
      client = new OpenAI({
        apiKey: choice.apiKey,
        baseURL: choice.baseURL ?? undefined,
        maxRetries: MAX_RETRIES,
        fetch: this.httpFor(choice).fetch,
      });
      this.clients.set(key, client);
    }
    return client;
  }

  /** After the generations have drained (beforeApplicationShutdown): whatever is still open is cut. */
  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.http.destroy(), this.adminSetHttp.destroy()]);
  }

  private httpFor(choice: ProviderChoice): ProviderHttp {
    return this.setByAdmin(choice) ? this.adminSetHttp : this.http;
  }

  /** A server an admin set in the settings, not the operator's own. */
  private setByAdmin(choice: ProviderChoice): choice is ProviderChoice & { baseURL: string } {
    return !!choice.baseURL && choice.baseURL !== this.env.openaiBaseUrl && choice.provider === 'openai';
  }

  /** Key, base URL and model for a request; ai_not_configured (409) when no key exists anywhere. */
  async resolveProvider(input: {
    organization_id?: number | null;
    model?: string | null;
  }): Promise<ProviderChoice> {
    const choice = await this.tryResolve(input);
    if (!choice) throw aiNotConfigured();
    if (this.setByAdmin(choice)) {
      // Checked against the outbound address policy at every use (its DNS may change), and its connections
      // resolve the name again through the same policy (adminSetHttp).
      try {
        await checkHost(this.policy, new URL(choice.baseURL).hostname);
      } catch (err) {
        throw this.unavailable(choice, `the base URL is refused: ${(err as Error).message}`);
      }
    }
    return choice;
  }

  /** What the UI needs to offer models, or to say plainly that no provider is set up. */
  async modelsStatus(organizationId: number | null): Promise<AiModelsStatus> {
    const defaultModel = resolveModel(null, await this.appConfig.get('openai_model'));
    const models = [...MODELS];
    if (!models.some((m) => m.id === defaultModel)) {
      // An admin may configure a model outside the list (e.g. a local server's); it must still be choosable.
      models.push({
        id: defaultModel,
        label: defaultModel,
        provider: providerOfModel(defaultModel),
        vision: supportsVision(defaultModel),
      });
    }
    const configured =
      (await this.tryResolve({ organization_id: organizationId, model: defaultModel })) !== null;
    return { models, default_model: defaultModel, configured };
  }

  /**
   * Refuses (400 model_not_offered) a model the configuration does not offer: only the listed models and the
   * configured default may be requested, so nobody runs an arbitrary model on an organization's or our key.
   * Null, empty or 'Unset' means the default and is always fine.
   */
  async checkOffered(requested: string | null | undefined): Promise<void> {
    const wanted = requested?.trim();
    if (!wanted || wanted === UNSET_MODEL) return;
    if (MODELS.some((m) => m.id === wanted)) return;
    if (wanted === resolveModel(null, await this.appConfig.get('openai_model'))) return;
    throw badInput(
      `The model ${wanted.slice(0, 100)} is not offered. Choose one of: ${MODELS.map((m) => m.id).join(', ')}.`,
      'model_not_offered',
    );
  }

  /**
   * Streams a chat completion: yields text deltas as they arrive and returns the whole result. Throws an
   * AiError: ai_cancelled when `signal` aborts, ai_unavailable on timeout or when the answer is cut off
   * (a broken stream is never reported as a shorter success), openai_error when the provider refuses.
   * Stopping iteration early (break/return) also closes the provider connection.
   */
  async *stream(request: AiRequest): AsyncGenerator<AiDelta, AiResult, undefined> {
    const choice = request.provider ?? (await this.resolveProvider(request));
    if (request.signal?.aborted) throw aiCancelled();
    const timeoutMs = request.timeoutMs ?? this.env.aiTimeoutMs;

    const controller = new AbortController();
    let timedOut = false;
    let timer: NodeJS.Timeout | undefined;
    // Restarted after every chunk: one timer refreshed, not a new one per chunk.
    const arm = () => {
      if (timer) timer.refresh();
      else
        timer = setTimeout(() => {
          timedOut = true;
          controller.abort();
        }, timeoutMs);
    };
    const onCallerAbort = () => controller.abort();
    request.signal?.addEventListener('abort', onCallerAbort, { once: true });
    const cancelled = () => !timedOut && request.signal?.aborted === true;

    const client = this.clientFor(choice);
    const pace = request.readEveryMs ? new ReadingPace(request.readEveryMs) : null;
    let content = '';
    let finishReason: string | null = null;
    let usage: AiResult['usage'];
    let ended = false;
    arm();
    try {
      const response = await client.chat.completions
        .create(
          {
            model: choice.model,
            messages: request.messages,
            stream: true,
            stream_options: { include_usage: true },
            // max_tokens rather than max_completion_tokens: every OpenAI-compatible server understands it.
            ...(request.maxTokens ? { max_tokens: request.maxTokens } : {}),
          },
          {
            signal: controller.signal,
            timeout: timeoutMs,
            maxRetries: MAX_RETRIES,
            // undici's own Dispatcher, which the SDK's types know only as the copy inside Node's fetch types.
            ...(pace
              ? {
                  fetchOptions: {
                    dispatcher: this.httpFor(choice).paced(pace),
                  } as RequestOptions['fetchOptions'],
                }
              : {}),
          },
        )
        .asResponse();
      if (!response.body) throw this.unavailable(choice, 'the answer has no body');
      for await (const chunk of chatCompletionChunks(response.body, response.headers)) {
        if (chunk.usage) {
          const { prompt_tokens, completion_tokens, total_tokens } = chunk.usage;
          usage = { prompt_tokens, completion_tokens, total_tokens };
        }
        const first = chunk.choices[0];
        if (first?.finish_reason) finishReason = first.finish_reason;
        const delta = first?.delta?.content;
        if (delta) {
          content += delta;
          // The first words are in: from here the answer is read at its pace.
          pace?.start();
          yield { delta };
        }
        // The provider's silence runs the wait out: it restarts once the consumer has taken each chunk (the
        // consumer's own time, microseconds against a timeout of seconds, is part of it).
        arm();
      }
      ended = true;
    } catch (err) {
      if (cancelled()) throw aiCancelled();
      if (timedOut) throw this.unavailable(choice, `no answer within ${timeoutMs} ms`);
      const mapped = toAiError(err, this.knownKeys(choice));
      if (mapped.code === 'ai_unavailable') this.logFailure(choice, err);
      throw mapped;
    } finally {
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onCallerAbort);
      // Closes the connection when the consumer stopped early (an answer read to its end needs nothing, and
      // aborting it would only build an error nobody reads).
      if (!ended) controller.abort();
    }
    // An abort can land as the body ends, and a body may end without [DONE]: check how it ended.
    if (cancelled()) throw aiCancelled();
    if (timedOut) throw this.unavailable(choice, `no answer within ${timeoutMs} ms`);
    if (finishReason === null) throw this.unavailable(choice, 'the stream ended without a finish reason');
    return { content, finish_reason: finishReason, usage, model: choice.model, provider: choice.provider };
  }

  /** The whole answer at once (the stream collected); `onDelta` sees each piece as it arrives. */
  async complete(request: AiRequest, onDelta?: (delta: string) => void): Promise<AiResult> {
    const generation = this.stream(request);
    for (;;) {
      const next = await generation.next();
      if (next.done) return next.value;
      onDelta?.(next.value.delta);
    }
  }

  /**
   * The model ids the platform's provider lists (GET /models), for the setup check: `rejected` when the key is
   * refused, `unsupported` when the server has no model list, `unreachable` when nothing answers. At most 200.
   */
  async listProviderModels(): Promise<
    { ok: true; models: string[] } | { ok: false; reason: 'rejected' | 'unsupported' | 'unreachable' }
  > {
    const choice = await this.resolveProvider({ organization_id: null, model: null });
    const client = this.clientFor(choice);
    try {
      const models: string[] = [];
      const options = { maxRetries: 0, timeout: Math.min(this.env.aiTimeoutMs, 15_000) };
      for await (const model of client.models.list(options)) {
        models.push(model.id);
        if (models.length >= 200) break;
      }
      return { ok: true, models };
    } catch (err) {
      if (err instanceof OpenAI.APIError && (err.status === 401 || err.status === 403))
        return { ok: false, reason: 'rejected' };
      if (err instanceof OpenAI.APIError && err.status !== undefined && err.status < 500)
        return { ok: false, reason: 'unsupported' };
      this.logFailure(choice, err);
      return { ok: false, reason: 'unreachable' };
    }
  }

  /**
   * Embeddings of `texts` (same order) from the provider's embeddings model, or null when the provider offers
   * none (xAI; a compatible server that answers 404 or 400 to /embeddings).
   */
  async embed(texts: string[], organization_id: number | null): Promise<number[][] | null> {
    const choice = await this.tryResolve({ organization_id, model: null });
    if (!choice || choice.provider !== 'openai') return null;
    const client = this.clientFor(choice);
    const out: number[][] = [];
    try {
      for (let i = 0; i < texts.length; i += EMBEDDING_BATCH) {
        const res = await client.embeddings.create(
          {
            model: EMBEDDING_MODEL,
            input: texts.slice(i, i + EMBEDDING_BATCH),
            dimensions: EMBEDDING_DIMENSIONS,
            encoding_format: 'float',
          },
          { maxRetries: MAX_RETRIES, timeout: this.env.aiTimeoutMs },
        );
        out.push(...[...res.data].sort((a, b) => a.index - b.index).map((d) => d.embedding));
      }
    } catch (err) {
      if (err instanceof OpenAI.APIError && (err.status === 404 || err.status === 400)) return null;
      throw toAiError(err, this.knownKeys(choice));
    }
    return out;
  }

  private async tryResolve(input: {
    organization_id?: number | null;
    model?: string | null;
  }): Promise<ProviderChoice | null> {
    const config = await this.providerSettings();
    const organizationKey = input.organization_id
      ? (await this.organizations.secrets(input.organization_id)).openai_api_key
      : null;
    return pickProvider({
      model: resolveModel(input.model, config.openai_model),
      organizationKey,
      appConfigKey: config.openai_secret_key,
      appConfigBaseUrl: config.openai_base_url,
      env: this.env,
    });
  }

  /**
   * The platform's key, model and base URL, read at most once per PROVIDER_SETTINGS_MS: every generation needs
   * them before its first token. A change saved on this instance clears it at once; other instances see it
   * within that time, as they see the feature flags.
   */
  private providerSettings(): Promise<ProviderSettings> {
    if (this.settings && Date.now() - this.settings.at < PROVIDER_SETTINGS_MS) return this.settings.value;
    const value = this.appConfig.getMany(PROVIDER_KEYS);
    const entry = { at: Date.now(), value };
    this.settings = entry;
    // A failed read is not kept.
    value.catch(() => {
      if (this.settings === entry) this.settings = null;
    });
    return value;
  }

  private unavailable(choice: ProviderChoice, why: string) {
    this.logger.warn(`${choice.provider} ${choice.model} (key from ${choice.source}): ${why}`);
    return aiUnavailable();
  }

  /** Every key a provider's error text could quote: the one sent and the env fallbacks. */
  private knownKeys(choice: ProviderChoice): string[] {
    return [choice.apiKey, this.env.openaiApiKey, this.env.xaiApiKey].filter((k): k is string => !!k);
  }

  private logFailure(choice: ProviderChoice, err: unknown): void {
    const why = redactSecrets(err instanceof Error ? err.message : String(err), this.knownKeys(choice));
    this.logger.warn(`${choice.provider} ${choice.model} (key from ${choice.source}) failed: ${why}`);
  }
}
