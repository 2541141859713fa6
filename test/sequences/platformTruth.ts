/**
 * The model: what each workspace should hold for each customer and each piece of state, learnt only
 * from what our nodes answered. A piece is known (the value the platform must hold, `undefined` for
 * nothing) or unknown (its last setter failed, so it may or may not have been applied).
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { ProfileView, StateView } from '../../sandbox/adminApiTypes';
import type { UserId, WorkspaceIndex } from './workspaces';
import { USERS, WORKSPACES, workspaceName } from './workspaces';

export const GROUP = 'newsletter';
/** The attribute keys, email_subscribe, and the newsletter group's state. */
export const PIECES = ['tier', 'city', 'email_subscribe', GROUP] as const;
export type PieceName = (typeof PIECES)[number];

/** What one input item sets for one customer. */
export interface ItemIntent {
	user: UserId;
	sets: Partial<Record<PieceName, string>>;
}

type Held = { known: true; value: string | undefined } | { known: false };
export type Truth = Record<WorkspaceIndex, Record<UserId, Record<PieceName, Held>>>;

export const OK_STATUSES = ['processed', 'set', 'unchanged'] as const;
export type AnswerStatus = (typeof OK_STATUSES)[number] | 'replaced' | 'error';

export interface Violation {
	/** e.g. "held", "pairing", "replaced", "answer", "run" */
	kind: string;
	/** what the last setter was answered, for a "held" violation */
	answered?: AnswerStatus;
	piece?: PieceName;
	message: string;
}

export function pieceOf(profile: ProfileView, piece: PieceName): string | undefined {
	if (piece === 'email_subscribe') return profile.email_subscribe;
	if (piece === GROUP) return profile.subscription_groups[GROUP];
	const value = profile.custom_attributes[piece];
	return value === undefined ? undefined : String(value);
}

function profileOf(state: StateView, user: UserId): ProfileView | undefined {
	return state.profiles.find((profile) => profile.external_id === user);
}

/** The truth as the seeded workspaces hold it: read once, before the first run. */
export function truthFrom(states: Record<WorkspaceIndex, StateView>): Truth {
	const truth = {} as Truth;
	for (const workspace of WORKSPACES) {
		truth[workspace] = {} as Truth[WorkspaceIndex];
		for (const user of USERS) {
			const profile = profileOf(states[workspace], user);
			truth[workspace][user] = {} as Record<PieceName, Held>;
			for (const piece of PIECES)
				truth[workspace][user][piece] = profile ? { known: true, value: pieceOf(profile, piece) } : { known: false };
		}
	}
	return truth;
}

/** One item's answer, as far as the invariant cares. */
interface Answer {
	status: AnswerStatus | string;
	replacedBy?: number;
}

/**
 * Checks that every item has exactly one answer paired to it, that an item answered "replaced" names a
 * later item of the same customer, and returns each item's answer.
 */
export function readAnswers(
	intents: ItemIntent[],
	output: INodeExecutionData[],
	violations: Violation[],
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
			violations.push({ kind: 'pairing', message: `item ${index} got ${entries.length} answers, not one` });
			if (entries.length === 0) return undefined;
		}
		const json = entries[0].json as IDataObject;
		const answer: Answer =
			json.error !== undefined
				? { status: 'error' }
				: { status: String(json.status), replacedBy: json.replacedBy as number | undefined };
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

/** An item's answer once "replaced" is followed to the item that replaced it. */
function settledStatus(answers: Array<Answer | undefined>, index: number): AnswerStatus | undefined {
	const seen = new Set<number>();
	let at = index;
	for (;;) {
		const answer = answers[at];
		if (!answer) return undefined;
		if (answer.status !== 'replaced') return answer.status as AnswerStatus;
		const by = answer.replacedBy;
		if (typeof by !== 'number' || by <= at || by >= answers.length || seen.has(by)) return undefined;
		seen.add(by);
		at = by;
	}
}

/** Where a piece's value came from in the last run: for the violation's message. */
export interface LastSetter {
	item: number;
	answered: AnswerStatus | undefined;
}
export type LastSetters = Partial<Record<UserId, Partial<Record<PieceName, LastSetter>>>>;

/**
 * The truth after a run of `workspace`: for each customer and piece, the last item of the run that
 * set it decides. Answered processed, set or unchanged (also through the item that replaced it): the
 * platform must now hold its value. Answered with an error: unknown until a later run sets it.
 */
export function learnFromRun(
	truth: Truth,
	workspace: WorkspaceIndex,
	intents: ItemIntent[],
	answers: Array<Answer | undefined>,
): LastSetters {
	const setters: LastSetters = {};
	intents.forEach(({ user, sets }, item) => {
		for (const piece of Object.keys(sets) as PieceName[]) (setters[user] ??= {})[piece] = { item, answered: undefined };
	});
	for (const [user, pieces] of Object.entries(setters) as Array<[UserId, Partial<Record<PieceName, LastSetter>>]>) {
		for (const [piece, setter] of Object.entries(pieces) as Array<[PieceName, LastSetter]>) {
			setter.answered = settledStatus(answers, setter.item);
			const applied = setter.answered !== undefined && (OK_STATUSES as readonly string[]).includes(setter.answered);
			truth[workspace][user][piece] = applied
				? { known: true, value: intents[setter.item].sets[piece] }
				: { known: false };
		}
	}
	return setters;
}

/**
 * Compares the truth with what a workspace holds; a difference is a violation, after which the
 * truth takes what the platform holds (so one defect is counted once, not again every later run).
 */
export function compareWithPlatform(
	truth: Truth,
	workspace: WorkspaceIndex,
	state: StateView,
	setters: LastSetters,
	violations: Violation[],
): void {
	for (const user of USERS) {
		const profile = profileOf(state, user);
		if (!profile) {
			violations.push({ kind: 'held', message: `${workspaceName(workspace)} workspace: ${user}'s profile is gone` });
			continue;
		}
		for (const piece of PIECES) {
			const held = truth[workspace][user][piece];
			if (!held.known) continue;
			const actual = pieceOf(profile, piece);
			if (actual === held.value) continue;
			const setter = setters[user]?.[piece];
			const why = setter
				? `its last setter in this run, item ${setter.item}, was answered "${setter.answered}"`
				: 'this run did not set it';
			violations.push({
				kind: 'held',
				answered: setter?.answered,
				piece,
				message: `${workspaceName(workspace)} workspace: ${user}.${piece} is ${JSON.stringify(actual)}, expected ${JSON.stringify(held.value)} (${why})`,
			});
			truth[workspace][user][piece] = { known: true, value: actual };
		}
	}
}
