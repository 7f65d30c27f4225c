/**
 * Loads remotes with webpack's own Module Federation runtime: the URLs come from GET /remotes.json at run time,
 * so no remote address is baked into the shell build (a remote can move to a CDN by editing the manifest).
 * A remote's remoteEntry.js sets its container on `window` under the global name the build gives it
 * (frontends/shared/build/webpack.base.js); the shell puts it in the shared scope, then asks it for './App'.
 */
import {
  loadScript,
  remoteGlobalName,
  type RemoteModule,
  type RemoteName,
  type RemotesManifest,
} from '@avatar-studio/shared';
import type { RemoteSource } from './RemotesProvider';

/** A webpack container as remoteEntry.js publishes it. */
interface Container {
  init(shareScope: unknown): Promise<void> | void;
  get(module: string): Promise<() => unknown>;
}

declare const __webpack_init_sharing__: ((scope: string) => Promise<void>) | undefined;
declare const __webpack_share_scopes__: Record<string, unknown> | undefined;

let manifest: Promise<RemotesManifest> | null = null;
/** The containers put in the shared scope so far, by remote (a container is initialized once). */
const containers = new Map<RemoteName, Promise<Container>>();

async function fetchManifest(): Promise<RemotesManifest> {
  const response = await fetch('/remotes.json', { cache: 'no-cache' });
  if (!response.ok) throw new Error(`The remotes manifest answered ${response.status}`);
  return (await response.json()) as RemotesManifest;
}

/** GET /remotes.json, read once; `force` (a retry) reads it again. */
export function remotesManifest(force = false): Promise<RemotesManifest> {
  if (force || !manifest) {
    manifest = fetchManifest();
    manifest.catch(() => (manifest = null));
  }
  return manifest;
}

async function startContainer(name: RemoteName, entry: string): Promise<Container> {
  const global = window as unknown as Record<string, Container | undefined>;
  const key = remoteGlobalName(name);
  if (!global[key]) await loadScript(entry);
  const container = global[key];
  if (!container) throw new Error(`The ${name} section did not load.`);
  // The shell's shared scope first, so every remote uses the shell's singletons (React, Mantine, the session).
  // Webpack provides both names in its builds; `typeof` keeps the module loadable outside one (tests).
  if (typeof __webpack_init_sharing__ === 'function') await __webpack_init_sharing__('default');
  const scope = typeof __webpack_share_scopes__ === 'object' ? __webpack_share_scopes__.default : {};
  await container.init(scope ?? {});
  return container;
}

/**
 * Loads one remote's './App'. A retry (`force`) re-reads the manifest; a container that failed to load is
 * loaded again, and webpack itself asks again for a chunk that failed before.
 */
export async function loadRemoteModule(name: RemoteName, force = false): Promise<RemoteModule> {
  const entry = (await remotesManifest(force)).remotes[name]?.entry;
  if (!entry) throw new Error(`The ${name} section is not available (it has not been built).`);
  let container = containers.get(name);
  if (!container) {
    container = startContainer(name, entry);
    containers.set(name, container);
    container.catch(() => containers.delete(name));
  }
  const factory = await (await container).get('./App');
  const module = factory() as RemoteModule | undefined;
  if (!module || typeof module.default !== 'function') throw new Error(`The ${name} section did not load.`);
  return module;
}

/** The production source of remotes: the backend's manifest and webpack's federation runtime. */
export const federatedRemotes: RemoteSource = { manifest: remotesManifest, load: loadRemoteModule };
