import { costDetails, costText, formatCost, normaliseAmount } from './cost';

const both = (meta: Parameters<typeof costDetails>[0]) => ({ cost: formatCost(meta), details: costDetails(meta) });

describe('event cost', () => {
  it('places a stored symbol before a bare number', () => {
    expect(both({ cost: '23', currencySymbol: '$', currencyPosition: 'prefix' })).toEqual({
      cost: '$23',
      details: { currency_symbol: '$', currency_code: '', currency_position: 'prefix', values: ['23'] },
    });
  });

  it('reads the symbol and its side from the text', () => {
    expect(both({ cost: '20$' })).toEqual({ cost: '20$', details: { currency_symbol: '$', currency_code: '', currency_position: 'postfix', values: ['20'] } });
    expect(both({ cost: '$23' }).details.currency_position).toBe('prefix');
  });

  it('prints a list of costs as a range from Free', () => {
    const text = costText(['0$', '20$', '30$']);
    expect(text).toBe('0$, 20$, 30$');
    expect(both({ cost: text })).toEqual({
      cost: 'Free – 30$',
      details: { currency_symbol: '$', currency_code: '', currency_position: 'postfix', values: ['0', '20', '30'] },
    });
  });

  it('sorts values and reads decimal commas and ranges', () => {
    expect(costDetails({ cost: '€8.50 - €6.50' }).values).toEqual(['6.50', '8.50']);
    expect(formatCost({ cost: '€6.50 - €8.50' })).toBe('€6.50 – €8.50');
    expect(costDetails({ cost: '25,55' }).values).toEqual(['25.55']);
    expect(costDetails({ cost: '1,000' }).values).toEqual(['1000']);
    expect(normaliseAmount('1.000,50')).toBe('1000.50');
  });

  it('keeps words and empties as they are', () => {
    expect(both({ cost: 'Donation' })).toEqual({ cost: 'Donation', details: { currency_symbol: '', currency_code: '', currency_position: '', values: [] } });
    expect(both({})).toEqual({ cost: '', details: { currency_symbol: '', currency_code: '', currency_position: '', values: [] } });
    expect(formatCost({ cost: '0' })).toBe('Free');
    expect(formatCost({ cost: '15 per person', currencySymbol: '€' })).toBe('15 per person');
  });

  it('shows a cost written without a symbol with the default currency, leaving the details as stored', () => {
    expect(both({ cost: '10' })).toEqual({ cost: '$10', details: { currency_symbol: '', currency_code: '', currency_position: '', values: ['10'] } });
    expect(formatCost({ cost: '5, 15' })).toBe('$5 – $15');
    expect(formatCost({ cost: '0, 25' })).toBe('Free – $25');
    expect(formatCost({ cost: '12.50', currencyPosition: 'suffix' })).toBe('12.50$');
    expect(formatCost({ cost: '20€' })).toBe('20€');
    expect(formatCost({ cost: '7', currencySymbol: '£' })).toBe('£7');
  });
});
