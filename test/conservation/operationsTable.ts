/**
 * Every operation of every action node, as the conservation suite drives it. The guard test fails
 * when a node has an operation this table (or the fault or bad-input table) lacks.
 */
import type { ConservationCase } from './conservationCase';
import { DASHBOARD_CASES } from './dashboardCases';
import { MESSAGE_CASES } from './messageCases';
import { RESOURCE_CASES } from './resourceCases';
import { USER_CASES } from './userCases';

export const CONSERVATION_OPERATIONS: ConservationCase[] = [
	...USER_CASES,
	...MESSAGE_CASES,
	...RESOURCE_CASES,
	...DASHBOARD_CASES,
];
