import { remoteGlobalName } from '@avatar-studio/shared';

/** A fresh copy of the loader (its caches are per module), with /remotes.json answering `entry`. */
function loader(entry: string | undefined) {
  let module!: typeof import('./federation');
  jest.isolateModules(() => {
    module = jest.requireActual('./federation');
  });
  global.fetch = jest.fn(async () => ({
    ok: true,
    json: async () => ({ remotes: entry ? { customer: { entry, mounts: [], navigation: [] } } : {} }),
  })) as unknown as typeof fetch;
  return module;
}

/** What a remote's remoteEntry.js puts on window: a container with init and get. */
function fakeContainer(App: unknown) {
  return {
    init: jest.fn(async () => undefined),
    get: jest.fn(async () => () => ({ default: App })),
  };
}

const global_ = window as unknown as Record<string, unknown>;

describe('remote loading with webpack federation', () => {
  afterEach(() => {
    delete global_[remoteGlobalName('customer')];
    document.head.querySelectorAll('script').forEach((s) => s.remove());
  });

  it('loads remoteEntry.js once, puts the container in the shared scope, and answers its ./App', async () => {
    const { loadRemoteModule } = loader('/remotes/customer/remoteEntry.js');
    const App = () => null;
    const container = fakeContainer(App);
    const loading = loadRemoteModule('customer');
    // The script tag the loader added: running it publishes the container.
    await new Promise((r) => setTimeout(r, 0));
    const script = document.head.querySelector('script') as HTMLScriptElement;
    expect(script.getAttribute('src')).toBe('/remotes/customer/remoteEntry.js');
    global_[remoteGlobalName('customer')] = container;
    script.onload?.(new Event('load'));
    const module = await loading;
    expect(module.default).toBe(App);
    expect(container.init).toHaveBeenCalledTimes(1);
    expect(container.get).toHaveBeenCalledWith('./App');

    await loadRemoteModule('customer');
    expect(container.init).toHaveBeenCalledTimes(1);
    expect(document.head.querySelectorAll('script')).toHaveLength(1);
  });

  it('loads the script again on a retry after it failed', async () => {
    const { loadRemoteModule } = loader('/remotes/customer/remoteEntry.js');
    const first = loadRemoteModule('customer');
    await new Promise((r) => setTimeout(r, 0));
    (document.head.querySelector('script') as HTMLScriptElement).onerror?.(new Event('error'));
    await expect(first).rejects.toThrow('Could not load /remotes/customer/remoteEntry.js');
    expect(document.head.querySelectorAll('script')).toHaveLength(0);

    const retry = loadRemoteModule('customer', true);
    await new Promise((r) => setTimeout(r, 0));
    const script = document.head.querySelector('script') as HTMLScriptElement;
    global_[remoteGlobalName('customer')] = fakeContainer(() => null);
    script.onload?.(new Event('load'));
    await expect(retry).resolves.toHaveProperty('default');
  });

  it('says so when the remote was not built', async () => {
    const { loadRemoteModule } = loader(undefined);
    await expect(loadRemoteModule('customer')).rejects.toThrow('has not been built');
  });
});
