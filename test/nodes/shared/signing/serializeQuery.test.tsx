import { encodeRfc3986, serializeQuery } from '../../../../nodes/shared/signing/serializeQuery';

describe('serializeQuery', () => {
	it('percent-encodes space, +, /, = and non-ASCII the RFC 3986 way', () => {
		expect(serializeQuery({ q: 'a b+c/d=e', name: 'Jürgen', status: 'open' })).toBe(
			'q=a%20b%2Bc%2Fd%3De&name=J%C3%BCrgen&status=open',
		);
	});

	it("escapes the characters encodeURIComponent leaves alone: !'()*", () => {
		expect(encodeRfc3986("!'()*")).toBe('%21%27%28%29%2A');
	});

	it('keeps key order, skips null and undefined, repeats array keys', () => {
		expect(serializeQuery({ b: 2, a: undefined, c: null, d: ['x', 'y'], e: true })).toBe(
			'b=2&d=x&d=y&e=true',
		);
	});

	it('refuses nested objects instead of guessing a format', () => {
		expect(() => serializeQuery({ x: { y: 1 } as never })).toThrow('Query parameter "x"');
	});
});
