/**
 * ec/v2/onboarding/wizard (reference: TEC\Events\Admin\Onboarding\API): the `_tec_wizard` nonce is
 * checked as a parameter (a failure is the reference's 400 rest_invalid_param holding tec_invalid_nonce
 * with status 403), before the permission (manage_options); each step's settings are merged into the
 * stored wizard settings. The answer is always 200; a store failure only changes its message, as in
 * the reference.
 */
import { can } from '#libs/auth/user';
import { logger } from '#libs/observability/logger';
import { ParamError, invalidParams } from '#libs/rest/errors';
import type { ServiceApp } from '#libs/rest/service';
import { ONBOARDING_WIZARD_ENDPOINT } from '#libs/routes/calendar-views';
import type { CalendarDeps } from '../deps';
import { WIZARD_NONCE_ACTION, WIZARD_NONCE_HEADER, wizardNonceValid } from '../nonces';
import { mergeWizardSettings, WizardSettingsStore } from './settings';

export const WIZARD_DONE = 'Onboarding wizard step completed successfully.';
export const WIZARD_FAILED = 'Failed to update wizard settings.';

export function bindOnboarding(app: ServiceApp, deps: CalendarDeps): void {
  const { nonces } = deps;
  const settings = new WizardSettingsStore(deps.store);
  app.bind(ONBOARDING_WIZARD_ENDPOINT, {
    async validate(ctx) {
      if (!wizardNonceValid(nonces, ctx.user, ctx.input.action_nonce)) {
        throw invalidParams([['action_nonce', new ParamError('tec_invalid_nonce', 'Invalid nonce.', { status: 403 })]]);
      }
      return true;
    },
    permission: async (ctx) => can(ctx.user, 'manage_options'),
    async handle(ctx) {
      let message = WIZARD_DONE;
      try {
        // Every argument the request carried: a step's settings are not declared arguments.
        await settings.write(mergeWizardSettings(await settings.read(), ctx.params));
      } catch (e) {
        logger.error({ err: e, requestId: ctx.req.requestId }, 'onboarding wizard settings not saved');
        message = WIZARD_FAILED;
      }
      // A fresh nonce for the next step, as the reference's REST answers refresh theirs.
      return { body: { success: true, message: [message] }, headers: { [WIZARD_NONCE_HEADER]: nonces.create(WIZARD_NONCE_ACTION, ctx.user?.id ?? 0) } };
    },
  });
}
