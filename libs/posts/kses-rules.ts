/**
 * The reference's kses allow lists, as data: which tags each context allows and their attributes
 * (`$allowedposttags` with the global attributes, `$allowedtags`, the `wp_kses_allowed_html` contexts),
 * per-attribute value rules, the URL attributes and protocols (`wp_kses_uri_attributes`,
 * `wp_allowed_protocols`) and the CSS properties an inline style may set (`safe_style_css`).
 * libs/posts/kses.ts applies them; nothing here runs.
 *
 * Left out of the reference's lists on purpose: the MathML elements (`math`, `mi`, `mo`, ...). The
 * filter's parser reads HTML only, and inside `<math>` a browser parses some tags (`textarea`, `style`)
 * differently than in HTML, the namespace confusion behind mutation XSS; they are removed, their text
 * kept.
 */

/** An allow list: tag → the attributes it may carry (`data-*` allows every `data-[a-z0-9_-]+`). */
export type AttrSet = ReadonlySet<string>;
export type AllowedTags = Readonly<Record<string, AttrSet>>;

const words = (s: string): string[] => s.split(/\s+/).filter(Boolean);
const tags = (spec: Record<string, string>, extra = ''): AllowedTags =>
  Object.fromEntries(Object.entries(spec).map(([tag, attrs]) => [tag, new Set([...words(attrs), ...words(extra)])]));

/** wp_allowed_protocols(): the URL schemes an attribute may keep. */
export const ALLOWED_PROTOCOLS: readonly string[] = words(
  'http https ftp ftps mailto news irc irc6 ircs gopher nntp feed telnet mms rtsp sms svn tel fax xmpp webcal urn',
);

/** wp_kses_uri_attributes(): attributes whose value is a URL, so its scheme is checked. */
export const URI_ATTRIBUTES: readonly string[] = words(
  'action archive background cite classid codebase data formaction href icon longdesc manifest poster profile src usemap xmlns',
);

/** _wp_add_global_attributes(): attributes every tag of the post set may carry. */
export const GLOBAL_ATTRIBUTES =
  'aria-controls aria-current aria-describedby aria-details aria-expanded aria-hidden aria-label aria-labelledby aria-live ' +
  'class data-* dir hidden id lang style title role xml:lang';

const ALIGN = 'align';
const CELL = 'abbr align axis bgcolor char charoff colspan headers height nowrap rowspan scope valign width';
const TABLE_SECTION = 'align char charoff valign';

/** `$allowedposttags`, each tag with the global attributes: post content, excerpts, `post` context. */
export const POST_TAGS: AllowedTags = tags(
  {
    address: '',
    a: 'href rel rev name target download',
    abbr: '',
    acronym: '',
    area: 'alt coords href nohref shape target',
    article: ALIGN,
    aside: ALIGN,
    audio: 'autoplay controls loop muted preload src',
    b: '',
    bdo: '',
    big: '',
    blockquote: 'cite',
    br: '',
    button: 'disabled name type value popovertarget popovertargetaction aria-haspopup',
    caption: ALIGN,
    cite: '',
    code: '',
    col: 'align char charoff span valign width',
    colgroup: 'align char charoff span valign width',
    data: 'value',
    del: 'datetime',
    dd: '',
    dfn: '',
    details: 'align open name',
    div: 'align popover',
    dialog: 'closedby open popover',
    dl: '',
    dt: '',
    em: '',
    fieldset: '',
    figure: ALIGN,
    figcaption: ALIGN,
    font: 'color face size',
    footer: ALIGN,
    h1: ALIGN,
    h2: ALIGN,
    h3: ALIGN,
    h4: ALIGN,
    h5: ALIGN,
    h6: ALIGN,
    header: ALIGN,
    hgroup: ALIGN,
    hr: 'align noshade size width',
    i: '',
    img: 'alt align border height hspace loading longdesc vspace src usemap width',
    ins: 'datetime cite',
    kbd: '',
    label: 'for',
    legend: ALIGN,
    li: 'align value',
    main: ALIGN,
    map: 'name',
    mark: '',
    menu: 'type',
    meter: 'high low max min optimum value',
    nav: ALIGN,
    object: 'data type',
    p: ALIGN,
    pre: 'width',
    progress: 'max value',
    q: 'cite',
    rb: '',
    rp: '',
    rt: '',
    rtc: '',
    ruby: '',
    s: '',
    samp: '',
    search: '',
    span: ALIGN,
    section: ALIGN,
    small: '',
    strike: '',
    strong: '',
    sub: '',
    summary: ALIGN,
    sup: '',
    table: 'align bgcolor border cellpadding cellspacing rules summary width',
    tbody: TABLE_SECTION,
    td: CELL,
    textarea: 'cols rows disabled name readonly',
    tfoot: TABLE_SECTION,
    th: CELL,
    thead: TABLE_SECTION,
    time: 'datetime',
    title: '',
    tr: 'align bgcolor char charoff valign',
    track: 'default kind label src srclang',
    tt: '',
    u: '',
    ul: 'type popover role',
    ol: 'start type reversed',
    var: '',
    video: 'autoplay controls height loop muted playsinline poster preload src width',
    wbr: '',
  },
  GLOBAL_ATTRIBUTES,
);

