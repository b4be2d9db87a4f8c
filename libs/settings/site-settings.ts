/**
 * Site settings (the reference's options exposed by the settings route): declared once, stored in the
 * `options` collection as one document of the values an administrator set, over defaults taken from
 * the configuration. Every process holds a SiteSettings that applies the values to its Site object
 * (name, description, URL, time zone, front page), so everything that reads the Site uses the current
 * values. A write applies at once in the writing process; the others re-read the document every
 * couple of seconds (one indexed read) and see the change by its version number.
 */
import { DateTime } from 'luxon';
import { DEFAULT_GEOFENCE, DEFAULT_GEO_UNIT, GEO_UNITS } from '../calendar/geo';
import type { Config } from '../config/env';
import { ParamError } from '../rest/errors';
import type { ArgDecl } from '../rest/registry';
import { REST_PREFIX, ADMIN_PATH, type Site } from '../rest/site';
import { DuplicateKeyError, type Collection, type Store, type Update } from '../store/types';

export interface SettingDef {
  /** The name in the REST answer. */
  name: string;
  /** The reference's option name. */
  option: string;
  schema: ArgDecl;
  /** Only the extended edition keeps and shows it (EDITION=extended); the free edition's answer leaves it out. */
  edition?: 'extended';
}

/** IANA zone names as the zone database lists them (exact spelling), plus UTC. */
let zones: Set<string> | undefined;
export function isZoneName(v: string): boolean {
  zones ??= new Set([...Intl.supportedValuesOf('timeZone'), 'UTC']);
  return zones.has(v) && DateTime.local().setZone(v).isValid;
}

/** The settings the service keeps and uses, in the reference's registration order. */
export const SETTINGS: SettingDef[] = [
  { name: 'title', option: 'blogname', schema: { type: 'string', title: 'Title', description: 'Site title.' } },
  { name: 'description', option: 'blogdescription', schema: { type: 'string', title: 'Tagline', description: 'Site tagline.' } },
  {
    name: 'url',
    option: 'siteurl',
    schema: {
      type: 'string',
      format: 'uri',
      title: '',
      description: 'Site URL.',
      validate: (v) => (/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/i.test(String(v)) ? true : new ParamError('rest_invalid_url', 'url is not a valid http(s) URL.')),
    },
  },
  {
    name: 'timezone',
    option: 'timezone_string',
    schema: {
      type: 'string',
      title: 'Timezone',
      description: 'A city in the same timezone as you.',
      validate: (v) =>
        v === '' || isZoneName(String(v)) ? true : new ParamError('rest_invalid_timezone', 'timezone is not a time zone of the zone database.'),
    },
  },
  { name: 'date_format', option: 'date_format', schema: { type: 'string', title: 'Date Format', description: 'A date format for all date strings.' } },
  { name: 'time_format', option: 'time_format', schema: { type: 'string', title: 'Time Format', description: 'A time format for all time strings.' } },
  {
    name: 'start_of_week',
    option: 'start_of_week',
    schema: { type: 'integer', title: 'Week Starts On', description: 'A day number of the week that the week should start on.', minimum: 0, maximum: 6 },
  },
  { name: 'default_category', option: 'default_category', schema: { type: 'integer', title: '', description: 'Default post category.', minimum: 1 } },
  {
    name: 'posts_per_page',
    option: 'posts_per_page',
    schema: { type: 'integer', title: 'Maximum posts per page', description: 'Blog pages show at most.', minimum: 1 },
  },
  {
    name: 'show_on_front',
    option: 'show_on_front',
    schema: { type: 'string', title: 'Show on front', description: 'What to show on the front page', enum: ['posts', 'page'] },
  },
  {
    name: 'page_on_front',
    option: 'page_on_front',
    schema: { type: 'integer', title: 'Page on front', description: 'The ID of the page that should be displayed on the front page', minimum: 0 },
  },
  {
    name: 'page_for_posts',
    option: 'page_for_posts',
    schema: { type: 'integer', title: '', description: 'The ID of the page that should display the latest posts', minimum: 0 },
  },
  {
    name: 'default_ping_status',
    option: 'default_ping_status',
    schema: {
      type: 'string',
      title: '',
      description: 'Allow link notifications from other blogs (pingbacks and trackbacks) on new articles.',
      enum: ['open', 'closed'],
    },
  },
  {
    name: 'default_comment_status',
    option: 'default_comment_status',
    schema: { type: 'string', title: 'Allow comments on new posts', description: 'Allow people to submit comments on new posts.', enum: ['open', 'closed'] },
  },
  // The reference's Pro geolocation options: the geoloc_lat/geoloc_lng event filters keep the events of venues within this distance.
  {
    name: 'geoloc_default_geofence',
    option: 'geoloc_default_geofence',
    edition: 'extended',
    schema: {
      type: 'number',
      title: 'Geolocation search radius',
      description: "Extended edition: how far from the geoloc_lat/geoloc_lng point an event's venue may lie, in geoloc_default_unit.",
      minimum: 0,
      exclusiveMinimum: true,
      maximum: 20038,
    },
  },
  {
    name: 'geoloc_default_unit',
    option: 'geoloc_default_unit',
    edition: 'extended',
    schema: { type: 'string', title: 'Distance unit', description: 'Extended edition: the unit of geoloc_default_geofence.', enum: [...GEO_UNITS] },
  },
];

/** The settings an edition keeps and shows. */
export const settingsOf = (edition: Edition): SettingDef[] => SETTINGS.filter((s) => !s.edition || s.edition === edition);

export type SettingValues = Record<string, unknown>;
export type Edition = Config['EDITION'];

