import {
  i18n,
  NotFound,
  PageLoader,
  REMOTE_NAMES,
  RemoteErrorPanel,
  type NavigationEntry,
  type RemoteModule,
  type RemoteName,
  type RemotesManifest,
} from '@avatar-studio/shared';
import {
  Component,
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';

/** Where the shell gets remotes from: the manifest (menus and mounts, no code) and each remote's module. */
export interface RemoteSource {
  manifest(force?: boolean): Promise<RemotesManifest>;
  load(name: RemoteName, force?: boolean): Promise<RemoteModule>;
}

export type RemoteState =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'ready'; module: RemoteModule }
  | { status: 'error'; error: unknown };

export type ManifestState =
  | { status: 'idle' | 'loading' }
  | { status: 'ready'; manifest: RemotesManifest }
  | { status: 'error'; error: unknown };

/** Where a remote is mounted: `path` for a <Route> ('/admin/*', or '*' for the remote mounted at '/'). */
export interface RemoteMount {
  name: RemoteName;
  path: string;
  /** Mounted for staff accounts only. */
  staffOnly: boolean;
}

interface RemotesValue {
  manifest: ManifestState;
  states: Record<RemoteName, RemoteState>;
  /** Starts reading the manifest (once). */
  ensureManifest(): void;
  /** Starts loading a remote's code (once). */
  ensure(name: RemoteName): void;
  retry(name: RemoteName): Promise<void>;
  retryManifest(): Promise<void>;
  /** Menu entries every built remote publishes (known before any remote's code loads). */
  navigation: NavigationEntry[];
  mounts: RemoteMount[];
}

const RemotesContext = createContext<RemotesValue | null>(null);

const initial = Object.fromEntries(REMOTE_NAMES.map((n) => [n, { status: 'idle' }])) as Record<
  RemoteName,
  RemoteState
>;

/** Makes each published label the text of its key, so menus read right before the remote registers its own. */
function registerLabels(manifest: RemotesManifest): void {
  for (const descriptor of Object.values(manifest.remotes)) {
    for (const entry of descriptor?.navigation ?? []) {
      const [ns, key] = entry.labelKey.split(':');
      if (!key) continue;
      for (const lang of ['en', 'es'] as const) {
        if (!i18n.exists(key, { ns, lng: lang })) i18n.addResource(lang, ns, key, entry.label[lang]);
      }
    }
  }
}

/**
 * Holds the remotes manifest and the remotes' modules. Nothing loads by itself: the signed-in frame asks for
 * the manifest (its menus and routes), and a route asks for its remote's code only when it is opened, so a
 * page downloads just the remotes it shows. Each remote fails or succeeds on its own.
 */
export function RemotesProvider({ source, children }: { source: RemoteSource; children: ReactNode }) {
  const [states, setStates] = useState(initial);
  const [manifest, setManifest] = useState<ManifestState>({ status: 'idle' });
  const started = useRef(new Set<RemoteName>());
  const manifestStarted = useRef(false);

  const loadManifest = useCallback(
    async (force = false) => {
      setManifest({ status: 'loading' });
      try {
        const value = await source.manifest(force);
        registerLabels(value);
        setManifest({ status: 'ready', manifest: value });
      } catch (error) {
        setManifest({ status: 'error', error });
      }
    },
    [source],
  );

  const load = useCallback(
    async (name: RemoteName, force = false) => {
      setStates((s) => ({ ...s, [name]: { status: 'loading' } }));
      try {
        const module = await source.load(name, force);
        setStates((s) => ({ ...s, [name]: { status: 'ready', module } }));
      } catch (error) {
        setStates((s) => ({ ...s, [name]: { status: 'error', error } }));
      }
    },
    [source],
  );

  const ensureManifest = useCallback(() => {
    if (manifestStarted.current) return;
    manifestStarted.current = true;
    void loadManifest();
  }, [loadManifest]);

  const ensure = useCallback(
    (name: RemoteName) => {
      if (started.current.has(name)) return;
      started.current.add(name);
      void load(name);
    },
    [load],
  );

  const published = manifest.status === 'ready' ? manifest.manifest.remotes : null;
  const navigation = useMemo(
    () => REMOTE_NAMES.flatMap((name) => published?.[name]?.navigation ?? []),
    [published],
  );
  const mounts = useMemo(
    () =>
      REMOTE_NAMES.flatMap((name) =>
        (published?.[name]?.mounts ?? []).map((mount) => ({
          name,
          path: mount === '/' ? '*' : `${mount.replace(/\/+$/, '')}/*`,
          staffOnly: published?.[name]?.audience === 'staff',
        })),
      ),
    [published],
  );
  const retry = useCallback((name: RemoteName) => load(name, true), [load]);
  const retryManifest = useCallback(() => loadManifest(true), [loadManifest]);
  const value = useMemo(
    () => ({ manifest, states, ensureManifest, ensure, retry, retryManifest, navigation, mounts }),
    [manifest, states, ensureManifest, ensure, retry, retryManifest, navigation, mounts],
  );
  return <RemotesContext.Provider value={value}>{children}</RemotesContext.Provider>;
}

export function useRemotes(): RemotesValue {
  const value = useContext(RemotesContext);
  if (!value) throw new Error('useRemotes must be used inside <RemotesProvider>');
  return value;
}

/** The manifest, read on first use. */
export function useRemotesManifest(): Pick<
  RemotesValue,
  'manifest' | 'navigation' | 'mounts' | 'retryManifest'
> {
  const { manifest, navigation, mounts, retryManifest, ensureManifest } = useRemotes();
  useEffect(ensureManifest, [ensureManifest]);
  return { manifest, navigation, mounts, retryManifest };
}

/** One remote's module, loaded on first use. */
export function useRemote(name: RemoteName): { state: RemoteState; retry(): Promise<void> } {
  const { states, retry, ensure } = useRemotes();
  useEffect(() => ensure(name), [ensure, name]);
  return { state: states[name], retry: () => retry(name) };
}

/** Catches a remote that throws while rendering, so the shell stays usable and offers a retry. */
class RemoteBoundary extends Component<
  { name: RemoteName; onRetry(): Promise<void>; children: ReactNode },
  { error: unknown }
> {
  override state: { error: unknown } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override render() {
    if (this.state.error) {
      return (
        <RemoteErrorPanel
          name={this.props.name}
          error={this.state.error}
          onRetry={async () => {
            await this.props.onRetry();
            this.setState({ error: null });
          }}
        />
      );
    }
    return this.props.children;
  }
}

/** Renders one remote's App where the shell mounts it: a loader, the remote, or an error panel with Retry. */
export function RemoteOutlet({ name }: { name: RemoteName }) {
  const { state, retry } = useRemote(name);
  if (state.status === 'idle' || state.status === 'loading') return <PageLoader />;
  if (state.status === 'error') return <RemoteErrorPanel name={name} error={state.error} onRetry={retry} />;
  const App = state.module.default;
  if (!App) return <NotFound />;
  return (
    <RemoteBoundary name={name} onRetry={retry}>
      <App />
    </RemoteBoundary>
  );
}
