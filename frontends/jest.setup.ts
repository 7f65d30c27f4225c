import '@testing-library/jest-dom';
import { cleanup } from '@testing-library/react';
import { setNavigator, setRetryDelay } from '@avatar-studio/shared';

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
