import {
  disabledFeatureOfApiCall,
  disabledFeatureOfEvent,
  disabledFeatureOfScreen,
  FEATURE_FLAGS,
  FEATURES,
  featureDisabledMessage,
  isFeatureOn,
  pathUnder,
  type FeatureFlag,
} from './feature-flags';

const reader =
  (values: Partial<Record<FeatureFlag, string>>) =>
  (flag: FeatureFlag): string | undefined =>
    values[flag];

describe('feature flags declaration', () => {
  it('declares every flag once, with API prefixes under /api and screens that are paths', () => {
    expect(FEATURES.map((f) => f.flag).sort()).toEqual([...FEATURE_FLAGS].sort());
    for (const feature of FEATURES) {
      for (const prefix of feature.api) expect(prefix).toMatch(/^\/api\/[a-z_-]+/);
      for (const screen of feature.screens) expect(screen).toMatch(/^\/[a-z]/);
      if (feature.requires) expect(FEATURE_FLAGS).toContain(feature.requires);
    }
  });

  it('never gates the settings that switch a feature back on', () => {
    for (const feature of FEATURES) {
      for (const path of ['/api/appconfig', '/api/appconfig/admin', '/admin/settings']) {
        expect(feature.api.some((p) => pathUnder(path, p))).toBe(false);
        expect(feature.screens.some((p) => pathUnder(path, p))).toBe(false);
      }
    }
  });

  it('reads an unset flag as its default, and a feature as off when the flag it requires is off', () => {
    expect(isFeatureOn('templates_enabled', reader({}))).toBe(true);
    expect(isFeatureOn('search_enabled', reader({}))).toBe(false);
    expect(isFeatureOn('templates_enabled', reader({ templates_enabled: 'false' }))).toBe(false);
    expect(isFeatureOn('templates_enabled', reader({ templates_enabled: '1' }))).toBe(true);
    expect(isFeatureOn('campaigns_enabled', reader({ organizations_enabled: 'false' }))).toBe(false);
    expect(isFeatureOn('spanish_enabled', reader({ spanish_enabled: 'true' }))).toBe(false);
    expect(isFeatureOn('spanish_enabled', reader({ spanish_enabled: 'true', landing_enabled: 'true' }))).toBe(
      true,
    );
  });

  it('matches paths by whole segments, with :x matching any one segment', () => {
    expect(pathUnder('/api/templates', '/api/templates')).toBe(true);
    expect(pathUnder('/api/templates/12', '/api/templates')).toBe(true);
    expect(pathUnder('/api/templatesx', '/api/templates')).toBe(false);
    expect(pathUnder('/organizations/all', '/organization')).toBe(false);
    expect(pathUnder('/campaign/4/documents/9', '/campaign/:campaign_id/documents')).toBe(true);
    expect(pathUnder('/campaign/4/templates', '/campaign/:campaign_id/documents')).toBe(false);
  });

  it('finds the switched-off feature of an API call, a screen and an event', () => {
    const off = reader({ documents_enabled: 'false', organizations_enabled: 'false' });
    expect(disabledFeatureOfApiCall('/api/documents/3', [], off)?.flag).toBe('documents_enabled');
    const campaignsOff = reader({ campaigns_enabled: 'false' });
    expect(disabledFeatureOfApiCall('/api/documents/3/campaigns/4', [], campaignsOff)?.flag).toBe(
      'campaigns_enabled',
    );
    expect(disabledFeatureOfApiCall('/api/documents/3', [], campaignsOff)).toBeNull();
    // Sharing saves into an avatar: the avatars feature checks it, switching documents off leaves it alone.
    expect(disabledFeatureOfApiCall('/api/messages/share', [], off)).toBeNull();
    expect(disabledFeatureOfApiCall('/api/messages', [], off)).toBeNull();
    expect(disabledFeatureOfApiCall('/api/conversations', ['organization_id'], off)?.flag).toBe(
      'organizations_enabled',
    );
    expect(disabledFeatureOfApiCall('/api/campaigns', [], off)?.flag).toBe('campaigns_enabled');
    // The gate passes the query's names as an iterator (URLSearchParams.keys()), which can be read only once.
    const names = (function* () {
      yield 'x';
      yield 'organization_id';
    })();
    expect(disabledFeatureOfApiCall('/api/conversations', names, off)?.flag).toBe('organizations_enabled');
    expect(disabledFeatureOfApiCall('/api/conversations', ['organization_id'], reader({}))).toBeNull();
    expect(disabledFeatureOfScreen('/documents/5', off)?.flag).toBe('documents_enabled');
    expect(disabledFeatureOfScreen('/conversations', off)).toBeNull();
    expect(disabledFeatureOfEvent('document_output', off)?.flag).toBe('documents_enabled');
    expect(disabledFeatureOfEvent('message_stream', off)).toBeNull();
    expect(featureDisabledMessage(FEATURES.find((f) => f.flag === 'documents_enabled')!)).toBe(
      'The Documents feature is switched off in this app. A staff admin can switch it on in Admin → Settings.',
    );
  });
});
