/**
 * CSV as spreadsheets read it: comma separated, CRLF lines, every cell quoted when it holds a comma, quote or
 * line break; a cell that a spreadsheet would run as a formula (=, +, -, @, tab, CR first) starts with a quote.
 */
const FORMULA_START = new Set(['=', '+', '-', '@', '\t', '\r']);

export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && text.length > 0 && FORMULA_START.has(text[0])) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function toCsv(rows: (string | number | null | undefined)[][]): string {
  return rows.map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
