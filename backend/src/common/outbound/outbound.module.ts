import { Module } from '@nestjs/common';
import { OutboundHttp } from './outbound-http';

/** The one outbound HTTP client for configured URLs. */
@Module({ providers: [OutboundHttp], exports: [OutboundHttp] })
export class OutboundModule {}