/** The values a fresh install has: the site facts from the configuration, the reference's defaults for the rest. */
export function defaultSettings(config: Pick<Config, 'SITE_URL' | 'SITE_NAME' | 'SITE_DESCRIPTION' | 'SITE_TIMEZONE'>): SettingValues {
  return {
    title: config.SITE_NAME,
    description: config.SITE_DESCRIPTION,
    url: config.SITE_URL.replace(/\/+$/, ''),
    timezone: config.SITE_TIMEZONE === 'UTC' ? '' : config.SITE_TIMEZONE,
    date_format: 'F j, Y',
    time_format: 'g:i a',
    start_of_week: 1,
    default_category: 1,
    posts_per_page: 10,
    show_on_front: 'posts',
    page_on_front: 0,
    page_for_posts: 0,
    default_ping_status: 'open',
    default_comment_status: 'open',
    geoloc_default_geofence: DEFAULT_GEOFENCE,
    geoloc_default_unit: DEFAULT_GEO_UNIT,
  };
}

interface SettingsDoc extends Record<string, unknown> {
  id: string;
  version: number;
  values: SettingValues;
}

const DOC_ID = 'site_settings';
/** How often a process re-reads the stored settings (one indexed read), so a change made elsewhere shows within it. */
export const REFRESH_MS = 2000;

export class SiteSettings {
  private stored: SettingValues = {};
  private readonly runtime: SettingValues = {};
  /** Version of the stored document last applied (0: none stored yet). */
  private version = -1;
  private timer?: NodeJS.Timeout;
  private readonly col: Collection<SettingsDoc>;
  private readonly listeners: Array<() => void> = [];

  constructor(
    store: Store,
    readonly site: Site,
    private readonly defaults: SettingValues,
    /** The edition, which decides which settings are kept and shown (settingsOf). */
    readonly edition: Edition = 'free',
  ) {
    this.col = store.collection<SettingsDoc>('options');
  }

  /** The settings this edition keeps and shows. */
  defs(): SettingDef[] {
    return settingsOf(this.edition);
  }

  /** Reads the stored values, applies them to the site, and keeps them fresh until `stop()`. */
  static async open(
    store: Store,
    site: Site,
    config: Parameters<typeof defaultSettings>[0] & Partial<Pick<Config, 'EDITION'>>,
    refreshMs = REFRESH_MS,
  ): Promise<SiteSettings> {
    const s = new SiteSettings(store, site, defaultSettings(config), config.EDITION ?? 'free');
    await s.refresh();
    if (refreshMs > 0) s.watch(refreshMs);
    return s;
  }

  values(): SettingValues {
    return { ...this.defaults, ...this.runtime, ...this.stored };
  }

  get<T = unknown>(name: string): T {
    return this.values()[name] as T;
  }

  /** A default only known at run time (the id of the default category this install created). */
  setDefault(name: string, value: unknown): void {
    this.runtime[name] = value;
  }

  /** Re-reads the stored values; true when they changed. */
  async refresh(): Promise<boolean> {
    const doc = await this.col.findOne({ id: DOC_ID });
    const version = doc?.version ?? 0;
    // Versions only grow: a read that raced a newer one must not bring older values back.
    if (version <= this.version) return false;
    this.stored = { ...(doc?.values ?? {}) };
    this.version = version;
    this.apply();
    return true;
  }

  /** Stores the given values and forgets the `reset` ones (back to their defaults), then applies them. */
  async update(set: SettingValues, reset: string[] = []): Promise<void> {
    const $set: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(set)) $set[`values.${k}`] = v;
    const $unset: Record<string, 1> = {};
    for (const k of reset) $unset[`values.${k}`] = 1;
    if (!Object.keys($set).length && !Object.keys($unset).length) return;
    const change: Update = { $inc: { version: 1 } };
    if (Object.keys($set).length) change.$set = $set;
    if (Object.keys($unset).length) change.$unset = $unset;
    const doc = await this.col.findOneAndUpdate({ id: DOC_ID }, change);
    if (!doc) {
      try {
        await this.col.insertOne({ id: DOC_ID, version: 1, values: { ...set } });
      } catch (e) {
        // Another process stored the first settings at the same moment: apply ours over them.
        if (!(e instanceof DuplicateKeyError)) throw e;
        await this.col.findOneAndUpdate({ id: DOC_ID }, change);
      }
    }
    await this.refresh();
  }

  /** Calls `fn` after every change of the values (caches built from them drop what they kept). */
  onChange(fn: () => void): void {
    this.listeners.push(fn);
  }

  watch(ms: number): void {
    this.stop();
    this.timer = setInterval(() => {
      // A failed read keeps the last values; the next tick tries again.
      this.refresh().catch(() => undefined);
    }, ms);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Puts the current values on the shared Site object and bumps its revision (caches of the site index key on it). */
  private apply(): void {
    const v = this.values();
    const site = this.site;
    site.name = String(v.title ?? '');
    site.description = String(v.description ?? '');
    const url = String(v.url ?? site.url).replace(/\/+$/, '');
    if (url !== site.url) {
      site.url = url;
      site.home = url;
      site.restRoot = `${url}${REST_PREFIX}/`;
      site.authorizeUrl = `${url}${ADMIN_PATH}/authorize-application.php`;
    }
    site.timezone = v.timezone ? String(v.timezone) : 'UTC';
    site.showOnFront = v.show_on_front === 'page' ? 'page' : 'posts';
    site.pageOnFront = Number(v.page_on_front ?? 0);
    site.pageForPosts = Number(v.page_for_posts ?? 0);
    site.revision = (site.revision ?? 0) + 1;
    for (const fn of this.listeners) fn();
  }
}
