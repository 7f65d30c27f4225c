import { hash, verify } from '@node-rs/argon2';
import { randomBytes } from 'node:crypto';

/** Argon2id (the library's default algorithm) with its default, OWASP-level costs. */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

/** False for a wrong password and for a malformed stored hash alike. */
export async function verifyPassword(storedHash: string, password: string): Promise<boolean> {
  try {
    return await verify(storedHash, password);
  } catch {
    return false;
  }
}

/** For accounts created without a password (by staff or an organization): they set one through recovery. */
export function randomPassword(): string {
  return randomBytes(18).toString('base64url');
}
