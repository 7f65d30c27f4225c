import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAiModels } from '../api';
import { UNSET_MODEL, type Conversation } from '../model';

/**
 * The model for the next messages: starts as the conversation's ('Unset' = the configured default) and follows
 * it when it changes elsewhere (the Edit form). `requested` is what a send carries: nothing when it is the
 * conversation's own model.
 */
export function useModelChoice(conversation: Conversation) {
  const { t } = useTranslation('customer');
  const models = useAiModels();
  const [model, setModel] = useState<string>(conversation.model ?? UNSET_MODEL);
  const [conversationModel, setConversationModel] = useState(conversation.model);
  if (conversationModel !== conversation.model) {
    setConversationModel(conversation.model);
    setModel(conversation.model ?? UNSET_MODEL);
  }
  const options = useMemo(() => {
    const list: { value: string; label: string }[] = [
      { value: UNSET_MODEL, label: t('conversations.form.unset') },
    ];
    for (const m of models.data?.models ?? []) list.push({ value: m.id, label: m.label });
    // A conversation may use a model the list no longer offers: keep it choosable rather than blank.
    if (!list.some((o) => o.value === model)) list.push({ value: model, label: model });
    return list;
  }, [models.data, model, t]);
  return {
    model,
    setModel,
    options,
    requested: model !== (conversation.model ?? UNSET_MODEL) ? model : undefined,
    /** For enhance: a chosen model, nothing for the default. */
    chosen: model !== UNSET_MODEL ? model : undefined,
  };
}
