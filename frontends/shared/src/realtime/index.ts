export * from './events';
export { connectRealtime, disconnectRealtime, setRealtimeIo, useRealtimeEvent } from './socket';
export type { RealtimeIo, RealtimeSocket } from './socket';
