/** A notification as PostgreSQL's protocol carries it to a client (NotificationResponse). */
export interface DatabaseNotification {
  channel: string;
  payload: string;
}

/** NotificationResponse's type byte ('A'). */
const NOTIFICATION = 0x41;
/** Type byte and length of every message the server sends. */
const HEADER_BYTES = 5;
/** PostgreSQL's payloads are under 8000 bytes; a longer body is not a notification of ours and is skipped. */
const MAX_NOTIFICATION_BYTES = 16_384;
const utf8 = new TextDecoder();

/**
 * Finds the notifications in what the database sends a client: whole messages, cut anywhere across the chunks
 * pushed, each message skipped by its length unless it is a notification. One reader per answer of the database.
 */
export class NotificationReader {
  private readonly header = new Uint8Array(HEADER_BYTES);
  private headerFill = 0;
  /** Bytes of the current message, not a notification, still to skip. */
  private skip = 0;
  /** The body of the current notification, while it arrives. */
  private body: Uint8Array | null = null;
  private bodyFill = 0;

  constructor(private readonly heard: (notification: DatabaseNotification) => void) {}

  push(chunk: Uint8Array): void {
    let at = 0;
    while (at < chunk.length) {
      if (this.skip > 0) {
        const n = Math.min(this.skip, chunk.length - at);
        this.skip -= n;
        at += n;
      } else if (this.body) {
        const n = Math.min(this.body.length - this.bodyFill, chunk.length - at);
        this.body.set(chunk.subarray(at, at + n), this.bodyFill);
        this.bodyFill += n;
        at += n;
        if (this.bodyFill === this.body.length) {
          const body = this.body;
          this.body = null;
          this.read(body);
        }
      } else {
        this.header[this.headerFill++] = chunk[at++];
        if (this.headerFill === HEADER_BYTES) {
          this.headerFill = 0;
          // The length counts itself but not the type byte.
          const h = this.header;
          const bodyBytes = (((h[1] << 24) | (h[2] << 16) | (h[3] << 8) | h[4]) >>> 0) - 4;
          if (this.header[0] === NOTIFICATION && bodyBytes > 0 && bodyBytes <= MAX_NOTIFICATION_BYTES) {
            this.body = new Uint8Array(bodyBytes);
            this.bodyFill = 0;
          } else this.skip = Math.max(0, bodyBytes);
        }
      }
    }
  }

  /** The sender's process id (4 bytes), then the channel and the payload, each ending with a zero byte. */
  private read(body: Uint8Array): void {
    const channelEnd = body.indexOf(0, 4);
    const payloadEnd = channelEnd < 0 ? -1 : body.indexOf(0, channelEnd + 1);
    if (payloadEnd < 0) return;
    this.heard({
      channel: utf8.decode(body.subarray(4, channelEnd)),
      payload: utf8.decode(body.subarray(channelEnd + 1, payloadEnd)),
    });
  }
}

/** The part of PGlite its socket server runs every client's messages through. */
export interface ProtocolRunner {
  execProtocolRawStream(
    message: Uint8Array,
    options: { syncToFs?: boolean; onRawData: (data: Uint8Array) => void },
  ): Promise<void>;
}

export type NotificationListener = (notification: DatabaseNotification) => void;

/**
 * Who listens for the embedded database's notifications. Each listener runs on its own: one that throws keeps
 * neither the others nor whoever delivers (a client's answer, the next message from the database's thread) from
 * going on; its failure goes to `failed`.
 */
export class NotificationListeners {
  private readonly listeners = new Set<NotificationListener>();

  constructor(private readonly failed: (err: unknown) => void = () => undefined) {}

  /** Adds a listener; returns the call that removes it. */
  add(listener: NotificationListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  deliver(notification: DatabaseNotification): void {
    for (const listener of this.listeners) {
      try {
        listener(notification);
      } catch (err) {
        this.failed(err);
      }
    }
  }
}

/**
 * PGlite is one session shared by every client of its socket server, and it sends a notification to whichever
 * client's statement committed the change, not to the client that ran LISTEN. So the app hears them where every
 * client's answers pass: each answer is read for notifications on its way out, whoever it goes to (the app's
 * own connection, or an operator's psql on the socket). PGlite's socket server runs every client's messages
 * through `execProtocolRawStream`; should a new version stop doing so, the embedded database's e2e test
 * (secrets-embedded-db) fails. Returns how to add a listener (and the call that removes it); each listener runs
 * on its own, so one that throws keeps neither the others nor the client's answer from going on.
 */
export function hearNotifications(db: ProtocolRunner): (listener: NotificationListener) => () => void {
  const listeners = new NotificationListeners();
  const run = db.execProtocolRawStream.bind(db);
  db.execProtocolRawStream = (message, options) => {
    // Most answers carry no notification; the reader only walks their message headers.
    const reader = new NotificationReader((notification) => listeners.deliver(notification));
    return run(message, {
      ...options,
      onRawData: (data) => {
        reader.push(data);
        options.onRawData(data);
      },
    });
  };
  return (listener) => listeners.add(listener);
}
