/**
 * The model: what each workspace should hold for each customer and each piece of state, learnt only
 * from what our nodes answered. A piece is known (the value the platform must hold, `undefined` for
 * nothing) or unknown (its last setter failed or was in doubt, so it may or may not have been applied;
 * or two overlapping runs set it, so the platform may end on either's value).
 *
 * A customer is found by the identifier a run names them by. The seeded customers have one profile
 * that both their external ID and their email find, so both lead to one record of the truth. The
 * newcomer has no profile until a run or a sign-up (a seed) creates one: a run by external ID creates
 * a profile with that external ID alone, a run by email one with that email alone, and those are two
 * profiles, each with its own record, until a sign-up creates one with both (only when neither exists).
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { isDeepStrictEqual } from 'node:util';

import type { ProfileView, StateView } from '../../sandbox/adminApiTypes';
import { OUTPUT_FIELD, rowOf, statusOf, wordsOf } from '../support/nodeWords';
import type { IdentifierKind, Person, WorkspaceIndex } from './workspaces';
import { emailOf, GROUP, IDENTIFIER_KINDS, PEOPLE, USERS, WORKSPACES, workspaceName } from './workspaces';

export { GROUP };

/** The attribute keys, email_subscribe, and the newsletter group's state. */
export const PIECES = ['tier', 'city', 'email_subscribe', GROUP] as const;
export type PieceName = (typeof PIECES)[number];

/** What one input item sets for one customer. */
export interface ItemIntent {
	user: Person;
	sets: Partial<Record<PieceName, string>>;
	/** Update Attributes' "Update Existing Only": the platform refuses the object when the profile does not exist. */
	updateOnly?: true;
}

/**
 * Known: the platform must hold `value`. Unknown: anything goes; with `oneOf`, the comparison right
 * after two overlapping runs that both had it applied checks it is one of their values, then forgets them.
 */
type Held = { known: true; value: string | undefined } | { known: false; oneOf?: Array<string | undefined> };
/** One profile's pieces. */
type Pieces = Record<PieceName, Held>;
/** Per workspace, customer and identifier: the record of the profile it finds (the same object when one profile has both). */
export type Truth = Record<WorkspaceIndex, Record<Person, Record<IdentifierKind, Pieces>>>;

/**
 * The answers that say the platform holds the item's values: "applied" stands for the word the node
 * says it in ("updated" for an attribute sync, the state set for a newsletter node, see readAnswers),
 * and "unchanged".
 */
const OK_STATUSES = ['applied', 'unchanged'] as const;
type AnswerStatus = (typeof OK_STATUSES)[number] | 'replaced' | 'error';
/** An item's answer once "replaced" is followed; "warned": updated with `warnings`, proving nothing. */
type SettledStatus = Exclude<AnswerStatus, 'replaced'> | 'warned';

export interface Violation {
	/** e.g. "held", "overlap", "pairing", "replaced", "answer", "run" */
	kind: string;
	/** what the last setter was answered, for a "held" violation */
	answered?: SettledStatus;
	piece?: PieceName;
	message: string;
}

function pieceOf(profile: ProfileView, piece: PieceName): string | undefined {
	if (piece === 'email_subscribe') return profile.email_subscribe;
	if (piece === GROUP) return profile.subscription_groups[GROUP];
	const value = profile.custom_attributes[piece];
	return value === undefined ? undefined : String(value);
}

/**
 * The profile an identifier finds, as the platform would. By email: the sequences never let two
 * profiles share a customer's email (a sign-up is skipped while an email-only profile exists), so
 * the one there is; an identified one first, as the platform prefers it.
 */
export function profileOf(state: StateView, user: Person, kind: IdentifierKind): ProfileView | undefined {
	if (kind === 'external_id') return state.profiles.find((profile) => profile.external_id === user);
	const sharing = state.profiles.filter((profile) => profile.email?.toLowerCase() === emailOf(user));
	return sharing.find((profile) => profile.external_id !== undefined) ?? sharing[0];
}

const piecesOf = (profile: ProfileView | undefined): Pieces =>
	Object.fromEntries(
		PIECES.map((piece) => [piece, { known: true, value: profile ? pieceOf(profile, piece) : undefined }]),
	) as Pieces;

