import { Module } from '@nestjs/common';
import { AnalyticsModule } from '../analytics/analytics.module';
import { AuditModule } from '../audit/audit.module';
import { AuthModule } from '../auth/auth.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { PurchasesModule } from '../purchases/purchases.module';
import { StaffModule } from '../staff/staff.module';
import { UsersModule } from '../users/users.module';
import { WordsModule } from '../words/words.module';
import { CustomersController } from './customers.controller';
import { CustomersService } from './customers.service';

/** The back office's customers: list, one customer, create, edit, delete, open their account. Owns no table (the list's total is the analytics sign-ups summary). */
@Module({
  imports: [
    UsersModule,
    WordsModule,
    AuthModule,
    AuditModule,
    StaffModule,
    PurchasesModule,
    OrganizationsModule,
    AnalyticsModule,
  ],
  controllers: [CustomersController],
  providers: [CustomersService],
})
export class CustomersModule {}
