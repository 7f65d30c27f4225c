import { DynamicModule, MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import { AuthCoreModule } from './common/auth/auth-core.module';
import { HttpExceptionFilter } from './common/errors/http-exception.filter';
import { RequestIdMiddleware } from './common/http/request-id.middleware';
import { JobsModule } from './common/jobs/jobs.module';
import { WorkersModule } from './common/workers/workers.module';
import { RateLimitModule } from './common/rate-limit/rate-limit.module';
import { ConfigModule } from './config/config.module';
import type { AppEnv } from './config/env';
import { DatabaseModule } from './database/database.module';
import { AiModule } from './modules/ai/ai.module';
import { AuditModule } from './modules/audit/audit.module';
import { AvatarsModule } from './modules/avatars/avatars.module';
import { AppConfigModule } from './modules/app-config/app-config.module';
import { AuthModule } from './modules/auth/auth.module';
import { ConversationsModule } from './modules/conversations/conversations.module';
import { DocumentsModule } from './modules/documents/documents.module';
import { SuperFetchModule } from './modules/super-fetch/super-fetch.module';
import { TopicsModule } from './modules/topics/topics.module';
import { TrainingsModule } from './modules/trainings/trainings.module';
import { TutorialsModule } from './modules/tutorials/tutorials.module';
import { FilesModule } from './modules/files/files.module';
import { HealthModule } from './modules/health/health.module';
import { MailModule } from './modules/mail/mail.module';
import { GenerationModule } from './modules/generation/generation.module';
import { MessagesModule } from './modules/messages/messages.module';
import { OrganizationsModule } from './modules/organizations/organizations.module';
import { RealtimeModule } from './modules/realtime/realtime.module';
import { StaffModule } from './modules/staff/staff.module';
import { TemplatesModule } from './modules/templates/templates.module';
import { UserWorkflowsModule } from './modules/user-workflows/user-workflows.module';
import { UsersModule } from './modules/users/users.module';
import { WebModule } from './modules/web/web.module';
import { WordsModule } from './modules/words/words.module';
import { ProductsModule } from './modules/products/products.module';
import { CampaignsModule } from './modules/campaigns/campaigns.module';
import { GroupsModule } from './modules/groups/groups.module';
import { DiscountsModule } from './modules/discounts/discounts.module';
import { PurchasesModule } from './modules/purchases/purchases.module';
import { PaymentsModule } from './modules/payments/payments.module';
import { CustomersModule } from './modules/customers/customers.module';
import { AnalyticsModule } from './modules/analytics/analytics.module';
import { WorkflowsModule } from './modules/workflows/workflows.module';
import { WidgetModule } from './modules/widget/widget.module';
import { SetupModule } from './modules/setup/setup.module';

@Module({})
export class AppModule implements NestModule {
  static forRoot(env: AppEnv): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(env),
        DatabaseModule.forRoot(),
        JobsModule,
        WorkersModule,
        RateLimitModule,
        ThrottlerModule.forRoot([{ name: 'auth', ttl: 60_000, limit: env.authRateLimitPerMinute }]),
        AuthCoreModule,
        HealthModule,
        AuditModule,
        AppConfigModule,
        MailModule,
        UsersModule,
        AuthModule,
        StaffModule,
        FilesModule,
        OrganizationsModule,
        WordsModule,
        ProductsModule,
        GroupsModule,
        CampaignsModule,
        DiscountsModule,
        PurchasesModule,
        PaymentsModule,
        CustomersModule,
        AnalyticsModule,
        ConversationsModule,
        AvatarsModule,
        TemplatesModule,
        AiModule,
        GenerationModule,
        MessagesModule,
        DocumentsModule,
        TopicsModule,
        SuperFetchModule,
        TrainingsModule,
        TutorialsModule,
        WorkflowsModule,
        UserWorkflowsModule,
        WidgetModule,
        SetupModule,
        WebModule,
        RealtimeModule,
      ],
      providers: [{ provide: APP_FILTER, useClass: HttpExceptionFilter }],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(RequestIdMiddleware).forRoutes('{*path}');
  }
}
