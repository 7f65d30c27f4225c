/**
 * Server state of the template screens: query keys (each under the organization scope, so data of one
 * organization never shows in another), one hook per query and one per mutation.
 */
import {
  ApiError,
  api,
  notifyError,
  unwrap,
  useGeneratingMutation,
  useScopeKey,
  type ApiSchemas,
  type ScopeKey,
} from '@avatar-studio/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { conversationKeys } from '../conversations/api';
import { TEMPLATES_KEY, type Template, type TemplateLanguage, type TemplateSort } from './model';

export const templateKeys = {
  all: (scope: ScopeKey) => [TEMPLATES_KEY, scope] as const,
  list: (scope: ScopeKey, filter?: object) =>
    filter ? ([TEMPLATES_KEY, scope, 'list', filter] as const) : ([TEMPLATES_KEY, scope, 'list'] as const),
  tags: (scope: ScopeKey) => [TEMPLATES_KEY, scope, 'tags'] as const,
  types: (scope: ScopeKey) => [TEMPLATES_KEY, scope, 'types'] as const,
  one: (scope: ScopeKey, id: number) => [TEMPLATES_KEY, scope, 'one', id] as const,
};

const noRetryOn4xx = (count: number, error: unknown) =>
  !(error instanceof ApiError && error.status < 500) && count < 3;

/** One template (4xx answers are not retried: a missing or hidden template is final). */
export function useTemplate(id: number) {
  const scope = useScopeKey();
  return useQuery({
    queryKey: templateKeys.one(scope, id),
    queryFn: async () =>
      (await unwrap(api.GET('/api/templates/{template_id}', { params: { path: { template_id: id } } })))
        .template,
    enabled: Number.isInteger(id) && id > 0,
    retry: noRetryOn4xx,
  });
}

/** GET /api/templates/tags: the tags with their template counts. */
export function useTemplateTags() {
  const scope = useScopeKey();
  return useQuery({
    queryKey: templateKeys.tags(scope),
    queryFn: () => unwrap(api.GET('/api/templates/tags')),
  });
}

/** GET /api/templates/types: the types with their template counts. */
export function useTemplateTypes() {
  const scope = useScopeKey();
  return useQuery({
    queryKey: templateKeys.types(scope),
    queryFn: () => unwrap(api.GET('/api/templates/types')),
  });
}

export interface TemplateListFilter {
  /** The all tab (null), or one tag or type. */
  drill: { tag: string } | { type: string } | null;
  query: string;
  sortBy?: TemplateSort;
  language?: TemplateLanguage | null;
  favoritesOnly: boolean;
  page: number;
}

/** A page of templates: all of them, or those of one tag or type, by search, sort, language and favorites. */
export function useTemplateList(filter: TemplateListFilter, view: 'browse' | 'panel' = 'browse') {
  const scope = useScopeKey();
  const { drill, query, sortBy, language, favoritesOnly, page } = filter;
  return useQuery({
    queryKey: templateKeys.list(scope, { view, ...filter }),
    queryFn: () => {
      const filters = {
        page,
        ...(sortBy ? { sortBy } : {}),
        ...(query ? { query } : {}),
        ...(language ? { language } : {}),
        ...(favoritesOnly ? { favorites: 'true' as const } : {}),
      };
      if (drill && 'tag' in drill)
        return unwrap(
          api.GET('/api/templates/tag/{tag}', { params: { path: { tag: drill.tag }, query: filters } }),
        );
      if (drill)
        return unwrap(
          api.GET('/api/templates/type/{type}', { params: { path: { type: drill.type }, query: filters } }),
        );
      return unwrap(api.GET('/api/templates', { params: { query: filters } }));
    },
    placeholderData: keepPreviousData,
  });
}

export type TemplateBody = ApiSchemas['CreateTemplateBody'];

