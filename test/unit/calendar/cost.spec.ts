import { formatCost, parseCost } from '../../../src/services/calendar/cost';

describe('parseCost', () => {
  it.each([
    ['$23', ['23'], '$', 'prefix'],
    ['$10 - $20', ['10', '20'], '$', 'prefix'],
    ['$20 - $10', ['10', '20'], '$', 'prefix'],
    ['10 €', ['10'], '€', 'suffix'],
    ['10€ – 15€', ['10', '15'], '€', 'suffix'],
    ['€5,50', ['5.50'], '€', 'prefix'],
    ['£1,000', ['1000'], '£', 'prefix'],
    ['$1,234.50', ['1234.50'], '$', 'prefix'],
    ['1.234,50 kr', ['1234.50'], 'kr', 'suffix'],
    ['5.5', ['5.5'], '', ''],
    ['0', ['0'], '', ''],
    ['Free', ['0'], '', ''],
    ['free', ['0'], '', ''],
    ['Free - $20', ['0', '20'], '$', 'prefix'],
    ['$10, $10, $5', ['5', '10'], '$', 'prefix'],
    ['Tickets from 15 dollars', ['15'], '', ''],
    ['Donation', [], '', ''],
    ['', [], '', ''],
  ])('%j → values %j, symbol %j (%s)', (raw, values, symbol, position) => {
    const d = parseCost(raw);
    expect(d.values).toEqual(values);
    expect(d.currencySymbol).toBe(symbol);
    expect(d.currencyPosition).toBe(position);
  });

  it('reads ISO codes as the currency code', () => {
    expect(parseCost('USD 10')).toMatchObject({ values: ['10'], currencySymbol: '$', currencyCode: 'USD', currencyPosition: 'prefix' });
    expect(parseCost('10 EUR')).toMatchObject({ currencySymbol: '€', currencyCode: 'EUR', currencyPosition: 'suffix' });
  });

  it('falls back to the default currency when none is written (not for a free event)', () => {
    const defaults = { currencySymbol: '€', currencyCode: 'EUR', currencyPosition: 'suffix' as const };
    expect(parseCost('12', defaults)).toMatchObject({ values: ['12'], currencySymbol: '€', currencyCode: 'EUR', currencyPosition: 'suffix' });
    expect(parseCost('0', defaults)).toMatchObject({ values: ['0'], currencySymbol: '', currencyPosition: '' });
    expect(parseCost('$12', defaults)).toMatchObject({ currencySymbol: '$', currencyPosition: 'prefix' });
  });

  it('recognizes a translated free word', () => {
    expect(parseCost('Gratis', { freeWords: ['Gratis'] }).values).toEqual(['0']);
    expect(parseCost('Gratis').values).toEqual([]);
  });

  it('ignores HTML in the field', () => {
    expect(parseCost('<b>$5</b>').values).toEqual(['5']);
  });
});

describe('formatCost', () => {
  const fmt = (raw: string, free?: string) => formatCost(parseCost(raw), free ? { free } : undefined);

  it.each([
    ['$23', '$23'],
    ['0', 'Free'],
    ['Free', 'Free'],
    ['$10 - $20', '$10 – $20'],
    ['$20 - $10', '$10 – $20'],
    ['10 €', '10€'],
    ['€5,50 - €7', '€5.50 – €7'],
    ['Free - $20', 'Free – $20'],
    ['$10 - $10', '$10'],
    ['15', '15'],
    ['Donation', 'Donation'],
    ['', ''],
  ])('%j shows as %j', (raw, shown) => {
    expect(fmt(raw)).toBe(shown);
  });

  it('uses the translated free label', () => {
    expect(fmt('0', 'Gratuit')).toBe('Gratuit');
    expect(fmt('0 - 5 €', 'Gratuit')).toBe('Gratuit – 5€');
  });
});