/** The records of one workspace's customer as its state holds them: one shared record when one profile has both identifiers. */
function recordsFrom(state: StateView, user: Person): Record<IdentifierKind, Pieces> {
	const byId = profileOf(state, user, 'external_id');
	const byEmail = profileOf(state, user, 'email');
	if (byId && byEmail && byId.service_id === byEmail.service_id) {
		const shared = piecesOf(byId);
		return { external_id: shared, email: shared };
	}
	return { external_id: piecesOf(byId), email: piecesOf(byEmail) };
}

/** The truth as the seeded workspaces hold it: read once, before the first run. */
export function truthFrom(states: Record<WorkspaceIndex, StateView>): Truth {
	const truth = {} as Truth;
	for (const workspace of WORKSPACES) {
		truth[workspace] = {} as Truth[WorkspaceIndex];
		for (const user of PEOPLE) truth[workspace][user] = recordsFrom(states[workspace], user);
	}
	return truth;
}

/** A customer signed up (seeded with both identifiers, nothing else): one fresh record. */
export function signedUp(truth: Truth, workspace: WorkspaceIndex, state: StateView, user: Person): void {
	truth[workspace][user] = recordsFrom(state, user);
}

/** One item's answer, as far as the invariant cares. */
export interface Answer {
	/** "applied" when the item said so in its node's word, which `said` keeps. */
	status: AnswerStatus | string;
	said?: string;
	replacedBy?: number;
	/** Answered with `warnings`: the platform's answer proved nothing of it. */
	warned?: boolean;
	/** An error: the platform refused the object (no profile, Update Existing Only). */
	refused?: boolean;
	/**
	 * Applied, but the pieces listed (`unchanged` in the node's words) were left out as held already: the
	 * rest was sent. Each must have been held before the step, as for an item answered "unchanged".
	 */
	unchangedPieces?: PieceName[];
}

/** A piece as the node's words name it (`unchanged`, `replaced`): an attribute by its key, a group by its label. */
function pieceNamed(label: string): PieceName | undefined {
	if (label === `subscription group ${GROUP}`) return GROUP;
	return (PIECES as readonly string[]).includes(label) && label !== GROUP ? (label as PieceName) : undefined;
}

/**
 * Checks that every item has exactly one answer paired to it, that it carries its input row (`rows`) as
 * it came with the node's words beside it (in `field`, `engagementPlatform` unless Output Field Name
 * sets another; a failed item with the node's `error` over the row's own), every other column as it
 * came whatever it is named (`status`, `id`, `message`, `error`, `engagementPlatform`), that an item
 * answered "replaced" names a later item of the same customer, that an applied item says so in its
 * node's word (`appliedWord`: what the node answers an item it had applied), and returns each item's
 * answer. `stopped`: the node stopped the workflow, so items of its stopped run have no answer (none
 * is then undefined: what became of it is in doubt).
 */
