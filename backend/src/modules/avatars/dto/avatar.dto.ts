import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsInt, IsOptional, IsString, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import { MAX_ID } from '../../../common/http/id-param';
import { PageInfo, PageQuery } from '../../../common/http/pagination';
import { IsNameText, IsOptionalNotNull, Trim } from '../../../common/http/validators';
import { INDEX_STATES, type IndexState } from '../avatar-file.entity';
import {
  AVATAR_NAME_REQUIRED,
  INPUT_EMPTY,
  MAX_AVATAR_CONTEXT,
  MAX_AVATAR_DESCRIPTION,
  MAX_AVATAR_NAME,
  MAX_EDITABLE_FILE_CHARS,
} from '../avatar-rules';

const IsAvatarName = () =>
  IsNameText(MAX_AVATAR_NAME, {
    required: AVATAR_NAME_REQUIRED,
    tooLong: `The name must be ${MAX_AVATAR_NAME} characters or fewer.`,
  });
const IsFileName = () =>
  IsNameText(255, { required: INPUT_EMPTY, tooLong: 'The file name must be 255 characters or fewer.' });
const ID_MESSAGE = (field: string) => `${field} must be a whole number.`;

export class AvatarFileDataDto {
  @ApiProperty()
  name: string;

  @ApiProperty({ type: Number, nullable: true, description: 'The stored upload; null for an editable file' })
  file_id: number | null;

  @ApiProperty({ description: 'MIME type, from the content' })
  type: string;
}

export class AvatarFileDto {
  @ApiProperty({ description: 'Our id of the avatar file (the fileId of DELETE /api/avatars/file/...)' })
  avatar_file_id: number;

  @ApiProperty({ type: AvatarFileDataDto })
  file_data: AvatarFileDataDto;

  @ApiProperty({
    description:
      'Kept from the OpenAI era; our own id of the file: the same as avatar_file_id (the openaiFileId of ' +
      'DELETE /api/avatars/file/...)',
  })
  openai_file_id: string;

  @ApiProperty({ description: 'A .txt file edited in place' })
  editable: boolean;

  @ApiProperty({ type: String, nullable: true, description: 'The text of an editable file; null otherwise' })
  content: string | null;

  @ApiProperty({ enum: INDEX_STATES, description: 'Indexing of its passages for retrieval' })
  index_state: IndexState;

  @ApiProperty({ type: String, nullable: true, description: 'Why indexing failed' })
  index_error: string | null;

  @ApiProperty({ description: 'Passages indexed' })
  chunks: number;

  @ApiProperty()
  createdAt: Date;

  @ApiProperty()
  updatedAt: Date;
}

export class AvatarDto {
  @ApiProperty()
  avatar_id: number;

  @ApiProperty({ description: 'Our own stable key of the avatar (no longer an OpenAI assistant id)' })
  assistant_id: string;

  @ApiProperty()
  name: string;

  @ApiProperty()
  description: string;

  @ApiProperty({ description: "The avatar's instruction" })
  context: string;

  @ApiProperty()
  user_id: number;

  @ApiProperty({ type: Number, nullable: true, description: 'null = Personal' })
  organization_id: number | null;

  @ApiProperty()
  public: boolean;

  @ApiProperty()
  super_fetch_assistant: boolean;

  @ApiProperty({ description: 'Whether the caller may change it (its owner or a staff admin)' })
  can_manage: boolean;

  @ApiProperty({ type: [AvatarFileDto] })
  avatar_files: AvatarFileDto[];

  @ApiProperty()
  createdAt: Date;

  @ApiProperty()
  updatedAt: Date;
}

export class AvatarResponse {
  @ApiProperty({ type: AvatarDto })
  avatar: AvatarDto;
}

export class AvatarPageResponse extends PageInfo {
  @ApiProperty({ type: [AvatarDto] })
  avatars: AvatarDto[];
}

export class AvatarFileResponse {
  @ApiProperty({ type: AvatarFileDto })
  file: AvatarFileDto;
}

export class AvatarListQuery extends PageQuery {}

export class CreateAvatarBody {
  @ApiProperty({ maxLength: MAX_AVATAR_NAME })
  @Trim()
  @IsAvatarName()
  name: string;

  @ApiPropertyOptional({ maxLength: MAX_AVATAR_DESCRIPTION })
  @IsOptionalNotNull()
  @IsString({ message: 'description must be text.' })
  @MaxLength(MAX_AVATAR_DESCRIPTION, {
    message: `The description must be ${MAX_AVATAR_DESCRIPTION} characters or fewer.`,
  })
  description?: string;

