/** Server state of the tutorial screens (tutorials are the same in every organization scope). */
import { ApiError, api, unwrap, type ApiSchemas } from '@avatar-studio/shared';
import { useQuery } from '@tanstack/react-query';

export type Tutorial = ApiSchemas['TutorialDto'];

const noRetryOn4xx = (count: number, error: unknown) =>
  !(error instanceof ApiError && error.status < 500) && count < 3;

/** GET /api/tutorials?language=: the tutorials of the user's language, in order. */
export function useTutorials(language: 'en' | 'es') {
  return useQuery({
    queryKey: ['tutorials', 'list', language],
    queryFn: () => unwrap(api.GET('/api/tutorials', { params: { query: { language, limit: 100 } } })),
  });
}

export function useTutorial(id: number) {
  return useQuery({
    queryKey: ['tutorials', 'one', id],
    queryFn: async () =>
      (await unwrap(api.GET('/api/tutorials/{tutorial_id}', { params: { path: { tutorial_id: id } } })))
        .tutorial,
    enabled: Number.isInteger(id) && id > 0,
    retry: noRetryOn4xx,
  });
}

/** POST /api/tutorials/{id}/plays: counts one play. */
export function countPlay(id: number): Promise<unknown> {
  return unwrap(api.POST('/api/tutorials/{tutorial_id}/plays', { params: { path: { tutorial_id: id } } }));
}

/** A YouTube video id (11 characters), as the server stores YouTube links; anything else is an uploaded video. */
export const isYouTubeId = (src: string) => /^[A-Za-z0-9_-]{11}$/.test(src);
