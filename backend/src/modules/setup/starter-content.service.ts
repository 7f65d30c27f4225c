import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import type { StarterContentState } from '@avatar-studio/contracts';
import type { Principal } from '../../common/auth/principal';
import { APP_ENV, AppEnv } from '../../config/env';
import { UnitOfWork } from '../../database/unit-of-work';
import { StaffService } from '../staff/staff.service';
import { TemplatesService } from '../templates/templates.service';
import { WorkflowsService } from '../workflows/workflows.service';
import { SetupRepository } from './setup.repository';
import {
  STARTER_LANGUAGES,
  STARTER_TEMPLATES,
  STARTER_WORKFLOWS,
  starterDataProblems,
} from './starter-content';

const STATE_KEY = 'starter_content';

export interface StarterContentStatus {
  state: StarterContentState;
  templates: number;
  workflows: number;
}

/**
 * The starter templates and workflows: created once, on the first start with an empty library and a staff
 * admin to author them, through the template and workflow services (so every rule of the API applies), marked
 * `starter`. The `starter_content` row of setup_state remembers the outcome, so removed content never returns.
 */
@Injectable()
export class StarterContentService implements OnApplicationBootstrap {
  private readonly logger = new Logger('StarterContent');

  constructor(
    @Inject(APP_ENV) private readonly env: AppEnv,
    private readonly repo: SetupRepository,
    private readonly templates: TemplatesService,
    private readonly workflows: WorkflowsService,
    private readonly staff: StaffService,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /** Runs after the first admin exists (FirstAdminService's module boots earlier, being imported deeper). */
  async onApplicationBootstrap(): Promise<void> {
    if (!this.env.starterContent) return;
    await this.loadIfFirstRun();
  }

  /** Loads the starter content when nothing was decided yet; answers whether it loaded it now. */
  async loadIfFirstRun(): Promise<boolean> {
    if (await this.repo.get(STATE_KEY)) return false;
    const author = await this.author();
    if (!author) {
      this.logger.warn('The starter templates wait for a staff admin to exist; they load on a later start.');
      return false;
    }
    const [templates, workflows] = await Promise.all([
      this.templates.starterState(),
      this.workflows.starterState(),
    ]);
    if (templates.any || workflows.any) {
      // A library someone already filled is never added to.
      await this.repo.claim(STATE_KEY, 'skipped');
      return false;
    }
    // Instances starting together: the one that claims the row loads.
    if (!(await this.repo.claim(STATE_KEY, 'loading'))) return false;
    try {
      const problems = starterDataProblems();
      if (problems.length) throw new Error(problems.join('; '));
      await this.create(author);
      await this.repo.set(STATE_KEY, 'loaded');
      this.logger.log(
        `Loaded ${STARTER_TEMPLATES.length * STARTER_LANGUAGES.length} starter templates and ` +
          `${STARTER_WORKFLOWS.length * STARTER_LANGUAGES.length} workflows.`,
      );
      return true;
    } catch (err) {
      // Nothing half-loaded stays, and the next start tries again.
      await this.removeRows();
      await this.repo.deletePrefix(STATE_KEY);
      this.logger.error(`The starter content could not be loaded: ${(err as Error).message}`);
      return false;
    }
  }

  async status(): Promise<StarterContentStatus> {
    const [stored, templates, workflows] = await Promise.all([
      this.repo.get(STATE_KEY),
      this.templates.starterState(),
      this.workflows.starterState(),
    ]);
    const state: StarterContentState =
      stored === 'removed' ? 'removed' : templates.starter || workflows.starter ? 'loaded' : 'none';
    return { state, templates: templates.starter, workflows: workflows.starter };
  }

  /** Deletes every starter template and workflow (edited ones too) and remembers it, in one transaction. */
  async remove(): Promise<StarterContentStatus> {
    await this.unitOfWork.run(async (m) => {
      await this.workflows.removeStarter(m);
      await this.templates.removeStarter(m);
      await this.repo.set(STATE_KEY, 'removed', m);
    });
    return this.status();
  }

  private async removeRows(): Promise<void> {
    await this.unitOfWork.run(async (m) => {
      await this.workflows.removeStarter(m);
      await this.templates.removeStarter(m);
    });
  }

  private async create(author: Principal): Promise<void> {
    for (const language of STARTER_LANGUAGES) {
      const ids = new Map<string, number>();
      for (const template of STARTER_TEMPLATES) {
        const text = template[language];
        const created = await this.templates.create(
          author,
          { ...text, language, public: true, editable: false, show_prompt: true },
          { starter: true },
        );
        ids.set(template.key, created.template_id);
      }
      for (const workflow of STARTER_WORKFLOWS) {
        const text = workflow[language];
        await this.workflows.create(
          author,
          { ...text, template_ids: workflow.steps.map((key) => ids.get(key) as number) },
          { starter: true },
        );
      }
    }
  }

  /** The first staff admin, acting in Personal scope: the starter content's author. */
  private async author(): Promise<Principal | null> {
    const { staff } = await this.staff.list({ page: 1, limit: 200 });
    const admin = staff.find((s) => s.role === 'admin');
    if (!admin) return null;
    return {
      user_id: admin.user_id,
      email: admin.user.email,
      session_id: null,
      via: 'token',
      staffRole: 'admin',
      org: null,
    };
  }
}