const ALLOWED_TAGS_SPEC: Record<string, string> = {
  a: 'href title',
  abbr: 'title',
  acronym: 'title',
  b: '',
  blockquote: 'cite',
  cite: '',
  code: '',
  del: 'datetime',
  em: '',
  i: '',
  q: 'cite',
  s: '',
  strike: '',
  strong: '',
};

/** `$allowedtags`: titles (`title_save_pre`), comments (`pre_comment_content`), the `data` context. */
export const TITLE_TAGS: AllowedTags = tags(ALLOWED_TAGS_SPEC);

/** The `pre_term_description` / `pre_user_description` contexts: `$allowedtags`, links with `rel` and `target`. */
export const DESCRIPTION_TAGS: AllowedTags = tags({ ...ALLOWED_TAGS_SPEC, a: 'href title rel target' });

/** wp_kses_allowed_html(): the allow list of each context name. */
export const KSES_CONTEXTS: Readonly<Record<string, AllowedTags>> = {
  post: POST_TAGS,
  data: TITLE_TAGS,
  title_save_pre: TITLE_TAGS,
  pre_comment_content: TITLE_TAGS,
  pre_term_description: DESCRIPTION_TAGS,
  pre_user_description: DESCRIPTION_TAGS,
  user_description: DESCRIPTION_TAGS,
  strip: {},
};

/**
 * Value rules of single attributes (the reference's `valueless`, `required`, `values` and
 * `value_callback` checks). An attribute failing its rule is removed; a tag missing a required
 * attribute loses all of them.
 */
export interface AttrRule {
  /** `y`: only without a value; `n`: only with one. */
  valueless?: 'y' | 'n';
  required?: boolean;
  /** The value, lowercased, must be one of these. */
  values?: readonly string[];
  /** `pdf`: the reference's _wp_kses_allow_pdf_objects, an http(s) URL ending in `.pdf`, no query or fragment. */
  check?: 'pdf';
}

export const ATTRIBUTE_RULES: Readonly<Record<string, Readonly<Record<string, AttrRule>>>> = {
  a: { download: { valueless: 'y' } },
  object: { data: { required: true, check: 'pdf' }, type: { required: true, values: ['application/pdf'] } },
};

/** HTML's void elements: written `<br />`, never closed. */
export const VOID_ELEMENTS: readonly string[] = words('area base br col embed hr img input link meta source track wbr');

/** Attributes whose presence is their meaning: written bare when empty; every other one keeps `=""`. */
export const BOOLEAN_ATTRIBUTES: ReadonlySet<string> = new Set(
  words('autoplay controls default disabled download hidden loop muted nohref noshade nowrap open playsinline readonly reversed'),
);

/** safe_style_css: the CSS properties an inline style may set (`--*`: custom properties). */
export const SAFE_STYLE_PROPERTIES: ReadonlySet<string> = new Set(
  words(`
  background background-color background-image background-position background-repeat background-size
  background-attachment background-blend-mode
  border border-radius border-width border-color border-style border-right border-right-color
  border-right-style border-right-width border-bottom border-bottom-color border-bottom-left-radius
  border-bottom-right-radius border-bottom-style border-bottom-width border-left border-left-color
  border-left-style border-left-width border-top border-top-color border-top-left-radius
  border-top-right-radius border-top-style border-top-width
  border-spacing border-collapse caption-side
  columns column-count column-fill column-gap column-rule column-span column-width
  display
  color filter font font-family font-size font-style font-variant font-weight letter-spacing line-height
  text-align text-decoration text-indent text-transform white-space
  height min-height max-height width min-width max-width
  margin margin-right margin-bottom margin-left margin-top margin-block-start margin-block-end
  margin-inline-start margin-inline-end
  padding padding-right padding-bottom padding-left padding-top padding-block-start padding-block-end
  padding-inline-start padding-inline-end
  flex flex-basis flex-direction flex-flow flex-grow flex-shrink flex-wrap
  gap column-gap row-gap
  grid-template-columns grid-auto-columns grid-column-start grid-column-end grid-column grid-column-gap
  grid-template-rows grid-auto-rows grid-row-start grid-row-end grid-row grid-row-gap grid-gap
  justify-content justify-items justify-self align-content align-items align-self
  clear cursor direction float list-style-type object-fit object-position opacity overflow vertical-align
  writing-mode
  position top right bottom left z-index box-shadow aspect-ratio container-type
  --*`),
);

/** CSS properties whose value may hold `url()`. */
export const CSS_URL_PROPERTIES: ReadonlySet<string> = new Set(words('background background-image cursor filter list-style list-style-image'));

/** CSS properties whose value may be a gradient. */
export const CSS_GRADIENT_PROPERTIES: ReadonlySet<string> = new Set(words('background background-image'));

/** CSS functions whose arguments the style check skips (balanced parentheses). */
export const CSS_VALUE_FUNCTIONS: readonly string[] = words('var calc min max minmax clamp repeat');

/** Schemes a URL inside CSS may have; stricter than the attribute list: nothing but the web. */
export const CSS_URL_PROTOCOLS: readonly string[] = ['http', 'https'];
