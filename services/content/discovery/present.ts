/**
 * Post type, taxonomy and post status records in `view`, `embed` and `edit` context (reference:
 * prepare_item_for_response and prepare_links of the post types, taxonomies and post statuses
 * controllers), built from the registered objects in libs/posts/registered.ts.
 */
import { isViewable, postTypeCaps, taxonomiesOf, type PostTypeObject, type StatusObject, type TaxonomyObject } from '#libs/posts/registered';
import { isRecord } from '#libs/rest/args';
import { restUrl, type Site } from '#libs/rest/site';
import { statusSchema, taxonomySchema, typeSchema } from '#libs/routes/cms/discovery';

export type Context = 'view' | 'embed' | 'edit';

const CURIES = [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }];

/** The reference's filter_response_by_context: drops the properties whose schema does not list the context. */
export function byContext(data: Record<string, unknown>, schema: Record<string, unknown>, context: string): Record<string, unknown> {
  const props = isRecord(schema.properties) ? schema.properties : {};
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(data)) {
    const prop = props[k];
    const listed = isRecord(prop) && Array.isArray(prop.context) ? prop.context : undefined;
    if (!listed || listed.includes(context)) out[k] = v;
  }
  return out;
}

// Schemas are static: build each once for the context filter.
let schemas: { type: Record<string, unknown>; taxonomy: Record<string, unknown>; status: Record<string, unknown> } | undefined;
const schemaOf = (k: 'type' | 'taxonomy' | 'status') => {
  schemas ??= { type: typeSchema(), taxonomy: taxonomySchema(), status: statusSchema() };
  return schemas[k];
};

/** The reference's get_post_type_labels with its built-in defaults, for a type's singular and plural names. */
function typeLabels(t: PostTypeObject): Record<string, string | null> {
  const one = t.singular;
  const many = t.label;
  const low = one.toLowerCase();
  const lows = many.toLowerCase();
  return {
    name: many,
    singular_name: one,
    add_new: `Add New ${one}`,
    add_new_item: `Add New ${one}`,
    edit_item: `Edit ${one}`,
    new_item: `New ${one}`,
    view_item: `View ${one}`,
    view_items: `View ${many}`,
    search_items: `Search ${many}`,
    not_found: `No ${lows} found.`,
    not_found_in_trash: `No ${lows} found in Trash.`,
    parent_item_colon: t.hierarchical ? `Parent ${one}:` : null,
    all_items: `All ${many}`,
    archives: `${one} Archives`,
    attributes: `${one} Attributes`,
    insert_into_item: `Insert into ${low}`,
    uploaded_to_this_item: `Uploaded to this ${low}`,
    featured_image: 'Featured image',
    set_featured_image: 'Set featured image',
    remove_featured_image: 'Remove featured image',
    use_featured_image: 'Use as featured image',
    filter_items_list: `Filter ${lows} list`,
    filter_by_date: 'Filter by date',
    items_list_navigation: `${many} list navigation`,
    items_list: `${many} list`,
    item_published: `${one} published.`,
    item_published_privately: `${one} published privately.`,
    item_reverted_to_draft: `${one} reverted to draft.`,
    item_trashed: `${one} trashed.`,
    item_scheduled: `${one} scheduled.`,
    item_updated: `${one} updated.`,
    item_link: `${one} Link`,
    item_link_description: `A link to a ${low}.`,
    menu_name: many,
    name_admin_bar: one,
    template_name: `Single item: ${one}`,
  };
}

