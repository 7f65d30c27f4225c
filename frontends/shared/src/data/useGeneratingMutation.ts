import { useMutation, type UseMutationOptions, type UseMutationResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { ApiError } from '../api/client';
import { notifyError } from '../notify';

/** A 412 answer: the caller needs paid access (no subscription or no credit left). */
export function isNoAccess(error: unknown): boolean {
  return error instanceof ApiError && error.status === 412;
}

export interface GeneratingMutationOptions<TData, TVariables, TContext>
  extends UseMutationOptions<TData, Error, TVariables, TContext> {
  /** Where a 412 leads: the /sorry screen (default) or, where a screen says so, the premium-feature notice. */
  noAccess?: 'sorry' | 'premium';
  /** Shows an error other than a 412; the default is the error alert (its rule hides 400 and 401 texts). */
  showError?: (error: Error) => void;
}

/**
 * A mutation that needs paid access (every generating action and the actions the product reserves for paying
 * users). The caller's `onError` runs first for its own clean-up, then a 412 goes to /sorry or shows the
 * premium notice, and any other error is shown (a 429 shows the server's own sentence).
 */
export function useGeneratingMutation<TData, TVariables = void, TContext = unknown>(
  options: GeneratingMutationOptions<TData, TVariables, TContext>,
): UseMutationResult<TData, Error, TVariables, TContext> {
  const { noAccess = 'sorry', showError = notifyError, onError, ...rest } = options;
  const navigate = useNavigate();
  const { t } = useTranslation('common');
  return useMutation({
    ...rest,
    onError: (error, variables, context, mutation) => {
      void onError?.(error, variables, context, mutation);
      if (isNoAccess(error)) {
        if (noAccess === 'sorry') navigate('/sorry');
        else notifyError(t('premiumFeature'));
      } else showError(error);
    },
  });
}
