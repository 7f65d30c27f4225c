import { ApiProperty } from '@nestjs/swagger';
import { IsInt, Max, Min, ValidateBy, ValidationArguments } from 'class-validator';
import { MAX_ID } from '../../../common/http/id-param';

export const MAX_EXPORT_TEXT = 65_000;
const MESSAGE_ID = 'message_id must be a whole number.';

function IsExportText(): PropertyDecorator {
  return ValidateBy({
    name: 'isExportText',
    validator: {
      validate: (v: unknown) => typeof v === 'string' && v.trim().length >= 1 && v.length <= MAX_EXPORT_TEXT,
      defaultMessage: (args?: ValidationArguments) =>
        typeof args?.value === 'string' && args.value.length > MAX_EXPORT_TEXT
          ? `The text can be at most ${MAX_EXPORT_TEXT} characters.`
          : 'The text to export is required.',
    },
  });
}

export class ExportMessageBody {
  @ApiProperty({ minLength: 1, maxLength: MAX_EXPORT_TEXT, description: 'The message, as markdown' })
  @IsExportText()
  text: string;
}

export class ShareMessageBody {
  @ApiProperty()
  @IsInt({ message: MESSAGE_ID })
  @Min(1, { message: MESSAGE_ID })
  @Max(MAX_ID, { message: MESSAGE_ID })
  message_id: number;

  @ApiProperty({ description: 'The avatar that receives the message as an editable text file' })
  @IsInt({ message: 'avatar_id must be a whole number.' })
  @Min(1, { message: 'avatar_id must be a whole number.' })
  @Max(MAX_ID, { message: 'avatar_id must be a whole number.' })
  avatar_id: number;
}
