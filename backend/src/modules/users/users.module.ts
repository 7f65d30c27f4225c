import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Staff } from '../staff/staff.entity';
import { WordsModule } from '../words/words.module';
import { User } from './user.entity';
import { UsersController } from './users.controller';
import { UsersService } from './users.service';

/** Accounts: the signed-in user's profile, settings, API key and deletion, and staff lookups. */
@Module({
  // Staff is registered here too because User has a relation to it (TypeORM needs both entities loaded).
  imports: [TypeOrmModule.forFeature([User, Staff]), WordsModule],
  controllers: [UsersController],
  providers: [UsersService],
  exports: [UsersService],
})
export class UsersModule {}
