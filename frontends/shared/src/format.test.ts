import { dateDisplayFormat, formatDate, formatDateTime, formatMoney, formatNumber } from './format';

describe('the date and number formatter', () => {
  // Local noon, so the day is the same in any time zone the tests run in.
  const march4 = new Date(2025, 2, 4, 12, 5);
  const sept30 = new Date(2025, 8, 30, 9, 0);

  it("writes dates as 'MMM DD YYYY' in English", () => {
    expect(formatDate(march4, 'en')).toBe('Mar 04 2025');
    expect(formatDate(sept30.toISOString(), 'en-US')).toBe('Sep 30 2025');
  });

  it("writes dates as 'DD MMM YYYY' in Spanish", () => {
    expect(formatDate(march4, 'es')).toBe('04 mar 2025');
    expect(formatDate(sept30, 'es')).toMatch(/^30 sept? 2025$/);
  });

  it('adds the 24-hour time to a date-time', () => {
    expect(formatDateTime(march4, 'en')).toBe('Mar 04 2025 12:05');
    expect(formatDateTime(march4, 'es')).toBe('04 mar 2025 12:05');
  });

  it('gives null for no date or an invalid one', () => {
    expect(formatDate(null, 'en')).toBeNull();
    expect(formatDate('', 'en')).toBeNull();
    expect(formatDate('not a date', 'es')).toBeNull();
    expect(formatDateTime(undefined, 'en')).toBeNull();
  });

  it('separates thousands with commas in every language', () => {
    expect(formatNumber(12345)).toBe('12,345');
    expect(formatNumber(1234567.6)).toBe('1,234,568');
    expect(formatNumber('2500')).toBe('2,500');
    expect(formatNumber(null)).toBe('0');
    expect(formatMoney(1234.5)).toBe('1,234.50');
  });

  it('names the pattern for date pickers', () => {
    expect(dateDisplayFormat('en')).toBe('MMM DD YYYY');
    expect(dateDisplayFormat('es')).toBe('DD MMM YYYY');
  });
});
