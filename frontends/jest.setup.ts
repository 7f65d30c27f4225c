import '@testing-library/jest-dom';
import { cleanup, configure } from '@testing-library/react';
import { setNavigator, setRetryDelay } from '@avatar-studio/shared';

// findBy* and waitFor wait up to 5 s (1 s by default): on a loaded 2-core CI machine a screen's first render and
// its fetches can take longer than a second, which failed tests that were right.
configure({ asyncUtilTimeout: 5000 });

// Mantine reads these browser APIs that jsdom lacks.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }),
});
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver = ResizeObserverStub as unknown as typeof ResizeObserver;
window.HTMLElement.prototype.scrollIntoView = () => {};
window.scrollTo = () => {};

beforeEach(() => {
  // Tests do not wait 3 s between retries, nor leave the page on sign-out.
  setRetryDelay(0);
  setNavigator(() => {});
});

afterEach(() => {
  cleanup();
  localStorage.clear();
  jest.restoreAllMocks();
});
