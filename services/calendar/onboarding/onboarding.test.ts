/**
 * ec/v2/onboarding/wizard (reference: TEC Onboarding API): the nonce as a parameter check before the
 * permission, manage_options, the answer, and the stored settings with the reference's merge rules.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Nonces } from '#libs/auth/nonces';
import { COLLECTIONS } from '#libs/data/collections';
import { openStore } from '#libs/store/index';
import type { Store } from '#libs/store/types';
import { startTestApp, type TestApp } from '../../../test/support/app';
import { createRoleUsers, type RoleUsers } from '../../../test/support/roles';
import { mergeWizardSettings, WIZARD_SETTINGS_OPTION, WizardSettingsStore } from './settings';

const SECRET = 'onboarding-test-secret-0123456789abcdef';
const DONE = { success: true, message: ['Onboarding wizard step completed successfully.'] };

describe('mergeWizardSettings', () => {
  it('applies the reference rules: finished ⇒ begun, tab 0 once begun, current tab unless skipped, skipped minus completed, each tab once', () => {
    expect(mergeWizardSettings(null, { begun: true, currentTab: 2, completedTabs: [1, 1], skippedTabs: [1, 3, 3] })).toEqual({
      begun: true,
      finished: false,
      current_tab: 2,
      completed_tabs: [1, 0, 2],
      skipped_tabs: [3],
      last_send: { begun: true, currentTab: 2, completedTabs: [1, 1], skippedTabs: [1, 3, 3] },
    });
    expect(mergeWizardSettings(null, { finished: 'true', currentTab: '4', skippedTabs: '4,5' })).toMatchObject({
      begun: true,
      finished: true,
      current_tab: 4,
      completed_tabs: [0],
      skipped_tabs: [4, 5],
    });
    expect(mergeWizardSettings(null, {})).toMatchObject({ begun: false, finished: false, current_tab: 0, completed_tabs: [0], skipped_tabs: [] });
    expect(mergeWizardSettings(null, { begun: 'false', completedTabs: ['x', -1, 2.5, '7'], currentTab: 'abc' })).toMatchObject({
      begun: false,
      current_tab: 0,
      completed_tabs: [7, 0],
    });
  });

  it('merges last_send over the previous steps, without the lookup lists and nonces, and keeps other stored keys', () => {
    const first = mergeWizardSettings(
      { other: 'kept' },
      { begun: true, currentTab: 1, timezone_string: 'Europe/Paris', action_nonce: 'n', _wpnonce: 'w', timezones: ['a'], countries: ['b'], currencies: ['c'] },
    );
    const second = mergeWizardSettings(first, { currentTab: 2, currency_code: 'EUR' });
    expect(second.other).toBe('kept');
    expect(second.last_send).toEqual({ begun: true, currentTab: 2, timezone_string: 'Europe/Paris', currency_code: 'EUR' });
  });
});

describe('WizardSettingsStore', () => {
  let dir: string;
  let store: Store;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wizard-'));
    store = await openStore({ dataDir: dir });
    await store.ensure(COLLECTIONS);
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates the option once and updates it after', async () => {
    const settings = new WizardSettingsStore(store);
    expect(await settings.read()).toBeNull();
    await Promise.all([settings.write(mergeWizardSettings(null, { currentTab: 1 })), settings.write(mergeWizardSettings(null, { currentTab: 1 }))]);
    await settings.write(mergeWizardSettings(await settings.read(), { currentTab: 3 }));
    expect(await store.collection('options').count({ id: WIZARD_SETTINGS_OPTION })).toBe(1);
    expect(await settings.read()).toMatchObject({ current_tab: 3, last_send: { currentTab: 3 } });
  });
});

describe('POST /ec/v2/onboarding/wizard', () => {
  let app: TestApp;
  let users: RoleUsers;
  const nonces = Nonces.fromSecret(SECRET);
  const wizard = (who: Parameters<RoleUsers['as']>[0], body: Record<string, unknown>) => users.as(who, 'POST', '/ec/v2/onboarding/wizard', { body });

  beforeAll(async () => {
    app = await startTestApp({ SERVICE_SECRET: SECRET });
    users = await createRoleUsers(app, 'ob');
  });
  afterAll(() => app.close());

  it('requires action_nonce, then checks it before the permission: 400 tec_invalid_nonce (403) even for a guest', async () => {
    const missing = await wizard('administrator', {});
    expect([missing.status, missing.body.code, missing.body.data.params]).toEqual([400, 'rest_missing_callback_param', ['action_nonce']]);
    const notString = await wizard('administrator', { action_nonce: 12 });
    expect([notString.status, notString.body.code]).toEqual([400, 'rest_invalid_param']);
    for (const who of ['guest', 'subscriber', 'administrator'] as const) {
      const res = await wizard(who, { action_nonce: 'not-a-nonce' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        code: 'rest_invalid_param',
        message: 'Invalid parameter(s): action_nonce',
        data: {
          status: 400,
          params: { action_nonce: 'Invalid nonce.' },
          details: { action_nonce: { code: 'tec_invalid_nonce', message: 'Invalid nonce.', data: { status: 403 } } },
        },
      });
    }
    // A nonce of another user or another action does not verify either.
    const other = await wizard('administrator', { action_nonce: nonces.create('_tec_wizard', users.ids.editor) });
    expect(other.status).toBe(400);
    const action = await wizard('administrator', { action_nonce: nonces.create('_view_rest', users.ids.administrator) });
    expect(action.status).toBe(400);
  });

  it('needs manage_options: an editor with a valid nonce of their own is forbidden', async () => {
    const res = await wizard('editor', { action_nonce: nonces.create('_tec_wizard', users.ids.editor) });
    expect([res.status, res.body.code]).toEqual([403, 'rest_forbidden']);
    const guest = await wizard('guest', { action_nonce: nonces.create('_tec_wizard', 0) });
    expect([guest.status, guest.body.code]).toEqual([401, 'rest_forbidden']);
  });

  it('takes the administrator’s nonce from the event archive and stores each step', async () => {
    const archive = await users.as('administrator', 'GET', '/vendor/events/v1/events');
    const nonce = archive.headers.get('x-tec-wizard-nonce')!;
    const first = await wizard('administrator', {
      action_nonce: nonce,
      begun: true,
      currentTab: 1,
      completedTabs: [],
      skippedTabs: [2],
      timezones: ['UTC'],
      organizer: { name: 'Org' },
    });
    expect(first.status).toBe(200);
    expect(first.body).toEqual(DONE);
    const next = first.headers.get('x-tec-wizard-nonce')!;
    expect(nonces.verify(next, '_tec_wizard', users.ids.administrator)).toBeGreaterThan(0);
    const second = await users.as('administrator', 'POST', '/ec/v2/onboarding/wizard', {
      raw: `action_nonce=${next}&finished=1&currentTab=3&skippedTabs[]=2&completedTabs[]=1`,
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(second.body).toEqual(DONE);

    // Read the stored option the way another process would: from the same store.
    const store = await openStore({ dataDir: app.config.DATA_DIR });
    try {
      const value = (await new WizardSettingsStore(store).read())!;
      expect(value).toEqual({
        begun: true,
        finished: true,
        current_tab: 3,
        completed_tabs: [1, 0, 3],
        skipped_tabs: [2],
        last_send: { begun: true, currentTab: '3', completedTabs: ['1'], skippedTabs: ['2'], organizer: { name: 'Org' }, finished: '1' },
      });
    } finally {
      await store.close();
    }
  });

  it('has no other method (rest_no_route)', async () => {
    const res = await users.as('administrator', 'GET', '/ec/v2/onboarding/wizard');
    expect([res.status, res.body.code]).toEqual([404, 'rest_no_route']);
  });
});
