/**
 * The engine's door: what a node file and an operation's declaration may use (CONTRIBUTING.md, Layout).
 * Everything else under engine/ is how the engine runs a declaration, and node folders do not import it
 * (test/unit/engineEntry.test.ts keeps it so).
 */

// Declaring an operation: its endpoint, what an item becomes, how pieces go into requests.
export type {
	EarlierAttempts,
	Endpoint,
	OperationOptions,
	OperationSpec,
	Piece,
	PieceError,
	PieceOutcome,
	PlannedRequest,
	RunSettings,
	StatePart,
	SuccessStatus,
} from './operation';
export { canonicalValue, declareOperation, groupStateKey, groupStateLabel } from './operation';
export type { RequestShape, Slot } from './plan/planner';

// Reading an item: the reader an operation's `read` is given, and the errors it raises.
export type { ItemReader, KeptForRun } from './read/readItems';
export { ItemInputError } from './read/itemInputError';
export { columnExpression } from './read/emptyCells';
export { refuseRepeatedKeys } from './read/repeatedKeys';
export { changingValueIn } from './read/volatileValues';

// Answering: what an operation's answer reader uses of the platform's response.
export type { ApiResponse } from './send/transport';
export { answerRemaining, onlyPiece } from './send/sendRequests';
export { platformMessage, responseError } from './send/platformErrors';
export { isWords } from './results/replacedWords';

// A node file: its operations, its run, its credential test.
export type { NodeOperation } from './nodeOperations';
export { operationProperties, operationSubtitle } from './nodeOperations';
export { executeChosenOperation } from './runOperation';
export { runIndexOf } from './runIndex';
export { testApiKeyCredential, testScimTokenCredential } from './send/credentialTest';
export { normalisedSecret, secretProblem } from './send/secrets';
