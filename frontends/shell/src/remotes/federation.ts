/**
 * Loads remotes with the Module Federation runtime: the URLs come from GET /remotes.json at run time, so no
 * remote address is baked into the shell build (a remote can move to a CDN by editing the manifest).
 */
import { getInstance, init, loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import type { RemoteModule, RemoteName, RemotesManifest } from '@avatar-studio/shared';
import type { RemoteSource } from './RemotesProvider';

let manifest: Promise<RemotesManifest> | null = null;
const registered = new Set<string>();

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

/** Loads one remote's './App'. A retry (`force`) re-reads the manifest and drops the runtime's cached failure. */
export async function loadRemoteModule(name: RemoteName, force = false): Promise<RemoteModule> {
  const entry = (await remotesManifest(force)).remotes[name]?.entry;
  if (!entry) throw new Error(`The ${name} section is not available (it has not been built).`);
  // The build plugin creates the host instance; init() only runs if this module was loaded without it.
  if (!getInstance()) init({ name: 'shell', remotes: [] });
  if (force || !registered.has(name)) {
    registerRemotes([{ name, entry }], { force: registered.has(name) });
    registered.add(name);
  }
  const module = await loadRemote<RemoteModule>(`${name}/App`);
  if (!module || typeof module.default !== 'function') throw new Error(`The ${name} section did not load.`);
  return module;
}

/** The production source of remotes: the backend's manifest and the federation runtime. */
export const federatedRemotes: RemoteSource = { manifest: remotesManifest, load: loadRemoteModule };
