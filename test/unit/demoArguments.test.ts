import { demoOrderCount } from '../../scripts/demoArguments';

describe('npm run demo: how many orders', () => {
	test.each([
		[[], 1000],
		[['10000'], 10000],
		[['--orders', '10000'], 10000],
		[['--in-process', '250'], 250],
		[['--orders', '1,500'], 1500],
	])('%j runs %i orders', (args, count) => {
		expect(demoOrderCount(args)).toBe(count);
	});

	test.each([[['ten']], [['--orders']], [['0']], [['-5']], [['2.5']]])(
		'%j is refused, saying what it takes',
		(args) => {
			expect(() => demoOrderCount(args)).toThrow(/a whole number of orders above 0, e\.g\. npm run demo -- 10000/);
		},
	);
});
