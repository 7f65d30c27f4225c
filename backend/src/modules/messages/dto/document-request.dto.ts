import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsString, Max, MaxLength, Min } from 'class-validator';
import { MAX_ID } from '../../../common/http/id-param';
import { Trim } from '../../../common/http/validators';
import { MAX_DOCUMENT_REQUEST_MESSAGE } from '../document-request-rules';

/** The form fields beside `file` of POST /avatars/user-message/document-request. */
export class DocumentRequestForm {
  @ApiProperty({ description: 'The avatar asked (its thread gets the exchange)' })
  @Type(() => Number)
  @IsInt({ message: 'avatar_id must be a whole number.' })
  @Min(1, { message: 'avatar_id must be a whole number.' })
  @Max(MAX_ID, { message: 'avatar_id must be a whole number.' })
  avatar_id: number;

  @ApiProperty({
    maxLength: MAX_DOCUMENT_REQUEST_MESSAGE,
    description: 'What the user asks about the document',
  })
  @Trim()
  @IsString({ message: "The message can't be empty." })
  @MaxLength(MAX_DOCUMENT_REQUEST_MESSAGE, { message: 'The message is too long.' })
  message: string;
}
