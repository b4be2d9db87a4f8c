import { newPostRecord } from './record';

const site = (timezone: string) => ({ home: 'http://example.test', timezone });
const fields = { id: 1, type: 'post', status: 'publish', slug: 'a' };

describe('newPostRecord', () => {
  it('writes local date strings of the instant in the site zone, whatever was asked before', () => {
    const now = new Date('2031-07-01T12:00:00Z');
    const earlier = new Date('2031-01-01T12:00:00Z');
    expect(newPostRecord(site('UTC'), now, fields)).toMatchObject({ date: '2031-07-01 12:00:00', modified: '2031-07-01 12:00:00' });
    expect(newPostRecord(site('America/New_York'), now, fields)).toMatchObject({ date: '2031-07-01 08:00:00', modified: '2031-07-01 08:00:00' });
    const dated = newPostRecord(site('America/New_York'), now, { ...fields, date_gmt: earlier });
    expect(dated).toMatchObject({ date: '2031-01-01 07:00:00', modified: '2031-07-01 08:00:00' });
    expect(newPostRecord(site('UTC'), now, fields)).toMatchObject({ date: '2031-07-01 12:00:00' });
  });

  it('an invalid date is written as luxon writes one', () => {
    expect(newPostRecord(site('UTC'), new Date(NaN), fields).date).toBe('Invalid DateTime');
  });
});
