/**
 * Action nonces as the reference makes them (wp_create_nonce / wp_verify_nonce): a keyed hash of the
 * action, the user id (0 for a guest), the session's token when the nonce is bound to a session, and a
 * time tick of half the lifetime, so a nonce is valid for 12 to 24 hours, for that user, session and
 * action only. The key is derived from SERVICE_SECRET when it
 * is set (every process of a cluster has it); otherwise a random key is kept in the options collection,
 * so every process sharing the store accepts the nonces of the others and restarts keep them valid.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { DuplicateKeyError, type Store } from '../store/types';

/** How long a nonce stays valid (the reference's nonce_life): two ticks of 12 hours. */
export const NONCE_LIFETIME_SECONDS = 24 * 3600;
/** The options document that holds the generated key when no SERVICE_SECRET is configured. */
export const NONCE_KEY_OPTION = 'nonce_key';

/** The action of the calendar views' nonces (the reference's `_view_rest`): made by the views and the calendar page, checked by the views. */
export const VIEW_NONCE_ACTION = '_view_rest';
const NONCE_LENGTH = 16;
const NONCE_SHAPE = new RegExp(`^[0-9a-f]{${NONCE_LENGTH}}$`);

/** Nonces remembered at most (see Nonces.hash). */
const MEMO_MAX = 10_000;

export class Nonces {
  private readonly memo = new Map<string, string>();

  constructor(
    private readonly key: Buffer,
    private readonly now: () => number = Date.now,
  ) {}

  /** The key from SERVICE_SECRET, else the stored one (created on first use). */
  static async open(store: Store, serviceSecret: string | undefined, now?: () => number): Promise<Nonces> {
    if (serviceSecret) return Nonces.fromSecret(serviceSecret, now);
    const options = store.collection<{ id: string; value: string }>('options');
    let doc = await options.findOne({ id: NONCE_KEY_OPTION });
    if (!doc) {
      try {
        await options.insertOne({ id: NONCE_KEY_OPTION, value: randomBytes(32).toString('hex') });
      } catch (e) {
        // Another process stored its key first; use that one.
        if (!(e instanceof DuplicateKeyError)) throw e;
      }
      doc = await options.findOne({ id: NONCE_KEY_OPTION });
    }
    if (!doc || typeof doc.value !== 'string' || !/^[0-9a-f]{64}$/.test(doc.value)) throw new Error('the stored nonce key is unreadable');
    return new Nonces(Buffer.from(doc.value, 'hex'), now);
  }

  /** The key every process derives from the shared SERVICE_SECRET. */
  static fromSecret(serviceSecret: string, now?: () => number): Nonces {
    return new Nonces(createHmac('sha256', serviceSecret).update('nonce-key').digest(), now);
  }

  /** The current tick: the number of half-lifetimes since the epoch, rounded up (wp_nonce_tick). */
  tick(): number {
    return Math.ceil(this.now() / 1000 / (NONCE_LIFETIME_SECONDS / 2));
  }

  private hash(tick: number, action: string, userId: number, session: string): string {
    // A nonce bound to no session hashes as it always did.
    const text = session ? `${tick}|${action}|${userId}|${session}` : `${tick}|${action}|${userId}`;
    // A nonce is the same for its whole tick: made once per tick, action, user and session, not per request
    // (the calendar's archive answers carry two). The text holds the tick, so an old tick's entry is never
    // asked for again; the memo is emptied when it grows past MEMO_MAX.
    let nonce = this.memo.get(text);
    if (nonce === undefined) {
      nonce = createHmac('sha256', this.key).update(text).digest('hex').slice(0, NONCE_LENGTH);
      if (this.memo.size >= MEMO_MAX) this.memo.clear();
      this.memo.set(text, nonce);
    }
    return nonce;
  }

  /** A nonce for the action and user, bound to a session when its token is given (wp_get_session_token). */
  create(action: string, userId: number, session = ''): string {
    return this.hash(this.tick(), action, userId, session);
  }

  /** 1 when made in this tick, 2 when in the previous one, 0 when not valid (wp_verify_nonce). */
  verify(nonce: unknown, action: string, userId: number, session = ''): 0 | 1 | 2 {
    if (typeof nonce !== 'string' || !NONCE_SHAPE.test(nonce)) return 0;
    const given = Buffer.from(nonce);
    const tick = this.tick();
    for (const age of [1, 2] as const) {
      if (timingSafeEqual(given, Buffer.from(this.hash(tick - age + 1, action, userId, session)))) return age;
    }
    return 0;
  }
}