export function readAnswers(
	intents: ItemIntent[],
	output: INodeExecutionData[],
	violations: Violation[],
	appliedWord: (intent: ItemIntent) => string | undefined,
	rows: IDataObject[],
	field = OUTPUT_FIELD,
	stopped = false,
): Array<Answer | undefined> {
	const byItem: INodeExecutionData[][] = intents.map(() => []);
	for (const entry of output) {
		const paired = entry.pairedItem as { item?: unknown } | undefined;
		const index = paired?.item;
		if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= intents.length) {
			violations.push({
				kind: 'pairing',
				message: `an answer is paired to no item of the run: ${JSON.stringify(entry.pairedItem)} ${JSON.stringify(entry.json)}`,
			});
			continue;
		}
		byItem[index].push(entry);
	}
	return byItem.map((entries, index) => {
		if (entries.length !== 1) {
			if (!(stopped && entries.length === 0))
				violations.push({ kind: 'pairing', message: `item ${index} got ${entries.length} answers, not one` });
			if (entries.length === 0) return undefined;
		}
		const json = entries[0].json as IDataObject;
		const words = wordsOf(json, field);
		// A row's own `error` is a column; an item failed when the node says so (or n8n's own error item, without words).
		const failed = statusOf(json, field) === 'failed' || (json[field] === undefined && json.error !== undefined);
		const row = failed ? { ...rows[index], error: words.error } : rows[index];
		if (!isDeepStrictEqual(rowOf(json, field), row))
			violations.push({
				kind: 'row',
				message: `item ${index} does not carry its row as it came: ${JSON.stringify(json)}`,
			});
		const answer: Answer = failed
			? { status: 'error', refused: JSON.stringify(words.error).includes('_update_existing_only is true') }
			: {
					status: words.status === appliedWord(intents[index]) ? 'applied' : String(words.status),
					said: String(words.status),
					replacedBy: words.replacedBy as number | undefined,
					warned: Array.isArray(words.warnings) && words.warnings.length > 0,
					...(Array.isArray(words.unchanged) && {
						unchangedPieces: unchangedPiecesOf(words.unchanged, index, violations),
					}),
				};
		if (answer.status === 'replaced') {
			const by = answer.replacedBy;
			if (typeof by !== 'number' || !Number.isInteger(by) || by <= index || by >= intents.length) {
				violations.push({
					kind: 'replaced',
					message: `item ${index} is answered "replaced" by ${JSON.stringify(by)}, which is no later item of the run`,
				});
			} else if (intents[by].user !== intents[index].user) {
				violations.push({
					kind: 'replaced',
					message: `item ${index} (${intents[index].user}) is answered "replaced" by item ${by}, which sets ${intents[by].user}`,
				});
			}
		} else if (answer.status !== 'error' && !(OK_STATUSES as readonly string[]).includes(answer.status)) {
			violations.push({ kind: 'answer', message: `item ${index} is answered ${JSON.stringify(json)}` });
		}
		return answer;
	});
}

/** The pieces an applied item lists as left out; a name the sequences never set is a violation. */
function unchangedPiecesOf(listed: unknown[], index: number, violations: Violation[]): PieceName[] {
	const pieces: PieceName[] = [];
	for (const label of listed) {
		const piece = pieceNamed(String(label));
		if (piece) pieces.push(piece);
		else violations.push({ kind: 'answer', message: `item ${index} lists ${JSON.stringify(label)} as unchanged` });
	}
	return pieces;
}

/**
 * An item answered "unchanged" says the platform held its values already: each piece it is the last
 * word of in its run of the node must have been known to hold that value before the step (or be
 * unknown), unless the step set it otherwise: an earlier run of the node in the same execution (merged
 * branches: `runOfNode` gives each item's), or another run at the same time (`setByOther`). A try of
 * Retry On Fail, or an execution retried from its saved data, that answered "unchanged" what its earlier
 * try had the platform accept would fail here: that item is answered as then, "updated".
 */
export function checkUnchangedWasHeld(
	before: Truth,
	run: RunShape,
	intents: ItemIntent[],
	answers: Array<Answer | undefined>,
	runOfNode: (item: number) => number,
	setByOther: (user: Person, piece: PieceName, value: string | undefined) => boolean,
	violations: Violation[],
): void {
	intents.forEach(({ user, sets }, item) => {
		const answer = answers[item];
		// An applied item that lists pieces as unchanged says so of those alone.
		const leftOut = answer?.status === 'unchanged' ? undefined : answer?.unchangedPieces;
		if (answer?.status !== 'unchanged' && !leftOut) return;
		for (const [piece, value] of Object.entries(sets) as Array<[PieceName, string]>) {
			if (leftOut && !leftOut.includes(piece)) continue;
			const laterInRun = intents.some(
				(other, at) => at > item && runOfNode(at) === runOfNode(item) && other.user === user && piece in other.sets,
			);
			if (laterInRun) continue;
			const held = before[run.workspace][user][run.identifyBy][piece];
			if (!held.known || held.value === value) continue;
			const setEarlierInStep = intents.some(
				(other, at) =>
					at < item && runOfNode(at) < runOfNode(item) && other.user === user && other.sets[piece] === value,
			);
			if (setEarlierInStep || setByOther(user, piece, value)) continue;
			violations.push({
				kind: 'unchanged',
				piece,
				message: `${run.label}item ${item} (${user}) is answered ${leftOut ? `with ${piece} "unchanged"` : '"unchanged"'}, and before this step the platform held ${piece} ${JSON.stringify(held.value)}, not ${JSON.stringify(value)}: an item whose value the step had accepted is answered "updated"`,
			});
		}
	});
}

