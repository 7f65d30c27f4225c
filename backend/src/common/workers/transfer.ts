import { Piscina } from 'piscina';

/**
 * For a pool task's return value: hands `transfer` back to the calling thread without a copy (large buffers
 * are then never copied, which matters because touching fresh memory is slow on some hosts).
 */
export function returnWithTransfer<T>(value: T, transfer: ArrayBuffer[]): T {
  return Piscina.move({
    [Piscina.transferableSymbol]: transfer,
    [Piscina.valueSymbol]: value,
  } as unknown as Parameters<typeof Piscina.move>[0]) as unknown as T;
}

/**
 * The bytes of `data` as a Uint8Array that owns its whole ArrayBuffer, ready to be transferred to a thread:
 * `data` itself when it already owns one (it is then emptied by the transfer), else a copy.
 */
export function transferableBytes(data: Buffer, handOver: boolean): Uint8Array {
  const owns =
    data.buffer instanceof ArrayBuffer && data.byteOffset === 0 && data.byteLength === data.buffer.byteLength;
  if (handOver && owns) return data;
  const copy = new Uint8Array(data.length);
  copy.set(data);
  return copy;
}
