import { forwardRef, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { FilesModule } from '../files/files.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { StaffModule } from '../staff/staff.module';
import { WordsModule } from '../words/words.module';
import { CurrentPassword } from './current-password';
import { User } from './user.entity';
import { UsersController } from './users.controller';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';

/** Accounts (the users table): profile, settings, API key, password checks and deletion, and staff lookups. */
@Module({
  imports: [
    TypeOrmModule.forFeature([User]),
    // Staff and organizations read users through this module and this module asks them about roles and
    // memberships, hence the forward references.
    forwardRef(() => StaffModule),
    forwardRef(() => OrganizationsModule),
    FilesModule,
    WordsModule,
  ],
  controllers: [UsersController],
  providers: [UsersService, UsersRepository, CurrentPassword],
  exports: [UsersService, CurrentPassword],
})
export class UsersModule {}
