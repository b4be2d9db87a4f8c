import { metaArg } from './meta';

describe('the meta write argument', () => {
  it('takes only registered keys: Object.prototype names are no keys', () => {
    const arg = metaArg();
    const sent = JSON.parse('{"__proto__":{"_EventAllDay":"yes"},"constructor":{"prototype":{"x":1}},"toString":"x","_EventAllDay":true}');
    expect(arg.validate!(sent, {})).toBe(true);
    const out = arg.sanitize!(sent, {}) as Record<string, unknown>;
    expect(out).toEqual({ _EventAllDay: true });
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
  });
});
