import { forwardRef, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AvatarsModule } from '../avatars/avatars.module';
import { FilesModule } from '../files/files.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { StaffModule } from '../staff/staff.module';
import { WordsModule } from '../words/words.module';
import { CurrentPassword } from './current-password';
import { DefaultAvatarService } from './default-avatar.service';
import { User } from './user.entity';
import { UsersController } from './users.controller';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';
import { UserLocksService } from './user-locks.service';

/** Accounts (the users table): profile, settings, API key, password checks and deletion, and staff lookups. */
@Module({
  imports: [
    TypeOrmModule.forFeature([User]),
    // Staff and organizations read users through this module and this module asks them about roles and
    // memberships, hence the forward references.
    forwardRef(() => StaffModule),
    forwardRef(() => OrganizationsModule),
    FilesModule,
    // The word ledger locks a user's row through this module (UserLocksService), and this module asks it about access.
    forwardRef(() => WordsModule),
    // The default avatar is made by the avatars module, which reaches this one through the word ledger.
    forwardRef(() => AvatarsModule),
  ],
  controllers: [UsersController],
  providers: [DefaultAvatarService, UsersService, UsersRepository, UserLocksService, CurrentPassword],
  exports: [UsersService, UserLocksService, CurrentPassword],
})
export class UsersModule {}
