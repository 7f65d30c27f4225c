import { analyticsRange, monthsOf, splitByDays } from './analytics.service';

describe('analyticsRange', () => {
  it('defaults to the start of the current month up to the start of the next', () => {
    const range = analyticsRange({}, new Date('2026-11-25T03:00:00Z'));
    expect(range).toEqual({ from: new Date('2026-11-01T00:00:00Z'), to: new Date('2026-12-01T00:00:00Z') });
    const december = analyticsRange({}, new Date('2026-12-31T23:00:00Z'));
    expect(december.to).toEqual(new Date('2027-01-01T00:00:00Z'));
  });

  it('keeps given dates, and refuses an empty, reversed or too long range', () => {
    const from = new Date('2026-01-01');
    const to = new Date('2026-02-01');
    expect(analyticsRange({ start_date: from, end_date: to })).toEqual({ from, to });
    expect(() => analyticsRange({ start_date: to, end_date: from })).toThrow(
      'start_date must be before end_date.',
    );
    expect(() => analyticsRange({ start_date: from, end_date: from })).toThrow();
    expect(() => analyticsRange({ start_date: new Date('2000-01-01'), end_date: to })).toThrow(
      /days or less/,
    );
  });
});

describe('monthsOf', () => {
  it('lists each calendar month the range touches, cut to the range', () => {
    const months = monthsOf({ from: new Date('2026-01-15T00:00:00Z'), to: new Date('2026-03-02T00:00:00Z') });
    expect(months.map((m) => m.month)).toEqual(['2026-01', '2026-02', '2026-03']);
    expect(months[0].from).toEqual(new Date('2026-01-15T00:00:00Z'));
    expect(months[1]).toEqual({
      month: '2026-02',
      from: new Date('2026-02-01T00:00:00Z'),
      to: new Date('2026-03-01T00:00:00Z'),
    });
    expect(months[2].to).toEqual(new Date('2026-03-02T00:00:00Z'));
  });
});

describe('splitByDays', () => {
  const at = (iso: string) => new Date(iso);

  it('answers a range of whole days from the summaries only', () => {
    expect(splitByDays({ from: at('2026-11-01T00:00:00Z'), to: at('2026-12-01T00:00:00Z') })).toEqual({
      days: { from: '2026-11-01', to: '2026-12-01' },
      parts: [],
    });
  });

  it('reads the part-days at both ends from the rows', () => {
    expect(splitByDays({ from: at('2026-11-10T12:00:00Z'), to: at('2026-11-12T06:30:00Z') })).toEqual({
      days: { from: '2026-11-11', to: '2026-11-12' },
      parts: [
        { from: at('2026-11-10T12:00:00Z'), to: at('2026-11-11T00:00:00Z') },
        { from: at('2026-11-12T00:00:00Z'), to: at('2026-11-12T06:30:00Z') },
      ],
    });
  });

  it('reads a range without a whole day from the rows alone', () => {
    const range = { from: at('2026-11-10T23:59:59.999Z'), to: at('2026-11-11T00:00:00.001Z') };
    expect(splitByDays(range)).toEqual({ days: null, parts: [range] });
    const within = { from: at('2026-11-11T01:00:00Z'), to: at('2026-11-11T02:00:00Z') };
    expect(splitByDays(within)).toEqual({ days: null, parts: [within] });
  });
});
