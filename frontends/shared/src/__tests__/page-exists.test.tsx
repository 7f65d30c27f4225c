import { configure } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { NotFound } from '../ui/NotFound';
import { expectPageExists, isKnownMissingPage } from '../testing';

configure({ asyncUtilTimeout: 5000 });

function App({ pricing = false }: { pricing?: boolean }) {
  return (
    <Routes>
      <Route path="a" element={<p>page a</p>} />
      {pricing ? <Route path="pricing" element={<p>plans</p>} /> : null}
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}

describe('expectPageExists', () => {
  it('passes for a page the remote has and fails on "Page not found"', async () => {
    await expectPageExists(() => <App />, '/a');
    await expect(expectPageExists(() => <App />, '/b')).rejects.toThrow('/b leads to "Page not found".');
  });

  it('accepts a known-missing page only while it is missing', async () => {
    const knownMissing = [{ path: '/pricing' }];
    expect(isKnownMissingPage('/pricing/3?x=1', knownMissing)).toBe(true);
    expect(isKnownMissingPage('/price', knownMissing)).toBe(false);
    await expectPageExists(() => <App />, '/pricing', { knownMissing });
    await expect(expectPageExists(() => <App pricing />, '/pricing', { knownMissing })).rejects.toThrow(
      '/pricing exists now: remove it from KNOWN_MISSING_PAGES',
    );
  });

  it('checks under the mount the shell gives the remote', async () => {
    await expectPageExists(() => <App />, '/admin/a', { mount: '/admin' });
  });
});