/** How an answer is tallied: its word, "updated+warnings" for one in doubt. */
export const tallyName = (answer: Answer | undefined): string => {
	if (!answer) return 'none';
	const word = answer.said ?? answer.status;
	if (answer.warned) return `${word}+warnings`;
	if (answer.refused) return 'error (refused)';
	return answer.unchangedPieces?.length ? `${word} (changed parts alone)` : word;
};

/** An item's answer once "replaced" is followed to the item that replaced it. */
function settledStatus(answers: Array<Answer | undefined>, index: number): SettledStatus | undefined {
	const seen = new Set<number>();
	let at = index;
	for (;;) {
		const answer = answers[at];
		if (!answer) return undefined;
		if (answer.status !== 'replaced') {
			if (answer.warned) return 'warned';
			return (OK_STATUSES as readonly string[]).includes(answer.status) || answer.status === 'error'
				? (answer.status as SettledStatus)
				: undefined;
		}
		const by = answer.replacedBy;
		if (typeof by !== 'number' || by <= at || by >= answers.length || seen.has(by)) return undefined;
		seen.add(by);
		at = by;
	}
}

/** Where a piece's value came from in the last step: for the violation's message. */
interface LastSetter {
	/** e.g. "item 3", or "run 4b item 3" for one of two overlapping runs */
	item: string;
	answered: SettledStatus | undefined;
}
/** Keyed by the record (a profile's pieces), so that two identifiers of one profile meet. */
export type LastSetters = Map<Pieces, Partial<Record<PieceName, LastSetter[]>>>;

/** What a run is, as far as the truth cares. */
export interface RunShape {
	workspace: WorkspaceIndex;
	identifyBy: IdentifierKind;
	/** Set Group State by external ID: the platform ignores an external ID nobody has (2xx, nothing created). */
	ignoresUnknown: boolean;
	/** For the messages: "" for a run alone, "run 4b " for one of two overlapping runs. */
	label: string;
}

/** What one run did to one piece of one record, by the last item that set it. */
interface Effect {
	record: Pieces;
	piece: PieceName;
	value: string | undefined;
	/** Answered as applied or unchanged (through the item that replaced it too), without warnings. */
	applied: boolean;
	setter: LastSetter;
}

/**
 * What a run did, by the last item setting each piece of each customer. An item of a customer whom
 * the run's identifier finds no profile for, in a run that ignores such (Set Group State by external
 * ID), did nothing: unless `mayCreate` says another run at the same time may create that profile, then
 * it is in doubt.
 */
export function effectsOf(
	truth: Truth,
	run: RunShape,
	intents: ItemIntent[],
	answers: Array<Answer | undefined>,
	before: StateView,
	mayCreate: (user: Person) => boolean = () => false,
): Effect[] {
	const last = new Map<string, number>();
	intents.forEach(({ user, sets }, item) => {
		for (const piece of Object.keys(sets)) last.set(`${user} ${piece}`, item);
	});
	const effects: Effect[] = [];
	for (const [key, item] of last) {
		const [user, piece] = key.split(' ') as [Person, PieceName];
		const answered = settledStatus(answers, item);
		const setter = { item: `${run.label}item ${item}`, answered };
		let applied = answered !== undefined && (OK_STATUSES as readonly string[]).includes(answered);
		if (run.ignoresUnknown && !profileOf(before, user, run.identifyBy)) {
			if (!mayCreate(user)) continue;
			applied = false;
		}
		const record = truth[run.workspace][user][run.identifyBy];
		effects.push({ record, piece, value: intents[item].sets[piece], applied, setter });
	}
	return effects;
}

/**
 * The truth after a step: each record's piece takes its last setter's value when applied, else is
 * unknown. Set by two overlapping runs: unknown, and when both were applied, one of their values.
 */
