import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { PageQuery } from '../../../common/http/pagination';
import { IsOptionalNotNull } from '../../../common/http/validators';

export class FileDto {
  @ApiProperty()
  file_id: number;

  @ApiProperty({
    example: '/api/files/content/3f9a…e1.png',
    description: 'Where the bytes are served; images and videos are public, other files need the owner',
  })
  src: string;

  @ApiProperty({ description: 'The name given by the user (display only)' })
  name: string;

  @ApiProperty({ example: 'image/png', description: 'Detected from the content, never from the name' })
  type: string;

  @ApiProperty({ description: 'Bytes' })
  size: number;

  @ApiProperty({ description: 'Anyone holding src can fetch it (images and videos)' })
  public: boolean;

  @ApiProperty()
  createdAt: Date;

  @ApiProperty()
  updatedAt: Date;
}

export class FileResponse {
  @ApiProperty({ type: FileDto })
  file: FileDto;
}

export class FileListResponse {
  @ApiProperty({ type: [FileDto] })
  files: FileDto[];

  @ApiProperty()
  total: number;

  @ApiProperty()
  page: number;

  @ApiProperty()
  limit: number;
}

/** `?query=` searches the name; newest first. */
export class FileListQuery extends PageQuery {}

/** JSON body of POST /files (a text file), or the text fields sent beside a multipart `file`. */
export class CreateFileDto {
  @ApiPropertyOptional({ description: 'Display name; defaults to the uploaded file name', maxLength: 255 })
  @IsOptionalNotNull()
  @IsString({ message: 'The file name must be text.' })
  @MaxLength(255, { message: 'The file name is too long (255 characters at most).' })
  name?: string;

  @ApiPropertyOptional({ description: 'Creates a plain text file with this content (JSON requests)' })
  @IsOptionalNotNull()
  @IsString({ message: 'The file content must be text.' })
  content?: string;
}

/** JSON body of PUT /files/{id} (rename), or the fields sent beside a multipart `file` (replace). */
export class UpdateFileDto {
  @ApiPropertyOptional({ maxLength: 255 })
  @IsOptionalNotNull()
  @IsString({ message: 'The file name must be text.' })
  @IsNotEmpty({ message: 'The file name cannot be empty.' })
  @MaxLength(255, { message: 'The file name is too long (255 characters at most).' })
  name?: string;
}

/** The OpenAPI body of POST /files: a multipart upload or JSON text. */
export const CREATE_FILE_BODY_SCHEMA = {
  type: 'object' as const,
  properties: {
    file: { type: 'string', format: 'binary', description: 'Multipart: the file' },
    name: { type: 'string', maxLength: 255 },
    content: { type: 'string', description: 'JSON: text of a new plain text file' },
  },
};

export const UPDATE_FILE_BODY_SCHEMA = {
  type: 'object' as const,
  properties: {
    file: { type: 'string', format: 'binary', description: 'Multipart: new content' },
    name: { type: 'string', maxLength: 255, description: 'New name' },
  },
};