/** POST /api/templates (new) or PUT /api/templates (existing). */
export function useSaveTemplate(
  templateId: number | null,
  handlers: { onSaved: (saved: Template) => void; onError: (error: Error) => void },
) {
  const queryClient = useQueryClient();
  const scope = useScopeKey();
  return useMutation({
    mutationFn: async (body: TemplateBody) => {
      const saved =
        templateId !== null
          ? await unwrap(api.PUT('/api/templates', { body: { ...body, template_id: templateId } }))
          : await unwrap(api.POST('/api/templates', { body }));
      return saved.template;
    },
    onSuccess: (saved) => {
      queryClient.setQueryData(templateKeys.one(scope, saved.template_id), saved);
      void queryClient.invalidateQueries({ queryKey: templateKeys.all(scope) });
      handlers.onSaved(saved);
    },
    onError: handlers.onError,
  });
}

/** DELETE /api/templates/{id}. */
export function useDeleteTemplate(handlers: { onDeleted: () => void; onFailed: () => void }) {
  const queryClient = useQueryClient();
  const scope = useScopeKey();
  return useMutation({
    mutationFn: (templateId: number) =>
      unwrap(api.DELETE('/api/templates/{template_id}', { params: { path: { template_id: templateId } } })),
    onSuccess: (_, templateId) => {
      queryClient.removeQueries({ queryKey: templateKeys.one(scope, templateId) });
      void queryClient.invalidateQueries({ queryKey: templateKeys.all(scope) });
      handlers.onDeleted();
    },
    onError: (error) => {
      handlers.onFailed();
      notifyError(error);
    },
  });
}

/** Using a template from the browse page: a new conversation named after it (which needs access). */
export function useStartTemplateConversation(
  maxName: number,
  onStarted: (template: Template, conversationId: number) => void,
) {
  return useGeneratingMutation({
    mutationFn: async (template: Template) => {
      const { conversation } = await unwrap(
        api.POST('/api/conversations', { body: { name: template.name.slice(0, maxName) } }),
      );
      return { template, conversation };
    },
    onSuccess: ({ template, conversation }) => onStarted(template, conversation.conversation_id),
  });
}

export interface ApplyRequest {
  templateId: number;
  values: Record<string, string>;
}

/**
 * Applies a template in a conversation: the server fills the placeholders itself (the prompt may be hidden from
 * the user) and streams the answer over the real-time channel. The conversation's messages are reloaded so that
 * the chat shows the question and the pending answer. A 412 (no paid access) goes to /sorry.
 */
export function useApplyTemplate(conversationId: number, onApplied?: () => void) {
  const queryClient = useQueryClient();
  const scope = useScopeKey();
  return useGeneratingMutation({
    mutationFn: ({ templateId, values }: ApplyRequest) =>
      unwrap(
        api.POST('/api/messages', {
          body: { conversation_id: conversationId, template_id: templateId, values, stream: true },
        }),
      ),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: conversationKeys.messages(scope, conversationId) });
      onApplied?.();
    },
  });
}

type TemplatePage = { templates: Template[] };

/**
 * A template is toggled as a favorite (POST /api/templates/favorite). The answer's state is written into every
 * cached list and template at once; lists are then reloaded (a favorites-only list loses the template).
 */
export function useToggleFavorite() {
  const queryClient = useQueryClient();
  const scope = useScopeKey();
  return useMutation({
    mutationFn: async (templateId: number) =>
      (await unwrap(api.POST('/api/templates/favorite', { body: { template_id: templateId } }))).favorite,
    onSuccess: (favorite, templateId) => {
      const mark = (t: Template) => (t.template_id === templateId ? { ...t, favorite } : t);
      queryClient.setQueriesData<TemplatePage | Template>({ queryKey: templateKeys.all(scope) }, (data) => {
        if (!data || typeof data !== 'object') return data;
        if ('templates' in data && Array.isArray(data.templates))
          return { ...data, templates: data.templates.map(mark) };
        if ('template_id' in data) return mark(data);
        return data;
      });
      void queryClient.invalidateQueries({ queryKey: templateKeys.list(scope) });
    },
    onError: (error) => notifyError(error),
  });
}