export function presentType(site: Site, t: PostTypeObject, context: Context): Record<string, unknown> {
  const data: Record<string, unknown> = {
    capabilities: postTypeCaps(t),
    description: t.description,
    hierarchical: t.hierarchical,
    has_archive: t.hasArchive,
    visibility: { show_in_nav_menus: t.showInNavMenus, show_ui: t.showUi },
    viewable: isViewable(t),
    labels: typeLabels(t),
    name: t.label,
    slug: t.name,
    icon: t.icon,
    supports: Object.fromEntries(t.supports.map((s) => [s, true])),
    taxonomies: taxonomiesOf(t.name)
      .filter((x) => x.showInRest)
      .map((x) => x.name),
    rest_base: t.restBase,
    rest_namespace: t.restNamespace,
    template: [],
    template_lock: false,
  };
  return {
    ...byContext(data, schemaOf('type'), context),
    _links: {
      collection: [{ href: restUrl(site, '/cms/v2/types') }],
      'wp:items': [{ href: restUrl(site, `/${t.restNamespace}/${t.restBase}`) }],
      curies: CURIES,
    },
  };
}

function taxonomyLabels(t: TaxonomyObject): Record<string, string | null> {
  const one = t.singular;
  const many = t.label;
  const lows = many.toLowerCase();
  const h = t.hierarchical;
  return {
    name: many,
    singular_name: one,
    search_items: `Search ${many}`,
    popular_items: h ? null : `Popular ${many}`,
    all_items: `All ${many}`,
    parent_item: h ? `Parent ${one}` : null,
    parent_item_colon: h ? `Parent ${one}:` : null,
    edit_item: `Edit ${one}`,
    view_item: `View ${one}`,
    update_item: `Update ${one}`,
    add_new_item: `Add New ${one}`,
    new_item_name: `New ${one} Name`,
    template_name: `${one} Archives`,
    separate_items_with_commas: h ? null : `Separate ${lows} with commas`,
    add_or_remove_items: h ? null : `Add or remove ${lows}`,
    choose_from_most_used: h ? null : `Choose from the most used ${lows}`,
    not_found: `No ${lows} found.`,
    no_terms: `No ${lows}`,
    filter_by_item: h ? `Filter by ${one.toLowerCase()}` : null,
    items_list_navigation: `${many} list navigation`,
    items_list: `${many} list`,
    most_used: 'Most Used',
    back_to_items: `&larr; Go to ${many}`,
    item_link: `${one} Link`,
    item_link_description: `A link to a ${one.toLowerCase()}.`,
    menu_name: many,
    name_admin_bar: one,
    archives: `All ${many}`,
  };
}

export function presentTaxonomy(site: Site, t: TaxonomyObject, context: Context): Record<string, unknown> {
  const data: Record<string, unknown> = {
    name: t.label,
    slug: t.name,
    capabilities: { ...t.caps },
    description: t.description,
    labels: taxonomyLabels(t),
    types: [...t.objectType],
    show_cloud: t.showTagcloud,
    hierarchical: t.hierarchical,
    rest_base: t.restBase,
    rest_namespace: t.restNamespace,
    visibility: {
      public: t.public,
      publicly_queryable: t.publiclyQueryable,
      show_admin_column: t.showAdminColumn,
      show_in_nav_menus: t.showInNavMenus,
      show_in_quick_edit: t.showInQuickEdit,
      show_ui: t.showUi,
    },
  };
  return {
    ...byContext(data, schemaOf('taxonomy'), context),
    _links: {
      collection: [{ href: restUrl(site, '/cms/v2/taxonomies') }],
      'wp:items': [{ href: restUrl(site, `/${t.restNamespace}/${t.restBase}`) }],
      curies: CURIES,
    },
  };
}

export function presentStatus(site: Site, s: StatusObject, context: Context): Record<string, unknown> {
  const data: Record<string, unknown> = {
    name: s.label,
    private: s.private,
    protected: s.protected,
    public: s.public,
    queryable: s.publiclyQueryable,
    show_in_list: s.showInAdminAllList,
    slug: s.name,
    date_floating: s.dateFloating,
  };
  const archives = s.name === 'publish' ? restUrl(site, '/cms/v2/posts') : restUrl(site, '/cms/v2/posts', { status: s.name });
  return { ...byContext(data, schemaOf('status'), context), _links: { archives: [{ href: archives }] } };
}
