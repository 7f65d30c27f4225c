import { forwardRef, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { UsersModule } from '../users/users.module';
import { StaffController } from './staff.controller';
import { Staff } from './staff.entity';
import { StaffRepository } from './staff.repository';
import { StaffService } from './staff.service';

/** Who works in the back office (the staff table). */
@Module({
  imports: [TypeOrmModule.forFeature([Staff]), forwardRef(() => UsersModule)],
  controllers: [StaffController],
  providers: [StaffService, StaffRepository],
  exports: [StaffService],
})
export class StaffModule {}
