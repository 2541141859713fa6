/**
 * One row of the conservation table: an operation, driven with every per-item field mapped by an
 * expression, and what each generated item must put on the wire.
 */
import type fc from 'fast-check';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { RecordedRequest, SandboxConfigPatch, SeedData, SeedResult } from '../../sandbox';

/** What an item must put on the wire, named by the key `wirePieces` gives the same data. */
export interface ExpectedPiece {
	key: string;
	/** The data the wire must carry for it, compared whole (deep equality). */
	value?: unknown;
	/** Instead of `value`: a description of what is wrong with the wire's value, or undefined. */
	check?(wireValue: unknown): string | undefined;
}

export interface ConservationCase {
	/** As the other tables name it, e.g. 'User: Track Event'. */
	name: string;
	nodeType: string;
	/** The value of the node's `operation` parameter. */
	operation: string;
	/** `operation` plus every per-item field as an expression on the item. */
	parameters: INodeParameters;
	/** Generated batches of valid items, each carrying a marker unique to it. */
	items: fc.Arbitrary<IDataObject[]>;
	numRuns: number;
	/** What the sandbox must hold so every item is valid. */
	seed(items: IDataObject[]): SeedData;
	/** Fills in what only the seeded sandbox knows (e.g. service IDs), after seeding. */
	complete?(items: IDataObject[], seeded: SeedResult): IDataObject[];
	/** The pieces of this item's data the spec says it puts on the wire. */
	expected(json: IDataObject, index: number): ExpectedPiece[];
	/**
	 * Whether an item's successful answer is the one `request` got: a description of the mismatch, or
	 * undefined. `answers` are what the node said of the item: its words (the output items'
	 * `engagementPlatform`), or the platform's records for an operation answering with them. (A
	 * `dispatch_id` in the response is checked for every operation.)
	 */
	answeredFrom?(answers: IDataObject[], request: RecordedRequest): string | undefined;
	/** Sandbox configuration after each reset, beyond switching its rate limits off. */
	config?: SandboxConfigPatch;
}
