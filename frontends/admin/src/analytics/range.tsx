import '@mantine/dates/styles.css';
import { DatePickerInput, type DatesRangeValue } from '@mantine/dates';
import { IconCalendar } from '@tabler/icons-react';
import dayjs from 'dayjs';
import 'dayjs/locale/es';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { dateDisplayFormat, useFormat } from '@avatar-studio/shared';

/** The picker shows the current month by default, the API's default range (start of month to start of next). */
export function currentMonth(now: Date = new Date()): [string, string] {
  const day = dayjs(now);
  return [day.startOf('month').format('YYYY-MM-DD'), day.endOf('month').format('YYYY-MM-DD')];
}

/** The analytics query of a picked range: the last day picked is included (end_date is exclusive). */
export function rangeQuery([first, last]: [string, string]) {
  return { start_date: first, end_date: dayjs(last).add(1, 'day').format('YYYY-MM-DD') };
}

/** A date-range picker and the last complete range picked. */
export function useAnalyticsRange() {
  const { t } = useTranslation('admin');
  const format = useFormat();
  const [range, setRange] = useState<DatesRangeValue<string>>(() => currentMonth());
  const [applied, setApplied] = useState<[string, string]>(() => currentMonth());
  const picker = (
    <DatePickerInput
      type="range"
      label={t('analytics.dateRange')}
      value={range}
      onChange={(next) => {
        setRange(next);
        if (next[0] && next[1]) setApplied([next[0], next[1]]);
      }}
      valueFormat={dateDisplayFormat(format.language)}
      locale={format.language.startsWith('es') ? 'es' : 'en'}
      leftSection={<IconCalendar size={16} aria-hidden />}
      allowSingleDateInRange
      miw={280}
    />
  );
  return { picker, query: rangeQuery(applied) };
}

/** Colours of the donut slices, from the theme's palette. */
export const CHART_COLORS = [
  'blue.6',
  'teal.6',
  'grape.6',
  'orange.6',
  'cyan.6',
  'pink.6',
  'lime.6',
  'indigo.6',
];
