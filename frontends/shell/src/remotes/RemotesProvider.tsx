import {
  NotFound,
  PageLoader,
  REMOTE_NAMES,
  RemoteErrorPanel,
  type NavigationEntry,
  type RemoteModule,
  type RemoteName,
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

export type RemoteLoader = (name: RemoteName, force?: boolean) => Promise<RemoteModule>;

export type RemoteState =
  { status: 'loading' } | { status: 'ready'; module: RemoteModule } | { status: 'error'; error: unknown };

interface RemotesValue {
  states: Record<RemoteName, RemoteState>;
  retry(name: RemoteName): Promise<void>;
  /** Menu entries of every remote that loaded. */
  navigation: NavigationEntry[];
}

const RemotesContext = createContext<RemotesValue | null>(null);

const initial = Object.fromEntries(REMOTE_NAMES.map((n) => [n, { status: 'loading' }])) as Record<
  RemoteName,
  RemoteState
>;

/**
 * Loads the remotes in `names` (all of them once signed in: their menus make the sidebar); each fails or
 * succeeds on its own.
 */
export function RemotesProvider({
  loader,
  names = REMOTE_NAMES,
  children,
}: {
  loader: RemoteLoader;
  names?: readonly RemoteName[];
  children: ReactNode;
}) {
  const [states, setStates] = useState(initial);
  const started = useRef(new Set<RemoteName>());

  const load = useCallback(
    async (name: RemoteName, force = false) => {
      setStates((s) => ({ ...s, [name]: { status: 'loading' } }));
      try {
        const module = await loader(name, force);
        setStates((s) => ({ ...s, [name]: { status: 'ready', module } }));
      } catch (error) {
        setStates((s) => ({ ...s, [name]: { status: 'error', error } }));
      }
    },
    [loader],
  );

  useEffect(() => {
    for (const name of names) {
      if (started.current.has(name)) continue;
      started.current.add(name);
      void load(name);
    }
  }, [load, names]);

  const navigation = useMemo(
    () =>
      REMOTE_NAMES.flatMap((name) => {
        const state = states[name];
        return state.status === 'ready' ? (state.module.navigation ?? []) : [];
      }),
    [states],
  );
  const retry = useCallback((name: RemoteName) => load(name, true), [load]);
  const value = useMemo(() => ({ states, retry, navigation }), [states, retry, navigation]);
  return <RemotesContext.Provider value={value}>{children}</RemotesContext.Provider>;
}

export function useRemotes(): RemotesValue {
  const value = useContext(RemotesContext);
  if (!value) throw new Error('useRemotes must be used inside <RemotesProvider>');
  return value;
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
  const { states, retry } = useRemotes();
  const state = states[name];
  if (state.status === 'loading') return <PageLoader />;
  if (state.status === 'error')
    return <RemoteErrorPanel name={name} error={state.error} onRetry={() => retry(name)} />;
  const App = state.module.default;
  if (!App) return <NotFound />;
  return (
    <RemoteBoundary name={name} onRetry={() => retry(name)}>
      <App />
    </RemoteBoundary>
  );
}
