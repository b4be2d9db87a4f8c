/** Imported events leave item-filter as third-party text: every text field of the event, its venue and organizers. */
import { thirdPartyItem } from './filter';
import type { EaEvent } from './items';

const P = '<b>B</b><script>s()</script><img src=x onerror=e()><a href="javascript:j()">a</a>';

describe('thirdPartyItem', () => {
  it('filters titles, content, plain text and URLs of the event, its venue and organizers', () => {
    const item: EaEvent = {
      title: P,
      description: P,
      excerpt: P,
      url: 'javascript:alert(1)',
      image: 'data:image/png;base64,AAAA',
      cost: [P, '10'],
      currency_symbol: '<i>$</i>',
      categories: [`<img src=x onerror=e()>Music`, 'A & B'],
      tags: 'x<script>y</script>,z',
      venue: { venue: P, address: P, zip: '12345', website: 'vbscript:x', url: 'https://v.test/"<b>' },
      organizer: [{ organizer: P, phone: P, email: 'o@example.com', website: 'https://o.test' }],
      uid: 'u-1',
    };
    const out = thirdPartyItem(item);
    expect(out).toMatchObject({
      title: '<b>B</b>s()<a href="j()">a</a>',
      description: '<b>B</b>s()<img src="x"><a href="j()">a</a>',
      excerpt: '<b>B</b>s()<img src="x"><a href="j()">a</a>',
      url: '',
      image: '',
      cost: ['Ba', '10'],
      currency_symbol: '$',
      categories: ['Music', 'A &amp; B'],
      tags: 'x,z',
      venue: { venue: '<b>B</b>s()<a href="j()">a</a>', address: 'Ba', zip: '12345', website: '', url: 'https://v.test/b' },
      organizer: [{ organizer: '<b>B</b>s()<a href="j()">a</a>', phone: 'Ba', email: 'o@example.com', website: 'https://o.test' }],
      uid: 'u-1',
    });
    // The item itself is left as it was.
    expect(item.title).toBe(P);
  });

  it('keeps an item without text fields as it is', () => {
    const item: EaEvent = { title: 'Plain', start_date: '2031-01-01', venue: [], organizer: null };
    expect(thirdPartyItem(item)).toEqual(item);
  });
});
