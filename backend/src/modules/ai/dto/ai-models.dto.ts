import { ApiProperty } from '@nestjs/swagger';

export class AiModelDto {
  @ApiProperty({ example: 'gpt-4o-mini' }) id: string;
  @ApiProperty({ example: 'GPT-4o mini' }) label: string;
  @ApiProperty({ enum: ['openai', 'xai'] }) provider: 'openai' | 'xai';
  @ApiProperty({ description: 'Accepts images (a conversation may attach one only with such a model)' })
  vision: boolean;
}

export class AiModelsResponse {
  @ApiProperty({ type: [AiModelDto] }) models: AiModelDto[];
  @ApiProperty({ example: 'gpt-4o-mini', description: "Used when a conversation's model is 'Unset'" })
  default_model: string;
  @ApiProperty({
    description:
      'False when no API key is set anywhere (organization, app config, server env): generation cannot work',
  })
  configured: boolean;
}
