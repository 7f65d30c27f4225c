import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, Max, Min, ValidateBy, ValidateIf, ValidationArguments } from 'class-validator';
import { MAX_ID } from '../../../common/http/id-param';
import { PageInfo, PageQuery } from '../../../common/http/pagination';
import { IsNameText, Trim } from '../../../common/http/validators';
import {
  DOCUMENT_NAME_REQUIRED,
  DOCUMENT_TOO_LARGE,
  MAX_DOCUMENT_CONTENT,
  MAX_DOCUMENT_NAME,
} from '../document-rules';

const ID_MESSAGE = 'document_id must be a whole number.';

const IsDocumentName = () =>
  IsNameText(MAX_DOCUMENT_NAME, {
    required: DOCUMENT_NAME_REQUIRED,
    tooLong: `The name must be ${MAX_DOCUMENT_NAME} characters or fewer.`,
  });

function IsDocumentContent(): PropertyDecorator {
  return ValidateBy({
    name: 'isDocumentContent',
    validator: {
      validate: (v: unknown) => typeof v === 'string' && v.length <= MAX_DOCUMENT_CONTENT,
      defaultMessage: (args?: ValidationArguments) =>
        typeof args?.value === 'string' ? DOCUMENT_TOO_LARGE : 'content must be a text.',
    },
  });
}

export class DocumentDto {
  @ApiProperty()
  document_id: number;

  @ApiProperty()
  user_id: number;

  @ApiProperty({ type: Number, nullable: true, description: 'null = Personal' })
  organization_id: number | null;

  @ApiProperty()
  name: string;

  @ApiProperty({ description: 'Text (markdown), fewer than 65000 characters' })
  content: string;

  @ApiProperty()
  createdAt: Date;

  @ApiProperty()
  updatedAt: Date;
}

export class DocumentResponse {
  @ApiProperty({ type: DocumentDto })
  document: DocumentDto;
}

export class DocumentPageResponse extends PageInfo {
  @ApiProperty({ type: [DocumentDto] })
  documents: DocumentDto[];
}

/** `?page=&limit=&query=` (query searches the name). */
export class DocumentListQuery extends PageQuery {}

export class CreateDocumentBody {
  @ApiProperty({ maxLength: MAX_DOCUMENT_NAME })
  @Trim()
  @IsDocumentName()
  name: string;

  @ApiPropertyOptional({ maxLength: MAX_DOCUMENT_CONTENT, default: '' })
  @ValidateIf((o: CreateDocumentBody) => o.content !== undefined)
  @IsDocumentContent()
  content?: string;
}

export class UpdateDocumentBody {
  @ApiProperty()
  @IsInt({ message: ID_MESSAGE })
  @Min(1, { message: ID_MESSAGE })
  @Max(MAX_ID, { message: ID_MESSAGE })
  document_id: number;

  @ApiPropertyOptional({ maxLength: MAX_DOCUMENT_NAME })
  @Trim()
  @ValidateIf((o: UpdateDocumentBody) => o.name !== undefined)
  @IsDocumentName()
  name?: string;

  @ApiPropertyOptional({ maxLength: MAX_DOCUMENT_CONTENT })
  @ValidateIf((o: UpdateDocumentBody) => o.content !== undefined)
  @IsDocumentContent()
  content?: string;
}
