import { csvCell, toCsv } from './csv';

describe('csv', () => {
  it('quotes cells with commas, quotes or line breaks, and defuses formulas', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('=SUM(A1)')).toBe("'=SUM(A1)");
    expect(csvCell('-1+1')).toBe("'-1+1");
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(null)).toBe('');
    expect(
      toCsv([
        ['a', 1],
        ['b,c', null],
      ]),
    ).toBe('a,1\r\n"b,c",\r\n');
  });
});
