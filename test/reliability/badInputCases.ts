/** Every operation that takes item data, as the bad-input suite drives it. */
import type { BadInputCase } from './badInputRun';
import { MESSAGE_CASES } from './badInputMessageCases';
import { RESOURCE_CASES } from './badInputResourceCases';
import { USER_CASES } from './badInputUserCases';

export const BAD_INPUT_CASES: BadInputCase[] = [...USER_CASES, ...MESSAGE_CASES, ...RESOURCE_CASES];
