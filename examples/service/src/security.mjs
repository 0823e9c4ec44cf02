/** Tokens, hashes and address normalisation. Nothing secret is ever stored or logged in clear. */
import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto'

export const token = (bytes = 32) => randomBytes(bytes).toString('base64url')
export const sha256 = (value) => createHash('sha256').update(value).digest('hex')
export const hmac = (secret, value) => createHmac('sha256', secret).update(value).digest('hex')
export const sixDigits = () => String(randomInt(0, 1_000_000)).padStart(6, '0')

export function safeEqual(a, b) {
  const left = Buffer.from(String(a))
  const right = Buffer.from(String(b))
  return left.length === right.length && timingSafeEqual(left, right)
}

/** An API key: `il-` + 43 URL-safe random characters (256 bits), recognisable by secret scanners. */
export const newApiKey = () => `il-${token(32)}`

const plusIgnored = new Set([
  'gmail.com',
  'googlemail.com',
  'outlook.com',
  'hotmail.com',
  'live.com',
  'icloud.com',
  'me.com',
  'fastmail.com',
  'proton.me',
  'protonmail.com',
  'yahoo.com',
])
const dotsIgnored = new Set(['gmail.com', 'googlemail.com'])

/** A syntactically valid address, or undefined. */
export function parseEmail(input) {
  const email = String(input ?? '').trim()
  if (email.length > 254 || !/^[^\s@<>()[\]\\,;:"]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$/.test(email)) return undefined
  return email
}

/**
 * The key an address is unique by: lower case, and for providers that deliver `a+tag@` and `a.b@` to the same box,
 * without the tag (and the dots) — so aliases cannot open many accounts for one mailbox.
 */
export function emailKey(email) {
  const [local, domain] = email.toLowerCase().split('@')
  let name = local
  if (plusIgnored.has(domain)) name = name.split('+')[0]
  if (dotsIgnored.has(domain)) name = name.replace(/\./g, '')
  return `${name}@${domain === 'googlemail.com' ? 'gmail.com' : domain}`
}
