import { Button } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, notifyError, unwrap } from '@avatar-studio/shared';

type ReportPath =
  | '/api/analytics/income/report'
  | '/api/analytics/purchases/report'
  | '/api/analytics/customers/report'
  | '/api/analytics/instructors/report';

/** Downloads the CSV report of the range shown. */
export function ReportButton({
  path,
  query,
  filename,
  label,
}: {
  path: ReportPath;
  query: { start_date: string; end_date: string };
  filename: string;
  label: string;
}) {
  const { t } = useTranslation('admin');
  const download = useMutation({
    mutationFn: () => unwrap(api.GET(path, { params: { query }, parseAs: 'blob' })),
    onSuccess: (blob) => {
      const url = URL.createObjectURL(blob as Blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = `${filename}-${query.start_date}.csv`;
      link.click();
      URL.revokeObjectURL(url);
    },
    onError: (error) => notifyError(error),
  });
  return (
    <Button
      variant="default"
      leftSection={<IconDownload size={16} aria-hidden />}
      loading={download.isPending}
      onClick={() => download.mutate()}
    >
      {label || t('analytics.report')}
    </Button>
  );
}
