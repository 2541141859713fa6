import { badRequest, unknownFieldsProblem } from '../badRequest';
import type { RouteDeclaration } from '../core/route';
import { isPlainObject } from '../formats';
import type { InputArray } from '../track/checked';
import { processTrackObject } from '../track/processTrackObject';

// Attributes first: a profile an attribute object creates (an alias-only one, say) is then there for
// the events and purchases of the same request.
const INPUT_ARRAYS: readonly InputArray[] = ['attributes', 'events', 'purchases'];
const MAX_OBJECTS_PER_ARRAY = 75;

interface NonFatalError {
	type: string;
	input_array: InputArray;
	index: number;
}

/** POST /users/track: attributes, events and purchases, each object accepted or refused on its own. */
export const usersTrack: RouteDeclaration = {
	method: 'POST',
	path: '/users/track',
	auth: 'rest',
	permission: 'users.track',
	rateLimitGroup: 'users.track',
	handle({ body, state, now }) {
		const fatal = fatalProblem(body);
		if (fatal) return badRequest(fatal);
		const request = body as Partial<Record<InputArray, unknown[]>>;

		// A request with no objects at all succeeds and processes nothing (our choice; the spec is silent),
		// so a credential test can send {"attributes": []} harmlessly.
		const response: Record<string, unknown> = { message: 'success' };
		const errors: NonFatalError[] = [];
		for (const input of INPUT_ARRAYS) {
			const objects = request[input];
			if (objects === undefined) continue;
			let processed = 0;
			objects.forEach((object, index) => {
				const error = processTrackObject(state, input, object, now);
				if (error === undefined) processed++;
				else errors.push({ type: error, input_array: input, index });
			});
			response[`${input}_processed`] = processed;
		}
		if (errors.length > 0) response.errors = errors;
		return { status: 201, body: response };
	},
};

/** What makes the whole request unusable (the spec's fatal error), or undefined. */
function fatalProblem(body: unknown): string | undefined {
	if (!isPlainObject(body)) return 'Request body must be a JSON object with attributes, events and/or purchases arrays';
	// Only the spec's three fields: anything else is most likely a misspelt array that would otherwise vanish.
	const unknown = unknownFieldsProblem(body, INPUT_ARRAYS);
	if (unknown) return unknown;
	for (const input of INPUT_ARRAYS) {
		const objects = body[input];
		if (objects === undefined) continue;
		if (!Array.isArray(objects)) return `${input} must be an array`;
		if (objects.length > MAX_OBJECTS_PER_ARRAY) {
			return `${input} may contain at most ${MAX_OBJECTS_PER_ARRAY} objects per request; received ${objects.length}`;
		}
	}
	return undefined;
}
