import { api, notifyError, unwrap } from '@avatar-studio/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { TEMPLATES_KEY, type Template } from './model';

type TemplatePage = { templates: Template[] };

/**
 * 001 §4: a template is toggled as a favorite (POST /api/templates/favorite). The answer's state is written into
 * every cached list and template at once; lists are then reloaded (a favorites-only list loses the template).
 */
export function useToggleFavorite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (templateId: number) =>
      (await unwrap(api.POST('/api/templates/favorite', { body: { template_id: templateId } }))).favorite,
    onSuccess: (favorite, templateId) => {
      const mark = (t: Template) => (t.template_id === templateId ? { ...t, favorite } : t);
      queryClient.setQueriesData<TemplatePage | Template>({ queryKey: [TEMPLATES_KEY] }, (data) => {
        if (!data || typeof data !== 'object') return data;
        if ('templates' in data && Array.isArray(data.templates))
          return { ...data, templates: data.templates.map(mark) };
        if ('template_id' in data) return mark(data);
        return data;
      });
      void queryClient.invalidateQueries({ queryKey: [TEMPLATES_KEY, 'list'] });
    },
    onError: (error) => notifyError(error),
  });
}
