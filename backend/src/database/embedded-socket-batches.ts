import type { Socket } from 'node:net';

/** The protocol version a startup message carries where other messages carry their type's payload (3.0). */
const STARTUP_PROTOCOL = 196608;

/** What this change uses of a PGlite socket handler (private in the library's types; pglite-socket 0.2). */
interface SocketHandlerInternals {
  socket: Socket | null;
  active: boolean;
  messageBuffer: Buffer;
  readonly handlerId: number;
  queryQueue: {
    enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number>;
  };
  handleSslRequest(): boolean;
  handleCancelRequest(): boolean;
  dispatchEvent(event: Event): boolean;
}

/**
 * How many bytes at the front of `buffer` are complete messages to run together: a startup message alone (it
 * comes first on a connection), else every complete message up to the first incomplete one. 0: none yet.
 */
export function completeMessagesLength(buffer: Buffer): number {
  if (buffer.length >= 8 && buffer.readInt32BE(4) === STARTUP_PROTOCOL) {
    const length = buffer.readInt32BE(0);
    return buffer.length >= length ? length : 0;
  }
  let end = 0;
  while (buffer.length - end >= 5) {
    const length = 1 + buffer.readInt32BE(end + 1);
    if (buffer.length - end < length) break;
    end += length;
  }
  return end;
}

/**
 * Makes PGlite's socket server run every complete message a client sent at once in one call into PGlite,
 * instead of one call, one turn of its queue and one socket write per message. node-postgres writes a
 * statement with parameters as five messages, and a transaction's batch (UnitOfWork) as four per statement and one
 * Sync: message by message, each batch cost PGlite's thread a call and a write per message, and woke the app's
 * thread for each answer. PGlite runs the messages of one call in order, as PostgreSQL runs those of one packet;
 * a client's messages also stay together in the queue, so another connection's cannot come between a Parse and its
 * Bind (the extended protocol's unnamed statement belongs to PGlite's one session). Replaces the library's own
 * `handleData`, whose framing it keeps (SSL and cancel requests, the startup message alone).
 */
export function runClientMessagesTogether(handlerClass: { prototype: object }): void {
  Object.defineProperty(handlerClass.prototype, 'handleData', {
    configurable: true,
    writable: true,
    value: async function handleData(this: SocketHandlerInternals, data: Buffer): Promise<number> {
      if (!this.socket || !this.active) return 0;
      this.messageBuffer = Buffer.concat([this.messageBuffer, data]);
      let outgoing = 0;
      while (this.messageBuffer.length > 0) {
        if (this.handleSslRequest() || this.handleCancelRequest()) continue;
        const length = completeMessagesLength(this.messageBuffer);
        if (length === 0) break;
        const messages = new Uint8Array(this.messageBuffer.subarray(0, length));
        this.messageBuffer = this.messageBuffer.subarray(length);
        if (!this.active || !this.socket) break;
        let failed: Error | undefined;
        await this.queryQueue.enqueue(this.handlerId, messages, (answer) => {
          if (answer.length === 0 || !this.socket?.writable || !this.active) return;
          this.socket.write(Buffer.from(answer), (err) => {
            if (err) failed = err;
          });
          outgoing += answer.length;
        });
        if (failed) throw failed;
      }
      this.dispatchEvent(new CustomEvent('data', { detail: { incoming: data.length, outgoing } }));
      return outgoing;
    },
  });
}
