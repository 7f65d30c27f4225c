import { sign, verify } from 'jsonwebtoken';
import { createHmac, createSecretKey, KeyObject } from 'node:crypto';
import {
  WIDGET_VISITOR_RESUME_DAYS,
  WIDGET_VISITOR_TOKEN_PREFIX,
  WIDGET_VISITOR_TOKEN_TTL_SECONDS,
} from '@avatar-studio/contracts';

/** Who a chat widget visitor is: one widget, one visitor id, one conversation, one site. */
export interface WidgetVisitor {
  widget_id: number;
  visitor_id: string;
  conversation_id: number;
  origin: string;
}

interface VisitorPayload {
  typ: 'widget_visitor';
  w: number;
  v: string;
  c: number;
  o: string;
}

/**
 * The visitor token's key is derived from APP_SECRET for this one purpose, so a visitor token never verifies as
 * a user's access token (and the other way round), even without its prefix.
 */
const keys = new Map<string, KeyObject>();
function visitorKey(appSecret: string): KeyObject {
  let key = keys.get(appSecret);
  if (!key) {
    key = createSecretKey(createHmac('sha256', appSecret).update('widget-visitor-token').digest());
    keys.set(appSecret, key);
  }
  return key;
}

export function signVisitorToken(appSecret: string, visitor: WidgetVisitor): string {
  const payload: VisitorPayload = {
    typ: 'widget_visitor',
    w: visitor.widget_id,
    v: visitor.visitor_id,
    c: visitor.conversation_id,
    o: visitor.origin,
  };
  return (
    WIDGET_VISITOR_TOKEN_PREFIX +
    sign(payload, visitorKey(appSecret), { algorithm: 'HS256', expiresIn: WIDGET_VISITOR_TOKEN_TTL_SECONDS })
  );
}

/**
 * The visitor a token names, or null when it is not a valid visitor token. `resume` accepts a token expired less
 * than WIDGET_VISITOR_RESUME_DAYS ago: it names the conversation a returning visitor goes on with.
 */
export function verifyVisitorToken(
  appSecret: string,
  token: string,
  options: { resume?: boolean } = {},
): WidgetVisitor | null {
  if (!token.startsWith(WIDGET_VISITOR_TOKEN_PREFIX)) return null;
  try {
    const payload = verify(token.slice(WIDGET_VISITOR_TOKEN_PREFIX.length), visitorKey(appSecret), {
      algorithms: ['HS256'],
      clockTolerance: options.resume ? WIDGET_VISITOR_RESUME_DAYS * 86_400 : 0,
    }) as Partial<VisitorPayload>;
    if (
      payload.typ !== 'widget_visitor' ||
      typeof payload.w !== 'number' ||
      typeof payload.v !== 'string' ||
      typeof payload.c !== 'number' ||
      typeof payload.o !== 'string'
    )
      return null;
    return { widget_id: payload.w, visitor_id: payload.v, conversation_id: payload.c, origin: payload.o };
  } catch {
    return null;
  }
}
