import { Injectable, OnModuleInit } from '@nestjs/common';
import {
  REQUIRED_SETUP_ITEMS,
  SETUP_ITEMS,
  TESTABLE_SETUP_ITEMS,
  type SetupItem,
  type SetupState,
} from '@avatar-studio/contracts';
import type { Principal } from '../../common/auth/principal';
import { AiService } from '../ai/ai.service';
import { AppConfigService } from '../app-config/app-config.service';
import { FeatureFlagsService } from '../app-config/feature-flags.service';
import { CONFIG_KEY_MAP } from '../app-config/app-config.keys';
import { ProductsService } from '../products/products.service';
import { SearchService } from '../search/search.service';
import type { SetupChecklistResponse, SetupItemDto } from './dto/setup.dto';
import { SetupChecksService, type SetupTestOutcome } from './setup-checks.service';
import { SetupRepository } from './setup.repository';
import { StarterContentService } from './starter-content.service';

const TEST_PREFIX = 'test:';

/** Where each item is set: a back-office path, with the settings tab and the first field when it is a setting. */
const LINKS: Record<SetupItem, string> = {
  ai: '/admin/settings?tab=Advanced&field=openai_base_url',
  search: '/admin/settings?tab=Advanced&field=search_url',
  email: '/admin/settings?tab=Advanced&field=welcome_email_webhook_url',
  storage: '/admin/settings?tab=Advanced&field=bucket',
  stripe: '/admin/settings?tab=Advanced&field=stripe_private_key',
  paypal: '/admin/settings?tab=Advanced&field=paypal_client_id',
  branding: '/admin/settings?tab=Content&field=app_name',
  product: '/admin/products',
  signup: '/admin/settings?tab=Content&field=signup_enabled',
};

/**
 * The setup checklist: each item's state read from the live configuration, and the result of its last test
 * (forgotten whenever a setting changes, since the change may fix or break it).
 */
@Injectable()
export class SetupService implements OnModuleInit {
  constructor(
    private readonly repo: SetupRepository,
    private readonly config: AppConfigService,
    private readonly flags: FeatureFlagsService,
    private readonly ai: AiService,
    private readonly search: SearchService,
    private readonly products: ProductsService,
    private readonly checks: SetupChecksService,
    private readonly starter: StarterContentService,
  ) {}

  onModuleInit(): void {
    this.config.onChange(() => this.repo.deletePrefix(TEST_PREFIX));
  }

  async checklist(me: Principal): Promise<SetupChecklistResponse> {
    const [configured, tests, starter] = await Promise.all([
      this.configured(me),
      this.repo.withPrefix(TEST_PREFIX),
      this.starter.status(),
    ]);
    const items: SetupItemDto[] = SETUP_ITEMS.map((item) => {
      const { set, detail } = configured[item];
      const testable = TESTABLE_SETUP_ITEMS.includes(item);
      const last = tests.get(`${TEST_PREFIX}${item}`);
      let state: SetupState;
      if (last === 'failed') state = 'failed';
      else if (!set) state = 'todo';
      else if (testable && last !== 'passed') state = 'untested';
      else state = 'done';
      return {
        item,
        state,
        required: REQUIRED_SETUP_ITEMS.includes(item),
        testable,
        link: LINKS[item],
        detail,
      };
    });
    const complete = items.filter((i) => i.required).every((i) => i.state === 'done');
    return { items, complete, starter };
  }

  /** Runs the item's test and remembers whether it passed (until the next settings change). */
  async test(item: SetupItem, me: Principal, testId?: string): Promise<SetupTestOutcome> {
    const outcome = await this.checks.run(item, me, testId);
    if (TESTABLE_SETUP_ITEMS.includes(item))
      await this.repo.set(`${TEST_PREFIX}${item}`, outcome.ok ? 'passed' : 'failed');
    return outcome;
  }

  /** Whether each item is set up, read from the settings now, with a short non-secret detail. */
  private async configured(
    me: Principal,
  ): Promise<Record<SetupItem, { set: boolean; detail: string | null }>> {
    const values = await this.config.getMany([
      'welcome_email_webhook_url',
      'bucket',
      'region',
      'stripe_private_key',
      'paypal_client_id',
      'paypal_client_secret',
      'app_name',
      'tagline',
      'landing_logo_src',
    ] as const);
    const [aiStatus, searchProvider, signupOpen, products] = await Promise.all([
      this.ai.modelsStatus(null),
      this.search.provider(),
      this.flags.isOnNow('signup_enabled'),
      this.products.available({ ...me, org: null }),
    ]);
    const defaultName = CONFIG_KEY_MAP.get('app_name')?.default;
    const s3 = !!(values.bucket && values.region);
    return {
      ai: { set: aiStatus.configured, detail: aiStatus.configured ? aiStatus.default_model : null },
      search: { set: searchProvider !== null, detail: null },
      email: { set: !!values.welcome_email_webhook_url, detail: null },
      // Files always have a home: the bucket when set, else the data folder's disk.
      storage: { set: true, detail: s3 ? 's3' : 'disk' },
      stripe: { set: !!values.stripe_private_key, detail: null },
      paypal: { set: !!(values.paypal_client_id && values.paypal_client_secret), detail: null },
      // A white-label product is branded once its name is no longer ours.
      branding: { set: !!values.app_name && values.app_name !== defaultName, detail: values.app_name },
      product: { set: products.length > 0, detail: products.length ? String(products.length) : null },
      // A decision either way is fine; the checklist shows which one is in force.
      signup: { set: true, detail: signupOpen ? 'open' : 'closed' },
    };
  }
}
