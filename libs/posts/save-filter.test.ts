/** The save filter by capability, and the profile fields' rules, on the fields each one covers. */
import { savedProfile } from '../auth/profile-fields';
import { ROLE_CAPS, type RoleName } from '../auth/roles';
import type { Caller } from '../auth/user';
import { textFilterFor, THIRD_PARTY } from './save-filter';

const user = (role: RoleName): Caller => ({ id: 1, login: role, roles: [role], caps: [...ROLE_CAPS[role]] });
const P = '<em>e</em><script>s()</script><img src=x onerror=e()>';

describe('textFilterFor', () => {
  it('keeps markup as written for writers with unfiltered_html', () => {
    for (const role of ['administrator', 'editor'] as const) {
      const f = textFilterFor(user(role));
      expect([f.raw, f.title(P), f.html(P), f.text(P)]).toEqual([true, P, P, P]);
    }
  });

  it('filters as title_save_pre, content_save_pre and sanitize_text_field for the others and for imports', () => {
    for (const f of [textFilterFor(user('author')), textFilterFor(user('contributor')), textFilterFor(null), THIRD_PARTY]) {
      expect([f.raw, f.title(P), f.html(P), f.text(P)]).toEqual([false, '<em>e</em>s()', '<em>e</em>s()<img src="x">', 'e']);
    }
  });

  it('stores URLs as esc_url_raw leaves them, for every writer', () => {
    for (const f of [textFilterFor(user('administrator')), textFilterFor(user('author'))]) {
      expect([f.url('javascript:x()'), f.url(' https://e.test/"<x> '), f.url('e.test')]).toEqual(['', 'https://e.test/x', 'http://e.test']);
    }
  });

  it('filters meta by its key: URL keys for everyone, text keys and footnotes without unfiltered_html, others as given', () => {
    const changes = {
      _EventURL: 'javascript:x()',
      _VenueURL: 'https://v.test',
      _VenueAddress: P,
      _EventCost: P,
      footnotes: JSON.stringify([{ id: 'a', content: P }, 'x']),
      _EventVenueID: [3],
      _vendor_aggregator_origin: '<b>kept</b>',
    };
    expect(textFilterFor(user('editor')).meta(changes)).toEqual({ ...changes, _EventURL: '' });
    expect(textFilterFor(user('author')).meta(changes)).toEqual({
      ...changes,
      _EventURL: '',
      _VenueAddress: 'e',
      _EventCost: 'e',
      footnotes: JSON.stringify([{ id: 'a', content: '<em>e</em>s()<img src="x">' }, 'x']),
    });
    expect(THIRD_PARTY.meta({ footnotes: '<script>x</script>not json' })).toEqual({ footnotes: 'xnot json' });
  });
});

describe('savedProfile', () => {
  it('stores names as plain text with entities, the description with the inline tags, the url through esc_url_raw', () => {
    expect(
      savedProfile({
        name: P + ' & co',
        first_name: '<b>Ann</b>',
        nickname: 'a < b',
        description: `${P}<a href="https://x.test" rel="me" target="_blank" onclick="x()">l</a>`,
        url: '<b>javascript:x()</b>',
      }),
    ).toEqual({
      name: 'e &amp; co',
      first_name: 'Ann',
      nickname: 'a &lt; b',
      description: '<em>e</em>s()<a href="https://x.test" rel="me" target="_blank">l</a>',
      url: '',
    });
    expect(savedProfile({})).toEqual({});
  });
});
