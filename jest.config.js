/** @type {import('jest').Config} */
module.exports = {
	preset: 'ts-jest',
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	modulePathIgnorePatterns: ['<rootDir>/dist/'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { diagnostics: false }],
	},
	testTimeout: 60000,
};
