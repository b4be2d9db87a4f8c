/**
 * Event cost as the reference prints it: the numbers inside the cost text (a currency symbol before or
 * after them, ranges, lists, decimal commas) give `cost_details.values` sorted ascending, and the
 * formatted cost is the single value or "min – max" with the symbol placed as written and 0 as "Free".
 * Text without numbers ("Donation") is printed as it is.
 */

export interface CostDetails {
  currency_symbol: string;
  currency_code: string;
  currency_position: 'prefix' | 'postfix' | '';
  values: string[];
}

export interface CostMeta {
  /** `_EventCost`: the cost text as written (several costs joined with ", "). */
  cost?: unknown;
  currencySymbol?: unknown;
  currencyCode?: unknown;
  /** `_EventCurrencyPosition`: `prefix`, or `suffix`/`postfix`. */
  currencyPosition?: unknown;
}

const NUMBER = /\d[\d.,]*/g;
const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

/** One number as written, with a dot for decimals: `25,55` → 25.55, `1,000.50` → 1000.50, `1.000,50` → 1000.50. */
export function normaliseAmount(text: string): string | null {
  let t = text.replace(/[.,]+$/, '');
  const lastComma = t.lastIndexOf(',');
  const lastDot = t.lastIndexOf('.');
  if (lastComma >= 0 && lastDot >= 0) {
    // The later separator is the decimal one.
    t = lastComma > lastDot ? t.replace(/\./g, '').replace(',', '.') : t.replace(/,/g, '');
  } else if (lastComma >= 0) {
    // `1,000` groups thousands; `25,55` or `6,5` is a decimal comma.
    t = /^\d{1,3}(,\d{3})+$/.test(t) ? t.replace(/,/g, '') : t.replace(/,(?=\d*$)/, '.').replace(/,/g, '');
  }
  return /^\d+(\.\d+)?$/.test(t) ? t : null;
}

/** Splits the stored cost text into the costs it lists ("0$, 20$, 30$" or one "€6.50 - €8.50"). */
function costParts(text: string): string[] {
  return text
    .split(/;|,\s+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** The symbol written around the first number of the text, and on which side. */
function symbolOf(text: string): { symbol: string; position: 'prefix' | 'postfix' | '' } {
  const m = /^\s*([^\d\s.,-][^\d]*?)?\s*\d[\d.,]*\s*([^\d\s.,–-][^\d]*?)?\s*(?:$|[-–])/.exec(text);
  if (!m) return { symbol: '', position: '' };
  if (m[1] && !/^free$/i.test(m[1].trim())) return { symbol: m[1].trim(), position: 'prefix' };
  if (m[2]) return { symbol: m[2].trim(), position: 'postfix' };
  return { symbol: '', position: '' };
}

export function costDetails(meta: CostMeta): CostDetails {
  const text = str(meta.cost).trim();
  // Keyed by value, so `20` and `20.00` count once; the first spelling is kept.
  const values = new Map<number, string>();
  for (const part of costParts(text))
    for (const raw of part.match(NUMBER) ?? []) {
      const t = normaliseAmount(raw);
      if (t !== null && !values.has(Number(t))) values.set(Number(t), t);
    }
  const parsed = symbolOf(costParts(text)[0] ?? '');
  const symbol = str(meta.currencySymbol) || parsed.symbol;
  const storedPosition = str(meta.currencyPosition);
  const position: CostDetails['currency_position'] =
    storedPosition === 'suffix' || storedPosition === 'postfix'
      ? 'postfix'
      : storedPosition === 'prefix'
        ? 'prefix'
        : symbol
          ? parsed.position || 'prefix'
          : '';
  return {
    currency_symbol: symbol,
    currency_code: str(meta.currencyCode),
    currency_position: position,
    values: [...values.keys()].sort((a, b) => a - b).map((n) => values.get(n)!),
  };
}

/**
 * The calendar's default currency (the reference's `defaultCurrencySymbol` and
 * `reverseCurrencyPosition` options at their defaults): a cost written without a symbol is shown with it.
 */
export const DEFAULT_CURRENCY = { symbol: '$', position: 'prefix' as const };

/**
 * The cost as shown: "$23", "20$", "Free – 30$", "€6.50 – €8.50", or the text when it has no number.
 * A cost without a symbol of its own takes the default one ("10" → "$10"); `cost_details` still says
 * what the event itself stores.
 */
export function formatCost(meta: CostMeta, details: CostDetails = costDetails(meta)): string {
  const text = str(meta.cost).trim();
  if (!text) return '';
  if (details.values.length === 0) return text;
  const symbol = details.currency_symbol || DEFAULT_CURRENCY.symbol;
  const stored = str(meta.currencyPosition);
  const position = details.currency_symbol ? details.currency_position : stored === 'suffix' || stored === 'postfix' ? 'postfix' : DEFAULT_CURRENCY.position;
  const show = (v: string): string => {
    if (Number(v) === 0) return 'Free';
    return position === 'postfix' ? `${v}${symbol}` : `${symbol}${v}`;
  };
  const first = details.values[0];
  const last = details.values[details.values.length - 1];
  if (details.values.length === 1) {
    // A single cost keeps its own wording ("23 per person") unless it only carried the number and symbol.
    const bare = /^[^\d]{0,4}\d[\d.,]*[^\d]{0,4}$/.test(text);
    return bare ? show(first) : text;
  }
  return `${show(first)} – ${show(last)}`;
}

/** Cost input (a string, a number or a list of them) as the one string stored in `_EventCost`. */
export function costText(input: unknown): string {
  if (Array.isArray(input))
    return input
      .map(str)
      .map((s) => s.trim())
      .filter(Boolean)
      .join(', ');
  return str(input).trim();
}
