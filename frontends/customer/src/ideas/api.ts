/**
 * Server state of the topic and hashtag screens: their histories (query keys under the organization scope) and
 * the generating calls.
 */
import {
  api,
  notifyError,
  unwrap,
  useGeneratingMutation,
  useScopeKey,
  type ApiSchemas,
  type ScopeKey,
} from '@avatar-studio/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

export type IdeaKind = 'topics' | 'hashtags';
export type Idea = ApiSchemas['IdeaDto'];
export type TopicsRequest = ApiSchemas['GenerateTopicsBody'];
export type HashtagsRequest = ApiSchemas['GenerateHashtagsBody'];

export const ideaKeys = {
  all: (scope: ScopeKey, kind: IdeaKind) => ['ideas', scope, kind] as const,
  page: (scope: ScopeKey, kind: IdeaKind, page: number) => ['ideas', scope, kind, page] as const,
};

export const IDEAS_PER_PAGE = 10;

/** GET /api/topics or /api/hashtags: a page of the history, newest first. */
export function useIdeaHistory(kind: IdeaKind, page: number) {
  const scope = useScopeKey();
  return useQuery({
    queryKey: ideaKeys.page(scope, kind, page),
    queryFn: () =>
      kind === 'topics'
        ? unwrap(api.GET('/api/topics', { params: { query: { page, limit: IDEAS_PER_PAGE } } }))
        : unwrap(api.GET('/api/hashtags', { params: { query: { page, limit: IDEAS_PER_PAGE } } })),
    placeholderData: keepPreviousData,
  });
}

/** POST /api/{kind}/generate: the text then streams as `topics_output` or `hashtags_output`; a 412 goes to /sorry. */
export function useGenerateIdeas(kind: IdeaKind, onStarted: (generationId: string) => void) {
  return useGeneratingMutation({
    mutationFn: async (body: TopicsRequest | HashtagsRequest) =>
      (kind === 'topics'
        ? await unwrap(api.POST('/api/topics/generate', { body: body as TopicsRequest }))
        : await unwrap(api.POST('/api/hashtags/generate', { body: body as HashtagsRequest }))
      ).generation_id,
    onSuccess: onStarted,
  });
}

/** DELETE /api/{kind}/{id}. */
export function useDeleteIdea(kind: IdeaKind, onDeleted: () => void) {
  const queryClient = useQueryClient();
  const scope = useScopeKey();
  return useMutation({
    mutationFn: (ideaId: number) =>
      kind === 'topics'
        ? unwrap(api.DELETE('/api/topics/{idea_id}', { params: { path: { idea_id: ideaId } } }))
        : unwrap(api.DELETE('/api/hashtags/{idea_id}', { params: { path: { idea_id: ideaId } } })),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ideaKeys.all(scope, kind) });
      onDeleted();
    },
    onError: notifyError,
  });
}

/** DELETE /api/{kind}/generations/{id}: stops a running generation. */
export function stopIdeas(kind: IdeaKind, generationId: string): Promise<unknown> {
  const params = { params: { path: { generation_id: generationId } } };
  return kind === 'topics'
    ? unwrap(api.DELETE('/api/topics/generations/{generation_id}', params))
    : unwrap(api.DELETE('/api/hashtags/generations/{generation_id}', params));
}
