import { pageWindow } from './Pager';

describe('pageWindow', () => {
  it('shows at most five pages, centred on the current one where the ends allow', () => {
    expect(pageWindow(1, 3, 5)).toEqual([1, 2, 3]);
    expect(pageWindow(1, 20, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(10, 20, 5)).toEqual([8, 9, 10, 11, 12]);
    expect(pageWindow(20, 20, 5)).toEqual([16, 17, 18, 19, 20]);
    expect(pageWindow(19, 20, 5)).toEqual([16, 17, 18, 19, 20]);
  });
});
