/**
 * Secrets at rest. Account passwords are chosen by people, so they get a slow, salted hash (scrypt).
 * Application passwords are 24 random letters and digits (about 142 bits), so, as the reference
 * system does since 6.8, a fast salted keyed hash is enough and keeps authenticated requests cheap.
 * Every comparison is constant-time.
 */
import { createHmac, randomBytes, randomInt, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(scryptCb) as (password: string, salt: Buffer, keylen: number, options: { N: number; r: number; p: number }) => Promise<Buffer>;
const SCRYPT = { N: 16384, r: 8, p: 1 };

export async function hashAccountPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, 32, SCRYPT);
  return `scrypt$${SCRYPT.N}$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyAccountPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const actual = await scrypt(password, Buffer.from(salt, 'base64'), expected.length, { ...SCRYPT, N: Number(n) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** A new application password: 24 letters and digits. */
export function generateAppPassword(): string {
  let out = '';
  for (let i = 0; i < 24; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}

/** Groups of four separated by spaces, as the password is shown once to the user. */
export function chunkPassword(password: string): string {
  return password.replace(/(.{4})(?!$)/g, '$1 ');
}

/** The reference strips every character that is not a letter or digit before checking. */
export function normaliseAppPassword(password: string): string {
  return password.replace(/[^A-Za-z0-9]/g, '');
}

export function hashAppPassword(password: string): string {
  const salt = randomBytes(16).toString('base64');
  const mac = createHmac('sha256', salt).update(normaliseAppPassword(password)).digest('base64');
  return `hmac-sha256$${salt}$${mac}`;
}

export function verifyAppPassword(password: string, stored: string): boolean {
  const [scheme, salt, mac] = stored.split('$');
  if (scheme !== 'hmac-sha256' || !salt || !mac) return false;
  const expected = Buffer.from(mac, 'base64');
  const actual = createHmac('sha256', salt).update(normaliseAppPassword(password)).digest();
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
