/**
 * A user's profile fields as the reference saves them (wp_insert_user / wp_update_user and their
 * pre_user_* filters), for every writer: the display name, first and last name and nickname through
 * sanitize_text_field with special characters as entities, the biographical description through
 * wp_filter_kses (the inline tag set, links with rel and target), the website through
 * wp_strip_all_tags and esc_url_raw.
 */
import { escUrlRaw } from '../html/esc-url';
import { nameField, stripAllTags } from '../html/text';
import { DESCRIPTION_TAGS, kses } from '../posts/kses';

export interface ProfileFields {
  name?: string;
  first_name?: string;
  last_name?: string;
  nickname?: string;
  description?: string;
  url?: string;
}

const RULES: Record<keyof ProfileFields, (v: string) => string> = {
  name: nameField,
  first_name: nameField,
  last_name: nameField,
  nickname: nameField,
  description: (v) => kses(v, DESCRIPTION_TAGS),
  url: (v) => escUrlRaw(stripAllTags(v)),
};

const KEYS = ['name', 'first_name', 'last_name', 'nickname', 'description', 'url'] as const satisfies ReadonlyArray<keyof ProfileFields>;

/** The fields as they are stored; fields not given stay absent. */
export function savedProfile(fields: ProfileFields): ProfileFields {
  const out: ProfileFields = {};
  for (const key of KEYS) {
    const v = fields[key];
    if (v !== undefined) out[key] = RULES[key](v);
  }
  return out;
}
