/**
 * Server state of the document screens: query keys (each under the organization scope, so one organization's
 * documents never show in another), one hook per query and one per mutation.
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

export type TextDocument = ApiSchemas['DocumentDto'];
export type DocumentSort = 'updatedAt_desc' | 'createdAt_desc' | 'name_asc' | 'name_desc';
export const DOCUMENT_SORTS: DocumentSort[] = ['updatedAt_desc', 'createdAt_desc', 'name_asc', 'name_desc'];

const DOCUMENTS_KEY = 'documents';

export const documentKeys = {
  all: (scope: ScopeKey) => [DOCUMENTS_KEY, scope] as const,
  list: (scope: ScopeKey, filter: object) => [DOCUMENTS_KEY, scope, 'list', filter] as const,
  tags: (scope: ScopeKey) => [DOCUMENTS_KEY, scope, 'tags'] as const,
  one: (scope: ScopeKey, id: number) => [DOCUMENTS_KEY, scope, 'one', id] as const,
};

const noRetryOn4xx = (count: number, error: unknown) =>
  !(error instanceof ApiError && error.status < 500) && count < 3;

export interface DocumentListFilter {
  query: string;
  tags: string[];
  sort: DocumentSort;
  page: number;
}

export const DOCUMENTS_PER_PAGE = 24;

/** GET /api/documents: a page of the caller's documents by text, tags and sort. */
export function useDocumentList(filter: DocumentListFilter) {
  const scope = useScopeKey();
  return useQuery({
    queryKey: documentKeys.list(scope, filter),
    queryFn: () =>
      unwrap(
        api.GET('/api/documents', {
          params: {
            query: {
              page: filter.page,
              limit: DOCUMENTS_PER_PAGE,
              sort: filter.sort,
              ...(filter.query ? { query: filter.query } : {}),
              ...(filter.tags.length ? { tags: filter.tags } : {}),
            },
          },
        }),
      ),
    placeholderData: keepPreviousData,
  });
}

/** GET /api/documents/tags: every tag of the caller's documents, for the filter. */
export function useDocumentTags() {
  const scope = useScopeKey();
  return useQuery({
    queryKey: documentKeys.tags(scope),
    queryFn: async () => (await unwrap(api.GET('/api/documents/tags'))).tags,
  });
}

/** One document (4xx answers are final: a missing or another user's document). */
export function useDocument(id: number) {
  const scope = useScopeKey();
  return useQuery({
    queryKey: documentKeys.one(scope, id),
    queryFn: async () =>
      (await unwrap(api.GET('/api/documents/{document_id}', { params: { path: { document_id: id } } })))
        .document,
    enabled: Number.isInteger(id) && id > 0,
    retry: noRetryOn4xx,
    // The editor holds the live copy; a refetch must not replace what is being typed.
    refetchOnWindowFocus: false,
    staleTime: Infinity,
  });
}

/** POST /api/documents. */
export function useCreateDocument(onCreated: (document: TextDocument) => void) {
  const queryClient = useQueryClient();
  const scope = useScopeKey();
  return useMutation({
    mutationFn: async (body: { name: string; tags: string[] }) =>
      (await unwrap(api.POST('/api/documents', { body }))).document,
    onSuccess: (document) => {
      queryClient.setQueryData(documentKeys.one(scope, document.document_id), document);
      void queryClient.invalidateQueries({ queryKey: documentKeys.all(scope) });
      onCreated(document);
    },
    onError: notifyError,
  });
}

export type DocumentChanges = Omit<ApiSchemas['UpdateDocumentBody'], 'document_id'>;

/** PUT /api/documents, naming the version the edit started from (409 when another tab saved since). */
export async function saveDocument(documentId: number, changes: DocumentChanges): Promise<TextDocument> {
  return (await unwrap(api.PUT('/api/documents', { body: { document_id: documentId, ...changes } })))
    .document;
}

/** DELETE /api/documents/{id}. */
export function useDeleteDocument(onDeleted: () => void) {
  const queryClient = useQueryClient();
  const scope = useScopeKey();
  return useMutation({
    mutationFn: (documentId: number) =>
      unwrap(api.DELETE('/api/documents/{document_id}', { params: { path: { document_id: documentId } } })),
    onSuccess: (_, documentId) => {
      queryClient.removeQueries({ queryKey: documentKeys.one(scope, documentId) });
      void queryClient.invalidateQueries({ queryKey: documentKeys.all(scope) });
      onDeleted();
    },
    onError: notifyError,
  });
}

/** GET /api/documents/doc-converted/{id}: the document as a Word file. */
export function useDownloadWord(onDownloaded: (blob: Blob) => void) {
  return useMutation({
    mutationFn: (documentId: number) =>
      unwrap(
        api.GET('/api/documents/doc-converted/{document_id}', {
          params: { path: { document_id: documentId } },
          parseAs: 'blob',
        }),
      ) as Promise<Blob>,
    onSuccess: onDownloaded,
    onError: notifyError,
  });
}

export type GenerateRequest = ApiSchemas['GenerateDocumentBody'];

/** POST /api/documents/{id}/generate: the text then streams as `document_output`; a 412 goes to /sorry. */
export function useGenerateInDocument(documentId: number, onStarted: (generationId: string) => void) {
  return useGeneratingMutation({
    mutationFn: async (body: GenerateRequest) =>
      (
        await unwrap(
          api.POST('/api/documents/{document_id}/generate', {
            params: { path: { document_id: documentId } },
            body,
          }),
        )
      ).generation_id,
    onSuccess: onStarted,
  });
}

/** DELETE /api/documents/generations/{id}: stops a running generation (nothing is charged). */
export function stopGeneration(generationId: string): Promise<unknown> {
  return unwrap(
    api.DELETE('/api/documents/generations/{generation_id}', {
      params: { path: { generation_id: generationId } },
    }),
  );
}

export type CampaignDocument = ApiSchemas['CampaignDocumentResponse'];

export const campaignDocumentKey = (scope: ScopeKey, campaignId: number, id: number) =>
  [DOCUMENTS_KEY, scope, 'campaign', campaignId, id] as const;

/** GET /api/documents/{id}/campaigns/{campaign_id}: a document opened through a campaign, with whether it is editable. */
export function useCampaignDocument(campaignId: number, id: number) {
  const scope = useScopeKey();
  return useQuery({
    queryKey: campaignDocumentKey(scope, campaignId, id),
    queryFn: () =>
      unwrap(
        api.GET('/api/documents/{document_id}/campaigns/{campaign_id}', {
          params: { path: { document_id: id, campaign_id: campaignId } },
        }),
      ),
    enabled: Number.isInteger(id) && id > 0 && Number.isInteger(campaignId) && campaignId > 0,
    retry: noRetryOn4xx,
    // As for a document opened directly: the editor holds the live copy.
    refetchOnWindowFocus: false,
    staleTime: Infinity,
  });
}

export type AvatarRequest = Omit<ApiSchemas['AvatarOutputBody'], 'document_id'>;

/** POST /api/documents/avatar-output: the avatar's answer then streams as `document_avatar`; a 412 goes to /sorry. */
export function useAskAvatarInDocument(documentId: number, onStarted: (generationId: string) => void) {
  return useGeneratingMutation({
    mutationFn: async (body: AvatarRequest) =>
      (await unwrap(api.POST('/api/documents/avatar-output', { body: { ...body, document_id: documentId } })))
        .generation_id,
    onSuccess: onStarted,
  });
}