export function learn(effects: Effect[]): LastSetters {
	const byRecord = new Map<Pieces, Map<PieceName, Effect[]>>();
	for (const effect of effects) {
		let pieces = byRecord.get(effect.record);
		if (!pieces) byRecord.set(effect.record, (pieces = new Map()));
		pieces.set(effect.piece, [...(pieces.get(effect.piece) ?? []), effect]);
	}
	const setters: LastSetters = new Map();
	for (const [record, pieces] of byRecord) {
		const named: Partial<Record<PieceName, LastSetter[]>> = {};
		setters.set(record, named);
		for (const [piece, set] of pieces) {
			named[piece] = set.map(({ setter }) => setter);
			if (set.length === 1) {
				record[piece] = set[0].applied ? { known: true, value: set[0].value } : { known: false };
			} else {
				record[piece] = set.every(({ applied }) => applied)
					? { known: false, oneOf: set.map(({ value }) => value) }
					: { known: false };
			}
		}
	}
	return setters;
}

const describeSetters = (setters: LastSetter[] | undefined): string =>
	setters
		? `its last ${setters.length > 1 ? 'setters' : 'setter'} in this step: ${setters.map(({ item, answered }) => `${item}, answered "${answered}"`).join('; ')}`
		: 'this step did not set it';

/**
 * Compares the truth with what a workspace holds; a difference is a violation, after which the
 * truth takes what the platform holds (so one defect is counted once, not again every later run).
 * A record whose profile does not exist holds nothing.
 */
export function compareWithPlatform(
	truth: Truth,
	workspace: WorkspaceIndex,
	state: StateView,
	setters: LastSetters,
	violations: Violation[],
): void {
	const where = `${workspaceName(workspace)} workspace`;
	for (const user of PEOPLE) {
		const records = truth[workspace][user];
		const shared = records.external_id === records.email;
		if ((USERS as readonly string[]).includes(user) && !profileOf(state, user, 'external_id')) {
			violations.push({ kind: 'held', message: `${where}: ${user}'s profile is gone` });
			continue;
		}
		for (const kind of shared ? (['external_id'] as const) : IDENTIFIER_KINDS) {
			const record = records[kind];
			const profile = profileOf(state, user, kind);
			const who = shared
				? user
				: `${user} (the profile ${kind === 'email' ? 'its email' : 'its external ID'} finds${profile ? '' : ': none'})`;
			for (const piece of PIECES) {
				const held = record[piece];
				const actual = profile ? pieceOf(profile, piece) : undefined;
				const set = setters.get(record)?.[piece];
				if (!held.known) {
					if (held.oneOf && !held.oneOf.includes(actual)) {
						violations.push({
							kind: 'overlap',
							piece,
							message: `${where}: ${who}.${piece} is ${JSON.stringify(actual)}, neither overlapping run's value (${held.oneOf.map((value) => JSON.stringify(value)).join(' or ')}; ${describeSetters(set)})`,
						});
					}
					record[piece] = { known: false };
					continue;
				}
				if (actual === held.value) continue;
				const answered = set?.length === 1 ? set[0].answered : undefined;
				violations.push({
					kind: 'held',
					answered,
					piece,
					message: `${where}: ${who}.${piece} is ${JSON.stringify(actual)}, expected ${JSON.stringify(held.value)} (${describeSetters(set)})`,
				});
				record[piece] = { known: true, value: actual };
			}
		}
	}
}

/**
 * The nodes of one execution, run one after the other (a chain, the branches of an IF): n8n runs each
 * node on all its items before the next, so each record's piece takes the effect of the last node, in
 * the order n8n ran them, that set it (`effects` in that order). Unlike two runs at once, no doubt.
 */
export function inExecutionOrder(effects: Effect[]): Effect[] {
	const last = new Map<Pieces, Map<PieceName, Effect>>();
	for (const effect of effects) {
		let pieces = last.get(effect.record);
		if (!pieces) last.set(effect.record, (pieces = new Map()));
		pieces.set(effect.piece, effect);
	}
	return [...last.values()].flatMap((pieces) => [...pieces.values()]);
}
