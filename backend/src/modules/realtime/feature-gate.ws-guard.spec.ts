import type { ExecutionContext } from '@nestjs/common';
import type { AppConfigService } from '../app-config/app-config.service';
import { FeatureFlagsService } from '../app-config/feature-flags.service';
import { FeatureGateWsGuard } from './feature-gate.ws-guard';

/** Flags over a fake app config whose public list holds `values`. */
function flagsWith(values: Record<string, string>): FeatureFlagsService {
  const config = {
    onChange: () => undefined,
    listPublic: async () => Object.entries(values).map(([key, value]) => ({ key, value })),
  } as unknown as AppConfigService;
  return new FeatureFlagsService(config);
}

const wsEvent = (pattern: string) =>
  ({ switchToWs: () => ({ getPattern: () => pattern }) }) as unknown as ExecutionContext;

describe('FeatureGateWsGuard', () => {
  it('ignores an event a switched-off feature owns and lets the others through', async () => {
    const flags = flagsWith({ documents_enabled: 'false', avatars_enabled: 'true' });
    await flags.refresh();
    const guard = new FeatureGateWsGuard(flags);
    expect(guard.canActivate(wsEvent('document_avatar'))).toBe(false);
    expect(guard.canActivate(wsEvent('output'))).toBe(true);
    expect(guard.canActivate(wsEvent('stream_resume'))).toBe(true);
  });

  it('reads an unread flag as its declared default', () => {
    const guard = new FeatureGateWsGuard(flagsWith({}));
    expect(guard.canActivate(wsEvent('document_avatar'))).toBe(true);
  });
});
