import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsOptional,
  IsObject,
  IsString,
  MaxLength,
  ValidateBy,
  ValidateNested,
} from 'class-validator';
import { CONFIG_GROUPS, CONFIG_TYPES, type ConfigGroup, type ConfigType } from '../app-config.keys';

/** One public entry. */
export class ConfigEntryDto {
  @ApiProperty({ example: 'app_name' })
  key: string;

  @ApiProperty({ type: String, nullable: true, example: 'Avatar Studio' })
  value: string | null;
}

/** One entry as admins see it: secrets masked, with what the settings screen needs to render it. */
export class AdminConfigEntryDto extends ConfigEntryDto {
  @ApiProperty({ description: 'Encrypted at rest, masked here, never public' })
  secret: boolean;

  @ApiProperty({ enum: CONFIG_TYPES })
  type: ConfigType;

  @ApiProperty({ enum: CONFIG_GROUPS, description: 'Settings tab' })
  group: ConfigGroup;

  @ApiPropertyOptional({ type: [String], description: 'The only values accepted, when limited' })
  options?: string[];
}

export class PublicConfigResponse {
  @ApiProperty({ type: [ConfigEntryDto] })
  config: ConfigEntryDto[];
}

export class AdminConfigResponse {
  @ApiProperty({ type: [AdminConfigEntryDto] })
  config: AdminConfigEntryDto[];
}

export class ConfigChangeDto {
  @ApiProperty({ example: 'signup_enabled' })
  @IsString({ message: 'Each setting needs a key.' })
  @MaxLength(100, { message: 'The setting key is too long.' })
  key: string;

  @ApiProperty({
    oneOf: [{ type: 'string' }, { type: 'boolean' }],
    nullable: true,
    description: 'Empty or null unsets; a masked secret sent back leaves the stored one unchanged',
  })
  @ValidateBy({
    name: 'isConfigValue',
    validator: {
      validate: (value: unknown) => value === null || typeof value === 'string' || typeof value === 'boolean',
      defaultMessage: () => 'Each setting value must be text, true/false or null.',
    },
  })
  value: string | boolean | null;
}

export class UpdateConfigDto {
  @ApiProperty({ type: [ConfigChangeDto] })
  @IsArray({ message: 'config must be a list of { key, value }.' })
  @ArrayMaxSize(500, { message: 'Too many settings in one request.' })
  // ValidateNested alone lets a list inside the list through.
  @IsObject({ each: true, message: 'Each setting must be an object { key, value }.' })
  @ValidateNested({ each: true })
  @Type(() => ConfigChangeDto)
  config: ConfigChangeDto[];

  @ApiPropertyOptional({ description: 'The current password; required when a secret setting changes' })
  @IsOptional()
  @IsString({ message: 'password must be text.' })
  @MaxLength(200, { message: 'password is too long.' })
  password?: string;
}
