import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OutboundModule } from '../../common/outbound/outbound.module';
import { AiModule } from '../ai/ai.module';
import { AppConfigModule } from '../app-config/app-config.module';
import { FilesModule } from '../files/files.module';
import { MailModule } from '../mail/mail.module';
import { PaymentsModule } from '../payments/payments.module';
import { ProductsModule } from '../products/products.module';
import { RealtimeModule } from '../realtime/realtime.module';
import { SearchModule } from '../search/search.module';
import { StaffModule } from '../staff/staff.module';
import { TemplatesModule } from '../templates/templates.module';
import { UsersModule } from '../users/users.module';
import { WorkflowsModule } from '../workflows/workflows.module';
import { SetupStateEntry } from './setup-state.entity';
import { SetupChecksService } from './setup-checks.service';
import { SetupController } from './setup.controller';
import { SetupRepository } from './setup.repository';
import { SetupService } from './setup.service';
import { StarterContentService } from './starter-content.service';

/**
 * The first run (setup_state): the staff admins' setup checklist with its connection tests, and the starter
 * templates and workflows loaded once on an empty library.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([SetupStateEntry]),
    OutboundModule,
    AppConfigModule,
    AiModule,
    SearchModule,
    MailModule,
    FilesModule,
    PaymentsModule,
    ProductsModule,
    RealtimeModule,
    StaffModule,
    UsersModule,
    TemplatesModule,
    WorkflowsModule,
  ],
  controllers: [SetupController],
  providers: [SetupRepository, SetupService, SetupChecksService, StarterContentService],
})
export class SetupModule {}
