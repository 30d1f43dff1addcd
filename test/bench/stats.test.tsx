import { median, ratio } from '../../bench/stats';

describe('median', () => {
	it('takes the middle of an odd count and the mean of the two middles of an even count, unsorted input', () => {
		expect(median([5, 1, 3])).toBe(3);
		expect(median([4, 1, 3, 2])).toBe(2.5);
		expect(median([])).toBeNaN();
	});

	it('ratio of zero is not a number, not Infinity', () => {
		expect(ratio(3, 2)).toBe(1.5);
		expect(ratio(1, 0)).toBeNaN();
	});
});
