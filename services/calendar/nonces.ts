/**
 * The calendar's action nonces and how a client gets them. The reference prints them into the pages it
 * renders; here they travel in response headers of the event archive (`GET /vendor/events/v1/events`,
 * the page a calendar front end loads first) and inside every rendered view:
 * - `X-View-Nonce`: the caller's `_view_rest` nonce, sent back as `tvn1` to vendor/views/v2/html;
 * - `X-TEC-Wizard-Nonce`: the `_tec_wizard` nonce, only for callers who may run the onboarding wizard
 *   (`manage_options`), sent back as `action_nonce` to ec/v2/onboarding/wizard.
 * Nonces are bound to the user they were made for and last 24 hours.
 */
import { VIEW_NONCE_ACTION, type Nonces } from '#libs/auth/nonces';
import { can, type Caller } from '#libs/auth/user';

export { VIEW_NONCE_ACTION };
export const WIZARD_NONCE_ACTION = '_tec_wizard';
export const VIEW_NONCE_HEADER = 'X-View-Nonce';
export const WIZARD_NONCE_HEADER = 'X-TEC-Wizard-Nonce';

const uid = (user: Caller) => user?.id ?? 0;

/**
 * The nonces a rendered view carries (the reference's get_rest_nonces): `tvn1` for the caller, and for a
 * logged-in caller `tvn2` for a visitor, so a cached page still works for someone who is not logged in.
 */
export function viewNonces(nonces: Nonces, user: Caller): { tvn1: string; tvn2: string } {
  return { tvn1: nonces.create(VIEW_NONCE_ACTION, uid(user)), tvn2: user ? nonces.create(VIEW_NONCE_ACTION, 0) : '' };
}

/** Whether either view nonce is valid for the caller (the reference's is_valid_request). */
export function viewNonceValid(nonces: Nonces, user: Caller, tvn1: unknown, tvn2: unknown): boolean {
  return nonces.verify(tvn1, VIEW_NONCE_ACTION, uid(user)) > 0 || nonces.verify(tvn2, VIEW_NONCE_ACTION, uid(user)) > 0;
}

export function wizardNonceValid(nonces: Nonces, user: Caller, nonce: unknown): boolean {
  return nonces.verify(nonce, WIZARD_NONCE_ACTION, uid(user)) > 0;
}

/** The headers that hand the caller its nonces. */
export function nonceHeaders(nonces: Nonces, user: Caller): Record<string, string> {
  const headers: Record<string, string> = { [VIEW_NONCE_HEADER]: nonces.create(VIEW_NONCE_ACTION, uid(user)) };
  if (can(user, 'manage_options')) headers[WIZARD_NONCE_HEADER] = nonces.create(WIZARD_NONCE_ACTION, uid(user));
  return headers;
}
