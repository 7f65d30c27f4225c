import { Global, Module } from '@nestjs/common';
import { UserLimitGuard } from './user-limit.guard';
import { UserLimits } from './user-limits';

@Global()
@Module({ providers: [UserLimits, UserLimitGuard], exports: [UserLimits, UserLimitGuard] })
export class RateLimitModule {}
