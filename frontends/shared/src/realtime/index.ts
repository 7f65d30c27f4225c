export * from './events';
export {
  connectRealtime,
  disconnectRealtime,
  emitRealtime,
  setRealtimeIo,
  useRealtimeConnect,
  useRealtimeEvent,
} from './socket';
export { useMessageStream, applyChunk } from './useMessageStream';
export type { AnswerStream, MessageStreamHandlers, MessageStreamControl } from './useMessageStream';
export type { RealtimeIo, RealtimeSocket } from './socket';