  @ApiPropertyOptional({ maxLength: MAX_AVATAR_CONTEXT })
  @IsOptionalNotNull()
  @IsString({ message: 'context must be text.' })
  @MaxLength(MAX_AVATAR_CONTEXT, { message: 'The context is too long.' })
  context?: string;

  @ApiPropertyOptional({ description: 'Staff admins only' })
  @IsOptionalNotNull()
  @IsBoolean({ message: 'public must be true or false.' })
  public?: boolean;

  @ApiPropertyOptional({ description: 'The Super Fetch assistant (left out of the widget generator)' })
  @IsOptionalNotNull()
  @IsBoolean({ message: 'super_fetch_assistant must be true or false.' })
  super_fetch_assistant?: boolean;
}

export class UpdateAvatarBody {
  @ApiProperty()
  @IsInt({ message: ID_MESSAGE('avatar_id') })
  @Min(1, { message: ID_MESSAGE('avatar_id') })
  @Max(MAX_ID, { message: ID_MESSAGE('avatar_id') })
  avatar_id: number;

  @ApiPropertyOptional({ maxLength: MAX_AVATAR_NAME })
  @ValidateIf((o: UpdateAvatarBody) => o.name !== undefined)
  @Trim()
  @IsAvatarName()
  name?: string;

  @ApiPropertyOptional({ maxLength: MAX_AVATAR_DESCRIPTION })
  @IsOptionalNotNull()
  @IsString({ message: 'description must be text.' })
  @MaxLength(MAX_AVATAR_DESCRIPTION, {
    message: `The description must be ${MAX_AVATAR_DESCRIPTION} characters or fewer.`,
  })
  description?: string;

  @ApiPropertyOptional({ maxLength: MAX_AVATAR_CONTEXT })
  @IsOptionalNotNull()
  @IsString({ message: 'context must be text.' })
  @MaxLength(MAX_AVATAR_CONTEXT, { message: 'The context is too long.' })
  context?: string;

  @ApiPropertyOptional({ description: 'Staff admins only' })
  @IsOptionalNotNull()
  @IsBoolean({ message: 'public must be true or false.' })
  public?: boolean;

  @ApiPropertyOptional()
  @IsOptionalNotNull()
  @IsBoolean({ message: 'super_fetch_assistant must be true or false.' })
  super_fetch_assistant?: boolean;
}

export class AddContextBody {
  @ApiProperty({ minLength: 1, maxLength: MAX_AVATAR_CONTEXT })
  @IsNameText(MAX_AVATAR_CONTEXT, { required: INPUT_EMPTY, tooLong: 'The context is too long.' })
  context: string;

  @ApiPropertyOptional({ maxLength: MAX_AVATAR_NAME })
  @ValidateIf((o: AddContextBody) => o.name !== undefined)
  @Trim()
  @IsAvatarName()
  name?: string;
}

export class EditableFileBody {
  @ApiProperty({ description: "The file's name; .txt is added when missing" })
  @Trim()
  @IsFileName()
  name: string;

  @ApiProperty({ maxLength: MAX_EDITABLE_FILE_CHARS })
  @IsNameText(MAX_EDITABLE_FILE_CHARS, {
    required: INPUT_EMPTY,
    tooLong: 'The file length is too large, please remove text to save',
  })
  content: string;
}

export class UpdateEditableFileBody {
  @ApiProperty({ maxLength: MAX_EDITABLE_FILE_CHARS })
  @IsNameText(MAX_EDITABLE_FILE_CHARS, {
    required: INPUT_EMPTY,
    tooLong: 'The file length is too large, please remove text to save',
  })
  content: string;

  @ApiPropertyOptional()
  @ValidateIf((o: UpdateEditableFileBody) => o.name !== undefined)
  @Trim()
  @IsFileName()
  name?: string;
}

export class AddFileForm {
  @ApiPropertyOptional({ description: "The file's name (default: the uploaded file's)" })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  name?: string;
}

/** Retrieval, as the avatar would answer (for checking what a question finds). */
export class RetrievalQuery {
  @ApiProperty({ maxLength: 2000 })
  @IsString({ message: 'question must be text.' })
  @MaxLength(2000, { message: 'The question is too long.' })
  question: string;

  @ApiPropertyOptional({ description: 'Organization scope' })
  @IsOptional()
  organization_id?: string;
}

export class PassageDto {
  @ApiProperty()
  avatar_file_id: number;

  @ApiProperty()
  file_name: string;

  @ApiProperty()
  passage: string;
}

export class RetrievalResponse {
  @ApiProperty({ type: [PassageDto] })
  passages: PassageDto[];
}
