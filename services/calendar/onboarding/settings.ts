/**
 * The onboarding wizard's record of where the administrator is (reference: TEC's Onboarding API
 * set_tab_records and its Data option), kept in the options collection. Each step the wizard posts
 * is merged by the reference's rules: `finished` implies `begun`; tab 0 counts as completed once begun;
 * the current tab counts as completed unless it was skipped; a completed tab is no longer skipped; both
 * lists hold each tab once; `last_send` keeps the merge of every step's parameters, without the
 * wizard's reference lists and nonces.
 */
import { isRecord } from '#libs/rest/args';
import { DuplicateKeyError, type Store } from '#libs/store/types';

export const WIZARD_SETTINGS_OPTION = 'tec_onboarding_wizard_settings';
/** Parameters not worth keeping: the wizard's own lookup lists and the nonces. */
const NOT_KEPT = new Set(['timezones', 'countries', 'currencies', 'action_nonce', '_wpnonce']);

export interface WizardSettings extends Record<string, unknown> {
  begun: boolean;
  finished: boolean;
  current_tab: number;
  completed_tabs: number[];
  skipped_tabs: number[];
  last_send: Record<string, unknown>;
}

/** A request flag: true, 1 and their strings are true; false, 0, '' and 'false' are false. */
function flag(v: unknown): boolean {
  if (typeof v === 'string') return !['', '0', 'false'].includes(v.trim().toLowerCase());
  return Boolean(v);
}

function tab(v: unknown): number | null {
  const n = typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v;
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 && n < 1000 ? n : null;
}

/** A tab list from an array, a comma-separated string or one number; what is not a tab index is left out. */
function tabs(v: unknown): number[] {
  const items = Array.isArray(v) ? v : typeof v === 'string' ? v.split(',') : v === undefined || v === null ? [] : [v];
  return items.map(tab).filter((t): t is number => t !== null);
}

const unique = (list: number[]) => [...new Set(list)];

export function mergeWizardSettings(stored: Record<string, unknown> | null, params: Record<string, unknown>): WizardSettings {
  let begun = flag(params.begun ?? false);
  const finished = flag(params.finished ?? false);
  if (finished) begun = true;
  let skipped = tabs(params.skippedTabs);
  const completed = tabs(params.completedTabs);
  const current = tab(params.currentTab) ?? 0;
  if (begun) completed.push(0);
  if (!skipped.includes(current)) completed.push(current);
  skipped = skipped.filter((t) => !completed.includes(t));
  const sent: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(params)) if (!NOT_KEPT.has(k) && v !== undefined) sent[k] = v;
  const previous = isRecord(stored?.last_send) ? stored.last_send : {};
  return {
    ...(stored ?? {}),
    begun,
    finished,
    current_tab: current,
    completed_tabs: unique(completed),
    skipped_tabs: unique(skipped),
    last_send: { ...previous, ...sent },
  };
}

interface OptionDoc extends Record<string, unknown> {
  id: string;
  value: Record<string, unknown>;
}

export class WizardSettingsStore {
  constructor(private readonly store: Store) {}

  private get options() {
    return this.store.collection<OptionDoc>('options');
  }

  async read(): Promise<Record<string, unknown> | null> {
    const doc = await this.options.findOne({ id: WIZARD_SETTINGS_OPTION });
    return doc && doc.value && typeof doc.value === 'object' ? doc.value : null;
  }

  async write(value: WizardSettings): Promise<void> {
    const { matched } = await this.options.updateOne({ id: WIZARD_SETTINGS_OPTION }, { $set: { value } });
    if (matched) return;
    try {
      await this.options.insertOne({ id: WIZARD_SETTINGS_OPTION, value });
    } catch (e) {
      // Another request created the option first; this step's settings still win.
      if (!(e instanceof DuplicateKeyError)) throw e;
      await this.options.updateOne({ id: WIZARD_SETTINGS_OPTION }, { $set: { value } });
    }
  }
}
