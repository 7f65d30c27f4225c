import {
  can,
  isFeatureFlag,
  switchedOffScreen,
  type Actor,
  type AppConfig,
  type NavigationEntry,
  type NavigationMenu,
} from '@avatar-studio/shared';

export interface NavigationContext {
  actor: Actor;
  config: Pick<AppConfig, 'flag' | 'feature' | 'get'>;
  hasOrganization: boolean;
}

/**
 * The entries of one menu the user may see: not under a switched-off feature's screens (the contracts
 * declaration), its own flag on when it names one, permission held, organization chosen when needed.
 */
export function visibleEntries(
  entries: NavigationEntry[],
  menu: NavigationMenu,
  { actor, config, hasOrganization }: NavigationContext,
): NavigationEntry[] {
  return entries
    .map((entry, index) => ({ entry, index }))
    .filter(({ entry }) => (entry.menu ?? 'sidebar') === menu)
    .filter(({ entry }) => !switchedOffScreen(entry.path, config))
    .filter(
      ({ entry }) =>
        !entry.flag || (isFeatureFlag(entry.flag) ? config.feature(entry.flag) : config.flag(entry.flag)),
    )
    .filter(({ entry }) => !entry.permission || can(actor, entry.permission))
    .filter(
      ({ entry }) =>
        !entry.requiresOrganization ||
        hasOrganization ||
        (entry.alwaysForStaff === true && actor.staffRole !== null),
    )
    .sort((a, b) => (a.entry.order ?? Infinity) - (b.entry.order ?? Infinity) || a.index - b.index)
    .map(({ entry }) => entry);
}
