/**
 * Server state of the chat widget generator: the owner's widgets (query keys under the organization scope), the
 * avatars a widget may use, and the calls that make, change and delete widgets.
 */
import {
  api,
  multipart,
  notifyError,
  unwrap,
  useScopeKey,
  type ApiSchemas,
  type ScopeKey,
} from '@avatar-studio/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

export type Widget = ApiSchemas['WidgetDto'];
export type CreateWidget = ApiSchemas['CreateWidgetBody'];
export type UpdateWidget = ApiSchemas['UpdateWidgetBody'];

export const widgetKeys = {
  all: (scope: ScopeKey) => ['widgets', scope] as const,
  list: (scope: ScopeKey) => ['widgets', scope, 'list'] as const,
  avatars: (scope: ScopeKey) => ['widgets', scope, 'avatars'] as const,
};

/** GET /api/widgets: the owner's widgets with their usage (the 200 newest). */
export function useWidgets() {
  const scope = useScopeKey();
  return useQuery({
    queryKey: widgetKeys.list(scope),
    queryFn: () => unwrap(api.GET('/api/widgets', { params: { query: { limit: 200 } } })),
  });
}

/** GET /api/avatars: the caller's avatars a widget may use (Super Fetch assistants left out). */
export function useWidgetAvatars() {
  const scope = useScopeKey();
  return useQuery({
    queryKey: widgetKeys.avatars(scope),
    queryFn: async () =>
      (await unwrap(api.GET('/api/avatars', { params: { query: { limit: 200 } } }))).avatars.filter(
        (a) => !a.super_fetch_assistant,
      ),
  });
}

function useWidgetMutation<I, O>(call: (input: I) => Promise<O>, onDone?: (result: O) => void) {
  const queryClient = useQueryClient();
  const scope = useScopeKey();
  return useMutation({
    mutationFn: call,
    onSuccess: (result) => {
      void queryClient.invalidateQueries({ queryKey: widgetKeys.list(scope) });
      onDone?.(result);
    },
    onError: notifyError,
  });
}

/** POST /api/files then POST /api/widgets: Generate (the button image, when chosen, is uploaded first). */
export function useCreateWidget(onCreated: (widget: Widget) => void) {
  return useWidgetMutation(async ({ body, image }: { body: CreateWidget; image: File | null }) => {
    const image_file_id = image
      ? (await unwrap(api.POST('/api/files', { ...multipart({ file: image }) }))).file.file_id
      : null;
    return unwrap(api.POST('/api/widgets', { body: { ...body, image_file_id } }));
  }, onCreated);
}

/** PUT /api/widgets/{id}: edit, disable or enable. */
export function useUpdateWidget(onSaved?: (widget: Widget) => void) {
  return useWidgetMutation(
    ({ id, body }: { id: number; body: UpdateWidget }) =>
      unwrap(api.PUT('/api/widgets/{widget_id}', { params: { path: { widget_id: id } }, body })),
    onSaved,
  );
}

/** DELETE /api/widgets/{id}. */
export function useDeleteWidget(onDeleted: () => void) {
  return useWidgetMutation(
    (id: number) => unwrap(api.DELETE('/api/widgets/{widget_id}', { params: { path: { widget_id: id } } })),
    onDeleted,
  );
}
