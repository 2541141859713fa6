/** End-to-end suite: the built package in the real n8n application (npm run test:e2e). */
const base = require('./jest.config');

/** @type {import('jest').Config} */
module.exports = {
	...base,
	roots: ['<rootDir>/test/e2e'],
	testMatch: ['**/*.e2e.ts'],
	testTimeout: 600000,
	maxWorkers: 1,
};
