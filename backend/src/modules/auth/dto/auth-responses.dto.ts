import { ApiProperty } from '@nestjs/swagger';
import { PublicUserDto } from '../../users/dto/public-user.dto';

export class TokenPairDto {
  @ApiProperty({ description: 'JWT for `Authorization: Bearer`, valid 15 minutes' }) access_token: string;
  @ApiProperty({
    description: 'Single use: each refresh answers a new one; reusing a spent one ends the session',
  })
  refresh_token: string;
  @ApiProperty({ description: 'Seconds until the access token expires' }) expires_in: number;
}

export class AuthSessionDto extends TokenPairDto {
  @ApiProperty({ type: PublicUserDto }) user: PublicUserDto;
}
